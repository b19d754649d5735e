package dev.veracity.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;

/**
 * Runs the {@code veracity} command line in this JVM, as {@link VeracityCli#main} does but without the exit, and keeps
 * what it printed: the one way the CLI's tests run a command in-process.
 */
final class CliRun {

    /**
     * What a run gave: the exit code; {@code out}, what went to picocli's output writer followed by what went to
     * {@code System.out} (commands print either way); {@code err}, what went to picocli's error writer (the one-line
     * errors and usage messages).
     */
    record Result(int code, String out, String err) {
    }

    private CliRun() {
    }

    /**
     * Runs these arguments as {@code ./veracity} would: {@code --debug} is taken out and sets {@link VeracityCli#debug}
     * for this run only (it is put back as it was afterwards), the command line is built for the arguments, and its
     * writers and {@code System.out} are captured. {@code System.err} is left alone: whatever a test has pointed it at
     * receives the progress lines that commands print there.
     */
    static Result run(String... args) {
        return run(false, args);
    }

    /**
     * As {@link #run}, with {@code System.err} captured too, into {@code out} with {@code System.out}, in the order
     * the two were printed: for tests that read eval's closing lines ("3 questions: 3 already done, ...").
     */
    static Result runWithStderrInOut(String... args) {
        return run(true, args);
    }

    /**
     * The terminal width the in-process runs print at: wide, so that tests reading a whole table find every column;
     * the width tests run the launcher's JVM with {@code COLUMNS} instead ({@code TerminalWidthTest}).
     */
    static final int COLUMNS = 400;

    private static Result run(boolean stderrInOut, String[] args) {
        Terminal.pin(COLUMNS);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        PrintStream stderr = System.err;
        boolean debug = VeracityCli.debug;
        // System.out first: picocli points a command's output at the System.out it was built under
        PrintStream capture = new PrintStream(printed, true, StandardCharsets.UTF_8);
        System.setOut(capture);
        if (stderrInOut) {
            System.setErr(capture);
        }
        int code;
        boolean plugins = java.util.Arrays.stream(args).anyMatch(a -> a.equals("--plugins") || a.startsWith("--plugins="));
        java.nio.file.Path folder = plugins ? dev.veracity.plugin.Plugins.folder() : null;
        try {
            String[] rest = VeracityCli.withoutPlugins(VeracityCli.withoutDebug(args));
            picocli.CommandLine cl = VeracityCli.commandLine(rest);
            cl.setOut(new PrintWriter(out, true));
            cl.setErr(new PrintWriter(err, true));
            code = cl.execute(rest);
        } catch (IllegalArgumentException | IllegalStateException | java.io.UncheckedIOException e) { // as main says it
            err.write("veracity: " + e.getMessage() + "\n");
            code = 2;
        } finally {
            System.setOut(stdout);
            System.setErr(stderr);
            VeracityCli.debug = debug;
            if (plugins) {
                dev.veracity.plugin.Plugins.useFolder(folder); // the next in-process run sees the class path again
            }
        }
        if (code == 0) {
            validateRunFolders(args);
        }
        return new Result(code, out + printed.toString(StandardCharsets.UTF_8), err.toString());
    }

    /**
     * Every run folder a successful {@code eval}, {@code demo} or {@code reproduce} wrote under its {@code --out}
     * validates against the JSON Schemas in {@code docs/schema} ({@code SchemaFiles}): each results line, the summary,
     * {@code run.json} and the agent records. A file that does not is the test's failure, naming the file's folder.
     */
    private static void validateRunFolders(String[] args) {
        java.util.List<String> a = java.util.Arrays.asList(args);
        String command = a.stream().filter(x -> !x.startsWith("-")).findFirst().orElse("");
        if (!java.util.Set.of("eval", "demo", "reproduce").contains(command)) {
            return;
        }
        java.nio.file.Path out = null;
        for (int i = 0; i < a.size(); i++) {
            if (a.get(i).equals("--out") && i + 1 < a.size()) {
                out = java.nio.file.Path.of(a.get(i + 1));
            } else if (a.get(i).startsWith("--out=")) {
                out = java.nio.file.Path.of(a.get(i).substring("--out=".length()));
            }
        }
        if (out == null || !java.nio.file.Files.isDirectory(out)) {
            return;
        }
        try (java.util.stream.Stream<java.nio.file.Path> dirs = java.nio.file.Files.walk(out, 4)) {
            for (java.nio.file.Path d : dirs.filter(java.nio.file.Files::isDirectory)
                    .filter(d -> java.nio.file.Files.isRegularFile(d.resolve("results.jsonl"))).toList()) {
                java.util.List<String> errors = dev.veracity.eval.results.SchemaFiles.checkRunFolder(d);
                if (!errors.isEmpty()) {
                    throw new AssertionError(d + " does not validate against docs/schema: "
                            + errors.subList(0, Math.min(5, errors.size())));
                }
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
