package dev.veracity.rl;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The tests' way to run a Python driver script against the shims in {@code python/}: the script prints one JSON
 * document, which the test compares with the Java side.
 */
public final class PythonDriver {

    /** The repository's {@code python/} folder, which holds the {@code veracity_rl} package. */
    public static final Path SHIMS = Path.of("..", "python").toAbsolutePath().normalize();

    private static final ObjectMapper JSON = new ObjectMapper();

    private PythonDriver() {
    }

    /** Whether {@code python3} runs here. */
    public static boolean available() {
        try {
            Process p = new ProcessBuilder("python3", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * The first of {@code python3} and {@code /usr/bin/python3} that can import {@code module}, or empty: Debian's
     * {@code python3-torch} is importable by the system's python3 only, which another python3 on the PATH may hide.
     */
    public static Optional<String> withModule(String module) {
        for (String python : List.of("python3", "/usr/bin/python3")) {
            try {
                Process p = new ProcessBuilder(python, "-c", "import " + module).redirectErrorStream(true).start();
                p.getInputStream().readAllBytes();
                if (p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0) {
                    return Optional.of(python);
                }
            } catch (IOException e) {
                // not installed: try the next
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    /** Copies the test resource {@code /python/NAME} into {@code dir}; returns the copy. */
    public static Path script(String name, Path dir) throws IOException {
        Path driver = dir.resolve(name);
        try (InputStream in = PythonDriver.class.getResourceAsStream("/python/" + name)) {
            Files.copy(in, driver);
        }
        return driver;
    }

    /**
     * Runs {@code python3 -B ARGS} with {@code env} added, its stderr kept in {@code dir/driver.err}; asserts that it
     * ended within 60 s with exit 0 (its stderr as the failure's text) and returns its stdout as JSON.
     */
    public static JsonNode run(Path dir, Map<String, String> env, String... args) throws IOException,
            InterruptedException {
        return run("python3", dir, env, args);
    }

    /** As {@link #run(Path, Map, String...)} with this interpreter ({@link #withModule}). */
    public static JsonNode run(String python, Path dir, Map<String, String> env, String... args) throws IOException,
            InterruptedException {
        List<String> command = new ArrayList<>(List.of(python, "-B"));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().putAll(env);
        pb.redirectError(dir.resolve("driver.err").toFile());
        Process p = pb.start();
        String stdout = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(Files.readString(dir.resolve("driver.err"))).isZero();
        return JSON.readTree(stdout);
    }
}
