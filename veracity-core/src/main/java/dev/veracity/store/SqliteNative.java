package dev.veracity.store;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Map;

/**
 * Where sqlite-jdbc finds its native library, decided once per JVM before the first connection. Left to itself, the
 * driver asks the operating system its name on every start ({@code uname -o}, a subprocess, to tell Termux from Linux)
 * and extracts its 1-2 MB library from the jar into the temporary folder under a new name, reads it back to compare,
 * and deletes it at exit. On the platforms the driver ships a library for and whose library folder is plain to see
 * (glibc Linux and macOS, x86-64 and ARM64), the library is copied once into a per-user cache folder named by the
 * driver's version and handed to the driver through its own {@code org.sqlite.lib.path}/{@code org.sqlite.lib.name}
 * settings; anywhere else (Android, musl, another architecture, a cache that cannot be written, settings the user
 * gave), nothing is set and the driver finds its library as it always did.
 */
final class SqliteNative {

    /** The system property sqlite-jdbc reads its library's folder from. */
    static final String LIB_PATH = "org.sqlite.lib.path";
    /** The system property sqlite-jdbc reads its library's file name from. */
    static final String LIB_NAME = "org.sqlite.lib.name";

    private static volatile boolean prepared;

    private SqliteNative() {
    }

    /** Sets the driver's library settings, once per JVM, where {@link #cached} finds or makes the library. */
    static void prepare() {
        if (prepared) {
            return;
        }
        synchronized (SqliteNative.class) {
            if (!prepared) {
                if (System.getProperty(LIB_PATH) == null && System.getProperty(LIB_NAME) == null) {
                    Path lib = cached(System.getenv(), System.getProperty("os.name", ""), System.getProperty("os.arch", ""),
                            System.getProperty("user.home"));
                    if (lib != null) {
                        System.setProperty(LIB_NAME, lib.getFileName().toString());
                        System.setProperty(LIB_PATH, lib.getParent().toString());
                    }
                }
                prepared = true;
            }
        }
    }

    /**
     * The driver's library for this platform in the per-user cache, copied there from the driver's jar when missing or
     * of another size; null where the platform's folder is not certain or the copy cannot be made.
     */
    static Path cached(Map<String, String> env, String osName, String osArch, String home) {
        String folder = folder(osName, osArch);
        if (folder == null) {
            return null;
        }
        String name = System.mapLibraryName("sqlitejdbc");
        if (name.endsWith(".dylib")) {
            name = name.replace(".dylib", ".jnilib"); // the driver's name for its macOS library
        }
        URL resource = org.sqlite.SQLiteJDBCLoader.class.getResource("/org/sqlite/native/" + folder + "/" + name);
        Path cacheHome = cacheHome(env, home);
        if (resource == null || cacheHome == null) {
            return null;
        }
        try {
            URLConnection c = resource.openConnection();
            c.setUseCaches(false); // the jar's handle is not kept open for the JVM's life
            long size = c.getContentLengthLong();
            Path dir = cacheHome.resolve("veracity").resolve("sqlite-jdbc-" + org.sqlite.SQLiteJDBCLoader.getVersion())
                    .resolve(folder.replace('/', '-'));
            Path lib = dir.resolve(name);
            if (size > 0 && Files.isRegularFile(lib) && Files.size(lib) == size) {
                return lib;
            }
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, name, ".part");
            try (InputStream in = c.getInputStream()) {
                Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
                // another process may have put the same bytes there meanwhile: either copy is whole when it lands
                Files.move(tmp, lib, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(tmp);
            }
            return lib;
        } catch (IOException | RuntimeException e) {
            return null; // the driver's own way
        }
    }

    /**
     * The driver's library folder for a platform whose folder is certain without asking the operating system, else
     * null: glibc Linux (no musl loader in /lib, not Android) and macOS, on x86-64 and ARM64.
     */
    static String folder(String osName, String osArch) {
        String arch = switch (osArch.toLowerCase(Locale.ROOT)) {
            case "amd64", "x86_64" -> "x86_64";
            case "aarch64", "arm64" -> "aarch64";
            default -> null;
        };
        if (arch == null) {
            return null;
        }
        if (osName.startsWith("Mac")) {
            return "Mac/" + arch;
        }
        if (osName.equals("Linux") && !android() && !musl()) {
            return "Linux/" + arch;
        }
        return null;
    }

    private static boolean android() {
        return System.getProperty("java.vm.vendor", "").contains("Android") || Files.exists(Path.of("/system/build.prop"))
                || System.getenv("TERMUX_VERSION") != null;
    }

    private static boolean musl() {
        try (var s = Files.list(Path.of("/lib"))) {
            return s.anyMatch(p -> p.getFileName().toString().startsWith("ld-musl"));
        } catch (IOException | RuntimeException e) {
            return true; // unsure: the driver decides
        }
    }

    /** {@code $XDG_CACHE_HOME}, else {@code ~/.cache}; null without either. */
    static Path cacheHome(Map<String, String> env, String home) {
        String xdg = env.get("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()) {
            return Path.of(xdg);
        }
        return home == null || home.isBlank() ? null : Path.of(home, ".cache");
    }
}
