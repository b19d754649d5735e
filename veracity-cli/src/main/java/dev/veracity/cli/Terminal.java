package dev.veracity.cli;

import java.io.Console;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The terminal the command line prints to: its width, which every table, progress bar and paragraph fits
 * ({@link dev.veracity.eval.report.TextTable}), and whether standard error is one (a redrawn bar) or a pipe or file
 * (one line per step). The width is {@code COLUMNS} when set, else the terminal's own (asked of {@code stty} once),
 * else {@value #DEFAULT_COLUMNS}.
 */
final class Terminal {

    /** The width when neither {@code COLUMNS} nor a terminal tells it. */
    static final int DEFAULT_COLUMNS = 80;
    /** The narrowest width honoured: below it, tables would be nothing but cut text. */
    static final int MIN_COLUMNS = 40;

    /** A width set for this JVM (the in-process tests), or null. */
    private static volatile Integer pinned;
    private static volatile Integer asked;

    private Terminal() {
    }

    /** The width to print at. */
    static int columns() {
        Integer p = pinned;
        if (p != null) {
            return p;
        }
        return columns(System.getenv(), Terminal::asked);
    }

    /** The width from these environment variables, else the terminal's (0 when it does not say), else 80. */
    static int columns(Map<String, String> env, java.util.function.IntSupplier terminal) {
        String c = env.get("COLUMNS");
        if (c != null) {
            try {
                int n = Integer.parseInt(c.strip());
                if (n > 0) {
                    return Math.max(MIN_COLUMNS, n);
                }
            } catch (NumberFormatException notANumber) {
                // as unset
            }
        }
        int t = terminal.getAsInt();
        return t > 0 ? Math.max(MIN_COLUMNS, t) : DEFAULT_COLUMNS;
    }

    /** Pins the width for this JVM (null: from the environment again); for tests that run the CLI in-process. */
    static void pin(Integer columns) {
        pinned = columns;
    }

    /** The terminal's columns as {@code stty size} reads them from /dev/tty, once; 0 off a terminal. */
    private static int asked() {
        Integer a = asked;
        if (a == null) {
            a = terminal() ? stty() : 0;
            asked = a;
        }
        return a;
    }

    private static int stty() {
        File tty = new File("/dev/tty");
        if (!tty.canRead()) {
            return 0;
        }
        try {
            Process p = new ProcessBuilder("stty", "size").redirectInput(tty).redirectErrorStream(false).start();
            if (!p.waitFor(2, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return 0;
            }
            String[] rowsCols = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip().split("\\s+");
            return p.exitValue() == 0 && rowsCols.length == 2 ? Integer.parseInt(rowsCols[1]) : 0;
        } catch (java.io.IOException | NumberFormatException e) {
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }

    /**
     * The system property the launcher sets from {@code [ -t 2 ]}: {@code 1} when standard error is a terminal,
     * {@code 0} when it is a pipe or a file ({@code eval ... 2>log}), which the JVM cannot tell by itself.
     */
    static final String STDERR_TTY = "veracity.stderr.tty";

    /**
     * Whether standard error, where progress goes, is a terminal: as the launcher found it ({@value #STDERR_TTY}), else
     * (the Java API, a JVM started otherwise) whether there is an interactive console at all.
     */
    static boolean terminal() {
        return terminal(System.getProperty(STDERR_TTY));
    }

    /** As {@link #terminal()}, with this value of {@value #STDERR_TTY} (null: not set). */
    static boolean terminal(String stderrTty) {
        if (stderrTty != null && !stderrTty.isBlank()) {
            return !stderrTty.strip().equals("0");
        }
        return console();
    }

    /** {@code Console.isTerminal()} on JDK 22+ (standard input and output both a terminal), else a console at all. */
    private static boolean console() {
        Console c = System.console();
        if (c == null) {
            return false;
        }
        try {
            return (Boolean) Console.class.getMethod("isTerminal").invoke(c);
        } catch (ReflectiveOperationException e) {
            return true;
        }
    }
}
