package dev.veracity.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** sqlite-jdbc's native library: copied once into the user's cache, where its folder is certain, and reused. */
class SqliteNativeTest {

    @TempDir
    Path dir;

    /** The bytes of the driver's own library for a platform folder. */
    private static byte[] shipped(String folder, String name) throws Exception {
        try (var in = org.sqlite.SQLiteJDBCLoader.class.getResourceAsStream("/org/sqlite/native/" + folder + "/" + name)) {
            return in.readAllBytes();
        }
    }

    @Test
    void theLibraryIsCopiedOnceIntoTheCacheFolderAndReused() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(SqliteNative.folder("Linux", "amd64") != null,
                "a glibc Linux host (the musl and Android checks read this machine)");
        Map<String, String> env = Map.of("XDG_CACHE_HOME", dir.toString());
        Path lib = SqliteNative.cached(env, "Linux", "amd64", "/nonexistent-home");
        String name = System.mapLibraryName("sqlitejdbc");
        assertThat(lib).isNotNull().startsWith(dir.resolve("veracity")).hasFileName(name);
        assertThat(Files.readAllBytes(lib)).isEqualTo(shipped("Linux/x86_64", name));
        try (var files = Files.list(lib.getParent())) {
            assertThat(files.toList()).as("no partial copy left").containsExactly(lib);
        }

        FileTime old = FileTime.fromMillis(1_000_000_000_000L);
        Files.setLastModifiedTime(lib, old);
        assertThat(SqliteNative.cached(env, "Linux", "amd64", "/nonexistent-home")).isEqualTo(lib);
        assertThat(Files.getLastModifiedTime(lib)).as("reused, not written again").isEqualTo(old);

        Files.write(lib, new byte[] {1, 2, 3}); // a copy cut short (or another build's): made again
        assertThat(SqliteNative.cached(env, "Linux", "amd64", "/nonexistent-home")).isEqualTo(lib);
        assertThat(Files.readAllBytes(lib)).isEqualTo(shipped("Linux/x86_64", name));
    }

    @Test
    void platformsWhoseFolderIsNotCertainAreLeftToTheDriver() {
        assertThat(SqliteNative.folder("Windows 11", "amd64")).isNull();
        assertThat(SqliteNative.folder("Linux", "riscv64")).isNull();
        assertThat(SqliteNative.folder("Linux", "arm")).isNull();
        assertThat(SqliteNative.folder("Mac OS X", "aarch64")).isEqualTo("Mac/aarch64");
        assertThat(SqliteNative.folder("Mac OS X", "x86_64")).isEqualTo("Mac/x86_64");
        assertThat(SqliteNative.cached(Map.of(), "FreeBSD", "amd64", dir.toString())).isNull();
    }

    @Test
    void theCacheIsXdgsElseTheHomesAndNoneWithoutEither() {
        assertThat(SqliteNative.cacheHome(Map.of("XDG_CACHE_HOME", dir.toString()), "/home/u")).isEqualTo(dir);
        assertThat(SqliteNative.cacheHome(Map.of("XDG_CACHE_HOME", "relative"), "/home/u")).isEqualTo(Path.of("/home/u/.cache"));
        assertThat(SqliteNative.cacheHome(Map.of(), "/home/u")).isEqualTo(Path.of("/home/u/.cache"));
        assertThat(SqliteNative.cacheHome(Map.of(), null)).isNull();
    }

    @Test
    void aCacheThatCannotBeWrittenLeavesTheDriverItsOwnWay() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(SqliteNative.folder("Linux", "amd64") != null, "a glibc Linux host");
        Path file = Files.writeString(dir.resolve("a-file"), "not a folder");
        assertThat(SqliteNative.cached(Map.of("XDG_CACHE_HOME", file.toString()), "Linux", "amd64", null)).isNull();
    }
}
