package dev.veracity.config;

import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * What build of Veracity is running: the project version and the git commit it was built from (written at build
 * time into {@code build.properties} beside this class). A run records it so that its numbers can be traced to code.
 *
 * @param version the project version, e.g. 0.1.0-SNAPSHOT
 * @param commit  the full commit id, or "unknown" when the build had no git checkout
 * @param dirty   whether the working tree had uncommitted changes at build time
 */
public record BuildInfo(String version, String commit, boolean dirty) {

    private static final BuildInfo CURRENT = load();

    /** This build. */
    public static BuildInfo current() {
        return CURRENT;
    }

    /** As summary.json records it. */
    public Map<String, Object> asMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("version", version);
        m.put("commit", commit);
        m.put("dirty", dirty);
        m.put("java", Runtime.version().toString());
        return m;
    }

    static BuildInfo load() {
        Properties p = new Properties();
        try (InputStream in = BuildInfo.class.getResourceAsStream("build.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            // an unreadable resource is the same as none: the run still records "unknown"
        }
        String version = p.getProperty("git.build.version", "unknown");
        String commit = p.getProperty("git.commit.id", "");
        return new BuildInfo(version, commit.isBlank() ? "unknown" : commit,
                Boolean.parseBoolean(p.getProperty("git.dirty", "false")));
    }
}
