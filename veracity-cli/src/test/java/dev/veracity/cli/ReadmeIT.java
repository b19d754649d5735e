package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.veracity.testing.Shared;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The READMEs work exactly as written: every command of every README (and {@code docs/}) that is not marked with what
 * it needs ({@link ReadmeCommands}) runs verbatim, in {@code bash}, in a fresh copy of the project, through the real
 * {@code ./veracity} launcher; first the README's quick start after a real {@code ./veracity demo}, then the report
 * command the demo prints, then every other command with the README's simulator running.
 *
 * <p>The copy is what a clone of this working tree holds ({@code git ls-files}: the tracked files and the untracked ones
 * git does not ignore), beside a {@code shared} folder as the README's {@code ../shared} paths expect. The launcher in it
 * does not rebuild the project: the runtime this build just packaged ({@code veracity-cli/target/veracity-cli.jar} and
 * {@code lib}, and the embed part's) is put in the copy's {@code target} folders and marked newer than every source, as
 * the launcher itself marks a build it made. The files the README names as the user's own ({@code pairs.jsonl},
 * {@code rollouts.jsonl}, ...) come from {@code src/test/resources/dev/veracity/cli/readme}, in the formats the README
 * gives; {@code RAMDocs_test.jsonl} and {@code NQ-open.dev.jsonl} from the shared data. Servers ({@code sim},
 * {@code serve}, {@code serve-rewards}, {@code serve-retrieval}) run in the background on the README's ports until the
 * end (or until a later command wants the port); a command identical to one already run is not run again.
 *
 * <p>Runs under failsafe after {@code package} ({@code ./mvnw -B verify}); {@code -DskipTests} skips it.
 */
class ReadmeIT {

    /** Subcommands that serve until stopped: started in the background, ready once their port answers. */
    private static final Set<String> SERVERS = Set.of("sim", "serve", "serve-rewards", "serve-retrieval");

    /** Subcommands whose stderr must carry no warning (issue 26; {@link QuietStderrTest} checks them in a JVM). */
    private static final Set<String> QUIET = Set.of("index", "search", "eval");

    /** The user's own input files that README commands name, as this test provides them. */
    private static final List<String> FIXTURES = List.of("pairs.jsonl", "rollouts.jsonl", "rewards.jsonl", "tokens.jsonl",
            "corpus.jsonl", "docs.jsonl", "dpo-pairs.jsonl", "sft.jsonl");

    @TempDir
    Path tmp;

    @Test
    void everyReadmeCommandRunsAsWrittenInAFreshClone() throws Exception {
        Path ramdocs = Shared.data("ramdocs/RAMDocs_test.jsonl");
        Path clone = tmp.resolve("veracity");
        copyAsCloned(ReadmeCommands.ROOT, clone);
        Path shared = Files.createSymbolicLink(tmp.resolve("shared"), ramdocs.getParent().getParent().getParent());
        installRuntime(ReadmeCommands.ROOT, clone);
        for (String f : FIXTURES) {
            try (InputStream in = ReadmeIT.class.getResourceAsStream("readme/" + f)) {
                Files.copy(in, clone.resolve(f));
            }
        }
        Files.copy(ramdocs, clone.resolve("RAMDocs_test.jsonl"));
        Files.copy(Shared.data("nq-open/NQ-open.dev.jsonl"), clone.resolve("NQ-open.dev.jsonl"));

        List<ReadmeCommands.Command> runnable = ReadmeCommands.all().stream()
                .filter(c -> c.needs().isEmpty() && !isCiCommand(c)).toList();
        String busy = busyPorts(runnable);
        assertThat(busy).as("the README's ports, before any command runs").isEmpty();

        try (Shell sh = new Shell(clone, Files.createDirectories(tmp.resolve("logs")))) {
            // The quick start, in order, after a real demo; then the command the demo itself prints.
            List<ReadmeCommands.Command> quickStart = quickStart();
            String demo = sh.run(quickStart.getFirst());
            assertThat(demo).contains("they measure plumbing, not model quality");
            String compared = "";
            for (ReadmeCommands.Command c : quickStart.subList(1, quickStart.size())) {
                compared = sh.run(c);
            }
            assertThat(clone.resolve("report/index.html")).isRegularFile();
            assertThat(clone.resolve("report/dataset-ramdocs.html")).isRegularFile();
            assertThat(compared).contains("Paired differences against standard-rag");
            Matcher said = Pattern.compile("the report:\\s+(\\./veracity report \\S+ --out (\\S+))").matcher(demo);
            assertThat(said.find()).as(demo).isTrue();
            sh.run(new ReadmeCommands.Command(Path.of("(the demo's output)"), 0, said.group(1), said.group(1), ""));
            assertThat(clone.resolve(said.group(2)).resolve("index.html")).isRegularFile();

            // Every other command, with the README's simulator up first (the eval examples come before it).
            List<ReadmeCommands.Command> rest = runnable.stream().filter(c -> !quickStart.contains(c)).toList();
            List<ReadmeCommands.Command> sims = rest.stream().filter(c -> c.subcommand().equals("sim")).toList();
            assertThat(sims).as("the README's simulator command").isNotEmpty();
            sh.start(sims.getFirst());
            for (ReadmeCommands.Command c : rest) {
                if (c == sims.getFirst()) {
                    continue;
                }
                if (SERVERS.contains(c.subcommand())) {
                    sh.start(c);
                } else {
                    sh.run(c);
                }
            }
            assertThat(sh.ran).as("commands run").hasSizeGreaterThan(10);
        } finally {
            Files.delete(shared); // the link, not the shared folder, before JUnit cleans the temporary folder
        }
    }

