package dev.veracity.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * The {@code veracity} command line as a process of its own, on the tests' class path: for the servers ({@code serve},
 * {@code serve-rewards}), which print their URL, run until a signal and stop in a shutdown hook, none of which can be
 * seen in-process. Its output and error lines are read as they come ({@link #out()}, {@link #err()}); {@link #url}
 * waits for the line that announces the server. Closing it ends the process (SIGTERM, then SIGKILL). {@link #run} runs a
 * command to its end in a JVM started as {@code ./veracity} starts it, for what only a process of its own shows (its
 * standard error, its class path, its exit code).
 */
final class CliProcess implements AutoCloseable {

    private final Process process;
    private final List<String> out = Collections.synchronizedList(new ArrayList<>());
    private final List<String> err = Collections.synchronizedList(new ArrayList<>());
    private final Thread outReader;
    private final Thread errReader;
    private final List<Consumer<String>> outWatchers = Collections.synchronizedList(new ArrayList<>());

    private CliProcess(Process process) {
        this.process = process;
        outReader = Thread.ofVirtual().start(() -> read(process.getInputStream(), line -> {
            out.add(line);
            List.copyOf(outWatchers).forEach(w -> w.accept(line));
        }));
        errReader = Thread.ofVirtual().start(() -> read(process.getErrorStream(), err::add));
    }

    /** What a command run to its end printed. */
    record Ran(int code, String out, String err) {
    }

    /** The launcher: its JVM flags are the ones {@link #run} starts the JVM with. */
    static final Path LAUNCHER = Path.of("..", "veracity");

    /** The flags ./veracity gives the JVM ({@code JAVA=("$JAVA_HOME/bin/java" FLAGS)}). */
    static List<String> launcherJvmFlags() throws IOException {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^JAVA=\\(\"\\$JAVA_HOME/bin/java\" ([^)]*)\\)$")
                .matcher(java.nio.file.Files.readString(LAUNCHER));
        if (!m.find()) {
            throw new AssertionError("no JAVA=(\"$JAVA_HOME/bin/java\" ...) line in " + LAUNCHER);
        }
        return List.of(m.group(1).trim().split("\\s+"));
    }

    /** Runs {@code veracity ARGS...} to its end with {@code env} added to this environment, on this class path. */
    static Ran run(java.util.Map<String, String> env, String... args) throws IOException, InterruptedException {
        return run(System.getProperty("java.class.path"), Path.of(""), env, args);
    }

    /**
     * Runs {@code veracity ARGS...} to its end in a JVM with the launcher's flags, on {@code classPath}, in folder
     * {@code dir}, with {@code env} added; its output and error kept apart. A guard of three minutes, not a measure.
     */
    static Ran run(String classPath, Path dir, java.util.Map<String, String> env, String... args)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(launcherJvmFlags());
        cmd.addAll(List.of("-cp", classPath, VeracityCli.class.getName()));
        cmd.addAll(List.of(args));
        Path out = java.nio.file.Files.createTempFile("veracity-out", ".txt");
        Path err = java.nio.file.Files.createTempFile("veracity-err", ".txt");
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toAbsolutePath().toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .redirectOutput(out.toFile()).redirectError(err.toFile());
            pb.environment().putAll(env);
            Process p = pb.start();
            if (!p.waitFor(180, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("veracity " + String.join(" ", args) + " did not finish in 180 s");
            }
            return new Ran(p.exitValue(), java.nio.file.Files.readString(out), java.nio.file.Files.readString(err));
        } finally {
            java.nio.file.Files.deleteIfExists(out);
            java.nio.file.Files.deleteIfExists(err);
        }
    }

    /** Starts {@code veracity ARGS...} in a new JVM with the launcher's flags, on this class path. */
    static CliProcess start(String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(launcherJvmFlags());
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), VeracityCli.class.getName()));
        cmd.addAll(List.of(args));
        return new CliProcess(new ProcessBuilder(cmd).start());
    }

    /**
     * The URL on the first output line that starts with {@code prefix} (the first {@code http://} word on it), as soon
     * as it is printed.
     *
     * @throws AssertionError when the process ends, or does not print it within a minute (a guard, not a measure),
     *                        with what it printed on stderr
     */
    String url(String prefix) throws InterruptedException {
        CompletableFuture<String> url = new CompletableFuture<>();
        Consumer<String> watcher = line -> {
            if (line.startsWith(prefix)) {
                url.complete(line.substring(line.indexOf("http://")).split(" ")[0]);
            }
        };
        outWatchers.add(watcher);
        List.copyOf(out).forEach(watcher); // printed before we looked
        process.onExit().thenRun(() -> url.completeExceptionally(new IllegalStateException("the process ended")));
        try {
            return url.get(60, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new AssertionError("no line starting '" + prefix + "' (" + e.getMessage() + "); stdout " + out
                    + ", stderr " + err, e);
        } finally {
            outWatchers.remove(watcher);
        }
    }

    Process process() {
        return process;
    }

    /** The output lines so far. */
    List<String> out() {
        return List.copyOf(out);
    }

    /** The error lines so far; after {@link #awaitErr()}, all of them. */
    List<String> err() {
        return List.copyOf(err);
    }

    /** Waits until the error stream has been read to its end (the process has ended); a guard of a minute. */
    void awaitErr() throws InterruptedException {
        errReader.join(60_000);
    }

    /** Waits until both streams have been read to their end (the process has ended); a guard of a minute each. */
    void awaitEnd() throws InterruptedException {
        outReader.join(60_000);
        errReader.join(60_000);
    }

    /** Sends SIGTERM, as Ctrl-C or a service manager does: the command's shutdown hook runs. */
    void terminate() throws IOException, InterruptedException {
        if (new ProcessBuilder("kill", "-TERM", Long.toString(process.pid())).start().waitFor() != 0) {
            throw new AssertionError("kill -TERM " + process.pid() + " failed");
        }
    }

    /** Ends the process: SIGTERM, ten seconds, then SIGKILL. */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }

    private static void read(InputStream in, Consumer<String> each) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                each.accept(line);
            }
        } catch (IOException ignored) {
            // the process ended
        }
    }
}
