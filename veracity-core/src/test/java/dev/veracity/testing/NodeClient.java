package dev.veracity.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * An npm package's client run by Node.js from a test (the official {@code openai} and
 * {@code @modelcontextprotocol/sdk} clients against our servers): installed once into a folder under {@code target/}
 * with {@code npm install}, then a script run with {@code node}. Every process's output goes to a file, read once it
 * has ended, and every wait is bounded: a hung {@code node} or {@code npm} is killed and fails the test instead of
 * hanging the build.
 */
public final class NodeClient {

    private NodeClient() {
    }

    /** Whether {@code node} and {@code npm} are installed (a test that needs them skips, saying so, when not). */
    public static boolean available() {
        return succeeds("node", "--version") && succeeds("npm", "--version");
    }

    /** Installs {@code pkg@version} into {@code dir} (an ES-module package) unless that version is there already. */
    public static void install(Path dir, String pkg, String version) throws IOException, InterruptedException {
        Path installed = dir.resolve("node_modules").resolve(pkg).resolve("package.json");
        if (Files.exists(installed) && Files.readString(installed).contains("\"version\": \"" + version + "\"")) {
            return;
        }
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("package.json"), "{\"private\": true, \"type\": \"module\", \"dependencies\":"
                + " {\"" + pkg + "\": \"" + version + "\"}}\n");
        run(dir, Map.of(), 300, "npm", "install", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error");
    }

    /**
     * Runs the command in {@code dir} with these variables added, and returns what it printed (stdout and stderr);
     * fails when it does not end within {@code seconds} (it is killed) or ends with another status than 0.
     */
    public static String run(Path dir, Map<String, String> env, int seconds, String... command)
            throws IOException, InterruptedException {
        Path log = Files.createTempFile("node-client", ".log");
        try {
            ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(nullFile()));
            pb.environment().putAll(env);
            Process p = pb.start();
            if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                throw new AssertionError(String.join(" ", command) + " did not finish in " + seconds + " s; it said:\n"
                        + Files.readString(log, StandardCharsets.UTF_8));
            }
            String text = Files.readString(log, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                throw new AssertionError(String.join(" ", command) + " ended with " + p.exitValue() + "; it said:\n"
                        + text);
            }
            return text;
        } finally {
            Files.deleteIfExists(log);
        }
    }

    /** The last line of the output that is a JSON object: what a client script prints as its result. */
    public static String lastJsonLine(String output) {
        List<String> lines = output.lines().filter(l -> l.startsWith("{")).toList();
        if (lines.isEmpty()) {
            throw new AssertionError("no JSON line in the output:\n" + output);
        }
        return lines.getLast();
    }

    private static boolean succeeds(String... command) {
        try {
            run(Path.of(".").toAbsolutePath(), Map.of(), 30, command);
            return true;
        } catch (IOException | AssertionError e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static java.io.File nullFile() {
        return new java.io.File(System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
    }
}