    /** A port on the local machine, named in a command: a server's {@code --port}, or a URL's. */
    private static final Pattern PORT = Pattern.compile("(?:--port[ =]|//(?:127\\.0\\.0\\.1|localhost):)(\\d+)");

    /** The fixed ports these commands listen on or call (port 0, a free one, is none). */
    static java.util.SortedSet<Integer> ports(List<ReadmeCommands.Command> commands) {
        java.util.SortedSet<Integer> ports = new java.util.TreeSet<>();
        for (ReadmeCommands.Command c : commands) {
            Matcher m = PORT.matcher(c.words());
            while (m.find()) {
                int port = Integer.parseInt(m.group(1));
                if (port > 0) {
                    ports.add(port);
                }
            }
        }
        return ports;
    }

    /**
     * "" when every port the commands use is free; else one line naming the first port in use and what holds it (as
     * {@code ss} says, when it can): checked before the demo, so a busy port stops the test before minutes of work.
     */
    static String busyPorts(List<ReadmeCommands.Command> commands) {
        for (int port : ports(commands)) {
            if (Shell.answers(port)) {
                String holder = holder(port);
                return "port " + port + " is already in use on this machine" + (holder.isEmpty() ? "" : " (by " + holder
                        + ")") + "; the README's commands use it (" + commands.stream().filter(c -> PORT.matcher(
                        c.words()).results().anyMatch(r -> r.group(1).equals(Integer.toString(port)))).findFirst()
                        .map(ReadmeCommands.Command::where).orElse("?") + "): free it and run again";
            }
        }
        return "";
    }

