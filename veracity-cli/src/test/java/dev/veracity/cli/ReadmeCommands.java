package dev.veracity.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The shell commands of the project's Markdown files, as a reader copies them: every line of a {@code ```bash} block
 * that is not a comment, joined with the lines its trailing backslashes continue onto. A command the tests cannot run
 * carries the mark {@value #MARK} in its trailing comment, saying what it needs ({@code # needs: a model server}, or
 * after a {@code ;} in the comment: {@code # what it does; needs: ...}); {@link ReadmeIT} runs every other one, verbatim, in a fresh copy of the project, and {@link ReadmeCommandsTest} checks
 * the marks. The one exception is the README's test command, which is what runs those tests (CI's {@code .ci/run}).
 */
final class ReadmeCommands {

    /** What a trailing comment says to mark a command the tests do not run: what follows it is what it needs. */
    static final String MARK = "needs:";

    /** The repository root, seen from a module's folder (where Maven runs its tests). */
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    /** The mark opens the comment or follows a {@code ;} in it ({@code # what it does; needs: ...}). */
    private static final Pattern MARKED = Pattern.compile("(^|;\\s*)" + Pattern.quote(MARK));

    private static final Pattern FENCE = Pattern.compile("^\\s*```\\s*(\\S*)\\s*$");

    /**
     * One command of a Markdown file.
     *
     * @param file  the file, relative to the repository root
     * @param line  its first line (1-based)
     * @param text  the command as written: its physical lines, joined with newlines, trailing comment included
     * @param words the command without its trailing comment, on one line (continuations joined)
     * @param note  its trailing comment without the {@code #} ("" when none)
     */
    record Command(Path file, int line, String text, String words, String note) {

        /** What the mark says the command needs, when it is marked. */
        Optional<String> needs() {
            Matcher m = MARKED.matcher(note);
            return m.find() ? Optional.of(note.substring(m.end()).strip()) : Optional.empty();
        }

        /** {@code README.md:70}: where a reader finds it. */
        String where() {
            return file + ":" + line;
        }

        /** The {@code ./veracity} subcommand it runs ({@code sim}, {@code eval}, ...), or "" for another program. */
        String subcommand() {
            String[] w = words.strip().split("\\s+");
            return w.length > 1 && w[0].equals("./veracity") ? w[1] : "";
        }

        /** The value of {@code --port}, or -1 when it names none. */
        int port() {
            Matcher m = Pattern.compile("--port[ =](\\d+)").matcher(words);
            return m.find() ? Integer.parseInt(m.group(1)) : -1;
        }
    }

    private ReadmeCommands() {
    }

    /** The Markdown files that hold commands: every README of the repository, and the documents in {@code docs/}. */
    static List<Path> files() {
        try (Stream<Path> walk = Files.walk(ROOT)) {
            return walk.filter(Files::isRegularFile)
                    .map(ROOT::relativize)
                    .filter(p -> {
                        String name = p.getFileName().toString();
                        boolean readme = name.startsWith("README") && name.endsWith(".md");
                        boolean doc = p.getNameCount() == 2 && p.getName(0).toString().equals("docs") && name.endsWith(".md");
                        return (readme || doc) && !skipped(p);
                    })
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Build output, dependencies and hidden folders (git's, the demo's) hold no document of ours. */
    private static boolean skipped(Path relative) {
        for (Path part : relative) {
            String s = part.toString();
            if (s.equals("target") || s.equals("node_modules") || s.startsWith(".")) {
                return true;
            }
        }
        return false;
    }

    /** Every command of every file of {@link #files()}, file by file, in the order they are written. */
    static List<Command> all() {
        List<Command> all = new ArrayList<>();
        for (Path f : files()) {
            all.addAll(of(f));
        }
        return all;
    }

    /** The commands of one file (relative to the repository root). */
    static List<Command> of(Path file) {
        try {
            return parse(file, Files.readAllLines(ROOT.resolve(file)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The commands of these Markdown lines. */
    static List<Command> parse(Path file, List<String> lines) {
        List<Command> commands = new ArrayList<>();
        boolean inBash = false;
        boolean inOther = false;
        StringBuilder text = null;
        int first = 0;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            Matcher fence = FENCE.matcher(line);
            if (fence.matches()) {
                if (inBash || inOther) {
                    inBash = inOther = false;
                    text = null;
                } else if (fence.group(1).equals("bash") || fence.group(1).equals("sh") || fence.group(1).equals("shell")) {
                    inBash = true;
                } else {
                    inOther = true;
                }
                continue;
            }
            if (!inBash) {
                continue;
            }
            String stripped = line.strip();
            if (text == null) {
                if (stripped.isEmpty() || stripped.startsWith("#")) {
                    continue;
                }
                text = new StringBuilder(stripped);
                first = i + 1;
            } else {
                text.append('\n').append(line);
            }
            if (!continues(text.toString())) {
                commands.add(command(file, first, text.toString()));
                text = null;
            }
        }
        return commands;
    }

    private static Command command(Path file, int line, String text) {
        int hash = commentStart(text);
        String note = hash < 0 ? "" : text.substring(hash + 1).strip();
        String code = hash < 0 ? text : text.substring(0, hash);
        String words = code.replaceAll("\\\\\n", " ").replaceAll("\\s+", " ").strip();
        return new Command(file, line, text, words, note);
    }

    /** Whether a shell reads on past the end of this text: a trailing backslash, or a quote left open. */
    static boolean continues(String text) {
        return scan(text) == -2 || text.stripTrailing().endsWith("\\") && commentStart(text) < 0;
    }

    /** Where a shell comment starts in this text: a {@code #} at a word's start, outside quotes; -1 when none. */
    static int commentStart(String text) {
        int at = scan(text);
        return at < 0 ? -1 : at;
    }

    /** The index of the comment's {@code #}; -1 when none; -2 when a quote is still open at the end. */
    private static int scan(String text) {
        char quote = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else if (c == '\\' && quote == '"') {
                    i++;
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == '\\') {
                i++;
            } else if (c == '#' && (i == 0 || Character.isWhitespace(text.charAt(i - 1)))) {
                return i;
            }
        }
        return quote != 0 ? -2 : -1;
    }

    /**
     * Why an unmarked command cannot run as written, or empty: the placeholders and optional parts of a synopsis
     * ({@code ...}, {@code [--limit N]}, {@code HOST}, {@code a|b} in a word) are for a reader to fill in, not for a
     * shell, so such a command is marked with what it needs or written out.
     */
    static Optional<String> placeholder(Command c) {
        String w = unquoted(c.words());
        if (w.matches("(?s).*(^|\\s)\\.\\.\\.(\\s|$).*")) {
            return Optional.of("'...' stands for what the reader fills in");
        }
        if (w.matches("(?s).*(^|\\s)\\[-.*")) {
            return Optional.of("'[...]' is an optional part of a synopsis");
        }
        Matcher caps = Pattern.compile("(?<![\\w$])(HOST|PORT|FILE|DIR|NAME|URL|METHOD|ROLE)(?!\\w)").matcher(w);
        if (caps.find()) {
            return Optional.of(caps.group(1) + " is a placeholder");
        }
        if (w.matches("(?s).*\\s--[\\w-]+ [\\w.-]+\\|[\\w.|-]+.*")) {
            return Optional.of("'a|b' lists a flag's choices");
        }
        return Optional.empty();
    }

    /** The command with its quoted parts emptied: a placeholder inside a quoted JSON body or prompt is text. */
    private static String unquoted(String words) {
        return words.replaceAll("'[^']*'", "''").replaceAll("\"(\\\\.|[^\"\\\\])*\"", "\"\"");
    }

    /** The test command of README.md: what {@code .ci/run} runs, and so what runs the tests of every other command. */
    static String ciCommand() {
        try {
            List<String> run = Files.readAllLines(ROOT.resolve(".ci/run"));
            return run.stream().map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList().getLast();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