    /** The process listening on a local port, as {@code ss -ltnp} says ({@code "java",pid=123}), or "" unknown. */
    static String holder(int port) {
        try {
            Process ss = new ProcessBuilder("ss", "-Hltnp", "sport = :" + port).redirectErrorStream(true).start();
            String out = new String(ss.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!ss.waitFor(10, TimeUnit.SECONDS) || ss.exitValue() != 0) {
                return "";
            }
            Matcher users = Pattern.compile("users:\\(\\((.*?)\\)\\)").matcher(out);
            return users.find() ? users.group(1) : "";
        } catch (IOException e) {
            return ""; // no ss here
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    /** The line a server prints when it listens, with its own URL (serve's also names the upstream's, after it). */
    private static final Pattern LISTENING = Pattern.compile(
            "(?m)^(?:Serving|Veracity simulator listening)\\b.*? on http://127\\.0\\.0\\.1:(\\d+)");

    /** The port a server started with {@code --port 0} printed as its own, once it has. */
    static java.util.OptionalInt ownPort(String printed) {
        Matcher m = LISTENING.matcher(printed);
        return m.find() ? java.util.OptionalInt.of(Integer.parseInt(m.group(1))) : java.util.OptionalInt.empty();
    }

    /** The commands of README.md's quick start section, in order. */
    static List<ReadmeCommands.Command> quickStart() {
        try {
            List<String> lines = Files.readAllLines(ReadmeCommands.ROOT.resolve("README.md"));
            int from = lines.indexOf("## Quick start");
            assertThat(from).as("README.md has a '## Quick start' section").isNotNegative();
            int to = from + 1;
            while (to < lines.size() && !lines.get(to).startsWith("## ")) {
                to++;
            }
            int first = from + 1;
            int last = to;
            return ReadmeCommands.of(Path.of("README.md")).stream().filter(c -> c.line() > first && c.line() <= last).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** README.md's test command is what CI runs ({@code .ci/run}), and so what runs this test: it is not run here. */
    static boolean isCiCommand(ReadmeCommands.Command c) {
        return c.file().equals(Path.of("README.md")) && c.words().equals(ReadmeCommands.ciCommand());
    }

    /** Copies what a clone of this working tree would hold: tracked files and untracked ones git does not ignore. */
    static void copyAsCloned(Path root, Path to) throws Exception {
        Process git = new ProcessBuilder("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
                .directory(root.toFile()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        byte[] listing = git.getInputStream().readAllBytes();
        // Only git knows what a clone holds (tracked files, .gitignore): without it the test skips, and fails under CI.
        Shared.assumeUnlessCi(git.waitFor() == 0, root + " is not a git checkout (git ls-files failed), and the README"
                + " test copies what a clone holds by git ls-files");
        for (String name : new String(listing, StandardCharsets.UTF_8).split("\0")) {
            Path from = root.resolve(name);
            if (name.isEmpty() || !Files.isRegularFile(from)) {
                continue; // deleted in the working tree, or a submodule
            }
            Path target = to.resolve(name);
            Files.createDirectories(target.getParent());
            Files.copy(from, target, StandardCopyOption.COPY_ATTRIBUTES);
            Files.setLastModifiedTime(target, FileTime.from(Instant.now())); // a checkout's files are as new as the checkout
        }
    }

    /**
     * Puts the runtime this build packaged into the copy, where {@code ./veracity} looks for it, and marks it newer than
     * every source as the launcher marks a build it made ({@code touch}), so the launcher runs it instead of building.
     */
    static void installRuntime(Path root, Path clone) throws IOException {
        for (String module : List.of("veracity-cli", "veracity-embed-onnx")) {
            Path target = root.resolve(module).resolve("target");
            Path jar = target.resolve(module + ".jar");
            if (!Files.isRegularFile(jar) || !Files.isDirectory(target.resolve("lib"))) {
                assertThat(module).as("the CLI's runtime is packaged before this test (failsafe runs after package)")
                        .isNotEqualTo("veracity-cli");
                continue;
            }
            Path into = Files.createDirectories(clone.resolve(module).resolve("target"));
            link(jar, into.resolve(jar.getFileName()));
            Path lib = Files.createDirectories(into.resolve("lib"));
            try (Stream<Path> jars = Files.list(target.resolve("lib"))) {
                for (Path j : jars.toList()) {
                    link(j, lib.resolve(j.getFileName()));
                }
            }
        }
        Path jar = clone.resolve("veracity-cli/target/veracity-cli.jar");
        Files.copy(jar, jar.resolveSibling("veracity-cli.jar.tmp"));
        Files.move(jar.resolveSibling("veracity-cli.jar.tmp"), jar, StandardCopyOption.REPLACE_EXISTING);
        Files.setLastModifiedTime(jar, FileTime.from(Instant.now().plusSeconds(1)));
    }

    private static void link(Path from, Path to) throws IOException {
        try {
            Files.createLink(to, from);
        } catch (FileSystemException | UnsupportedOperationException e) {
            Files.copy(from, to);
        }
    }

    /**
     * Runs commands as a reader pastes them into a terminal in the copy's root, each in its own {@code bash}, output to
     * a log per command; a command that fails stops the test with its README location and the end of its output.
     */
    static final class Shell implements AutoCloseable {

        private final Path dir;
        private final Path logs;
        private final Map<Integer, Process> servers = new LinkedHashMap<>();
        private final List<Process> anyPort = new ArrayList<>();
        final Set<String> ran = new HashSet<>();
        private int n;

        Shell(Path dir, Path logs) {
            this.dir = dir;
            this.logs = logs;
        }

        private ProcessBuilder bash(String script, Path log) {
            ProcessBuilder pb = new ProcessBuilder("bash", "-c", script).directory(dir.toFile())
                    .redirectInput(new File("/dev/null")).redirectOutput(log.toFile()).redirectError(err(log).toFile());
            // the start-up cache (README: VERACITY_AOT) would cost a training run in the copy for a few faster starts
            pb.environment().put("VERACITY_AOT", "0");
            return pb;
        }

        /** Where a command's standard error goes: beside its output's log. */
        private static Path err(Path log) {
            return log.resolveSibling(log.getFileName().toString().replace(".log", ".err"));
        }

        /** Runs a command to its end; returns what it printed (stdout, then stderr). */
        String run(ReadmeCommands.Command c) throws Exception {
            if (!ran.add(c.words())) {
                return "";
            }
            Path log = logs.resolve(String.format("%02d.log", ++n));
            long t0 = System.nanoTime();
            Process p = bash(c.text(), log).start();
            if (!p.waitFor(15, TimeUnit.MINUTES)) { // a guard against a hang, not a measure
                p.destroyForcibly();
                fail(c.where() + " did not end: " + c.text() + "\n" + tail(log));
            }
            String stderr = Files.readString(err(log));
            String out = Files.readString(log) + stderr;
            System.out.printf(java.util.Locale.ROOT, "ReadmeIT: %s exit %d in %.1f s%n", c.where(), p.exitValue(),
                    (System.nanoTime() - t0) / 1e9); // where the time goes, for the report; nothing asserts on it
            if (p.exitValue() != 0) {
                fail(c.where() + " exited " + p.exitValue() + ": " + c.text() + "\n" + tail(log));
            }
            if (QUIET.contains(c.subcommand())) { // the launcher itself, not QuietStderrTest's JVM: stderr holds no warning
                assertThat(stderr.lines().filter(l -> QuietStderrTest.WARNING.matcher(l).find()).toList())
                        .as(c.where() + "'s stderr: " + c.text()).isEmpty();
            }
            if (c.words().startsWith("curl ")) { // curl -s exits 0 on an HTTP error: the answer must be one
                assertThat(out).as(c.where() + ": " + c.text()).contains("\"choices\"").doesNotContain("\"error\"");
            }
            return out;
        }

        /** Starts a server command in the background and waits until its port answers (port 0: until it prints one). */
        void start(ReadmeCommands.Command c) throws Exception {
            if (!ran.add(c.words())) {
                return;
            }
            int port = c.port();
            Process before = servers.remove(port);
            if (before != null) {
                stop(before); // a later example on the same port
            }
            if (port > 0 && answers(port)) {
                fail(c.where() + ": port " + port + " is already in use on this machine; the README's commands run on"
                        + " their own ports: free it and run again (" + c.words() + ")");
            }
            Path log = logs.resolve(String.format("%02d-server.log", ++n));
            Process p = bash("exec " + c.text(), log).start();
            if (port > 0) {
                servers.put(port, p);
            } else {
                anyPort.add(p);
            }
            for (int tries = 0; ; tries++) {
                if (!p.isAlive()) {
                    fail(c.where() + " stopped (exit " + p.exitValue() + "): " + c.text() + "\n" + tail(log));
                }
                if (port > 0 ? answers(port) : ownPort(Files.readString(log)).stream().anyMatch(Shell::answers)) {
                    return;
                }
                if (tries > 1200) { // a guard against a server that never listens, not a measure
                    fail(c.where() + " did not start listening: " + c.text() + "\n" + tail(log));
                }
                Thread.sleep(100);
            }
        }

        static boolean answers(int port) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
                return true;
            } catch (IOException e) {
                return false;
            }
        }

        private static void stop(Process p) throws InterruptedException {
            p.destroy();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
            }
        }

        private static String tail(Path log) throws IOException {
            List<String> lines = new ArrayList<>(Files.readAllLines(log));
            lines.addAll(Files.readAllLines(err(log)));
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        }

        @Override
        public void close() throws InterruptedException {
            for (Process p : servers.values()) {
                stop(p);
            }
            for (Process p : anyPort) {
                stop(p);
            }
        }
    }
}
