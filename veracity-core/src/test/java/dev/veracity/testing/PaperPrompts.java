package dev.veracity.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;

/**
 * The check that a prompt resource is the paper's text: each prompt file is compared, character for character, with
 * the passage of the paper it comes from ({@code ../shared/papers/*.txt}, beside the repository). One mechanism for
 * every module that ships prompts (the methods' PaperPromptsTest, the judges' JudgePromptsTest).
 *
 * <p>Normalisation, applied to BOTH sides (the paper, our prompt body, and every string of a header) and nothing
 * else: runs of whitespace become one space and the ends are trimmed (the paper texts are extractions that flatten
 * line breaks); typographic quotes become ASCII ({@code ‘‘ ’’ “ ”} to {@code "}, {@code ‘ ’} to {@code '}).
 *
 * <p>Every other difference is declared in the prompt file's {@code #!} header (not sent, see PromptTemplate), one
 * line per key; strings are between backticks (a backtick inside one is written {@code \x60}) and are normalised as
 * above:
 * <pre>
 * #! paper: 004_70ac80c5c6f35dcd, Appendix E "Aggregator"     (the paper file's name without .txt; prose after it)
 * #! paper: none (OUR EXTENSION ...)                            (nothing of the file is printed by a paper)
 * #! passage: after `A` from `S` to `E`      (the paper's passage: from the first S after A (after optional and
 *                                             repeatable) through the first E after S, E included)
 * #! differs: `paper text` -> `our text` (reason)   (replaces every occurrence in the passage, in header order;
 *                                                    the reason in parentheses is required)
 * </pre>
 * The declared replacements are applied to the paper's passage (whose whitespace is then collapsed again, so that
 * a deletion leaves one space); the result must equal our prompt. The test fails
 * on an undeclared difference (printing the first differing position with context), on a declaration whose paper
 * text no longer occurs (stale), and on a prompt file its caller does not list.
 */
public final class PaperPrompts {

    private static final Pattern QUOTED = Pattern.compile("`([^`]*)`");
    private static final Pattern DIFFERS = Pattern.compile("`([^`]*)`\\s*->\\s*`([^`]*)`\\s*\\((.+)\\)\\s*");
    private static final Pattern PASSAGE = Pattern.compile("((?:after\\s+`[^`]*`\\s+)*)from\\s+`([^`]+)`\\s+to\\s+`([^`]+)`\\s*");
    private static final int CONTEXT = 80;

    private PaperPrompts() {
    }

    /**
     * Checks one prompt file against its paper.
     *
     * @param resources the folder of the prompt files
     * @param file      the file, relative to {@code resources}
     * @param expected  the paper the caller's list names for it ("none": printed by no paper)
     */
    public static void check(Path resources, String file, String expected) throws IOException {
        String raw = Files.readString(resources.resolve(file), StandardCharsets.UTF_8).replace("\r\n", "\n");
        Header h = Header.parse(file, raw);
        assertThat(h.paper).as(file + ": its '#! paper:' header names the paper the test's list of prompts gives")
                .isEqualTo(expected);
        if (h.paper.equals("none")) {
            assertThat(h.passage).as(file + " declares 'paper: none', so it has no '#! passage:'").isNull();
            assertThat(h.differs).as(file + " declares 'paper: none', so it has no '#! differs:'").isEmpty();
            return;
        }
        assertThat(h.passage).as(file + ": a '#! passage: from `...` to `...`' header line").isNotNull();
        String text = paper(h.paper);
        String printed = passage(text, h.passage.after, h.passage.from, h.passage.to);
        String paperSide = printed;
        List<String> stale = new ArrayList<>();
        for (Differs d : h.differs) {
            if (d.paper.equals(d.ours)) {
                stale.add("`" + d.paper + "` -> `" + d.ours + "` (not a difference)");
            } else if (!paperSide.contains(d.paper)) {
                stale.add("`" + d.paper + "` -> `" + d.ours + "` (the paper's text does not occur in the passage)");
            } else {
                paperSide = paperSide.replace(d.paper, d.ours);
            }
        }
        assertThat(stale).as(file + ": stale '#! differs:' declarations (remove or correct them)").isEmpty();
        assertSame(file + " (paper " + h.paper + ", after its declared differences)", normalise(paperSide),
                normalise(h.body));
    }

    public static void assertSame(String what, String paper, String ours) {
        if (paper.equals(ours)) {
            return;
        }
        int i = 0;
        while (i < paper.length() && i < ours.length() && paper.charAt(i) == ours.charAt(i)) {
            i++;
        }
        fail(what + ": an undeclared difference at character " + i + " (declare it with '#! differs: `paper` -> `ours`"
                + " (reason)' or fix the prompt)\n  paper: " + around(paper, i) + "\n  ours : " + around(ours, i));
    }

    private static String around(String s, int i) {
        int from = Math.max(0, i - CONTEXT);
        int to = Math.min(s.length(), i + CONTEXT);
        return (from > 0 ? "..." : "") + s.substring(from, i) + " >>>|" + s.substring(i, to) + (to < s.length() ? "..." : "")
                + (i >= s.length() ? " [end]" : "");
    }

    /** From the first {@code from} after the {@code after} anchors, through the first {@code to} after it. */
    public static String passage(String paper, List<String> after, String from, String to) {
        int at = 0;
        for (String a : after) {
            int i = paper.indexOf(a, at);
            assertThat(i).as("passage anchor 'after `" + a + "`' in the paper").isNotNegative();
            at = i + a.length();
        }
        int start = paper.indexOf(from, at);
        assertThat(start).as("passage anchor 'from `" + from + "`' in the paper").isNotNegative();
        int end = paper.indexOf(to, start);
        assertThat(end).as("passage anchor 'to `" + to + "`' in the paper").isNotNegative();
        return paper.substring(start, end + to.length());
    }

    /** Whitespace runs to one space, ends trimmed; typographic quotes to ASCII. Nothing else. */
    public static String normalise(String s) {
        return inner(s).strip();
    }

    /** As {@link #normalise} but keeping a space at either end (header strings may need one to anchor). */
    private static String inner(String s) {
        return s.replace("‘‘", "\"").replace("’’", "\"").replace('“', '"').replace('”', '"')
                .replace('‘', '\'').replace('’', '\'').replaceAll("\\s+", " ");
    }

    /** The paper's text, normalised; without ../shared/papers the test is skipped, or fails under CI ({@link Shared}). */
    public static String paper(String id) {
        try {
            return normalise(Files.readString(Shared.papers().resolve(id + ".txt"), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The {@code .txt} files under {@code resources}, relative, sorted. */
    public static List<String> promptFiles(Path resources) throws IOException {
        assertThat(resources).as("the prompt resources (the test runs in its module's folder)").isDirectory();
        try (Stream<Path> s = Files.walk(resources)) {
            return s.filter(p -> Files.isRegularFile(p) && p.toString().endsWith(".txt"))
                    .map(p -> resources.relativize(p).toString().replace('\\', '/')).sorted().toList();
        }
    }

    /**
     * Every prompt file of {@code resources} is in {@code known}, every file {@code known} lists exists, and each
     * matches its paper: the tests of one module's prompts.
     */
    public static Stream<DynamicTest> checkAll(Path resources, Map<String, String> known) throws IOException {
        List<String> files = promptFiles(resources);
        DynamicTest listed = DynamicTest.dynamicTest("every prompt file is listed", () -> {
            List<String> unknown = files.stream().filter(f -> !known.containsKey(f)).toList();
            assertThat(unknown).as("prompt files the test does not know: add each to its list with its paper (or"
                    + " \"none\") and give it a '#! paper:' header with its declared differences").isEmpty();
            assertThat(new TreeSet<>(files)).as("prompt files listed by the test").containsAll(known.keySet());
        });
        return Stream.concat(Stream.of(listed), files.stream().filter(known::containsKey)
                .map(f -> DynamicTest.dynamicTest(f, () -> check(resources, f, known.get(f)))));
    }

    /** A backtick cannot delimit itself: header strings write it as {@code \x60} (C-3PO's prompts quote with it). */
    private static String unescape(String s) {
        return s.replace("\\x60", "`");
    }

    private record Passage(List<String> after, String from, String to) {
    }

    private record Differs(String paper, String ours, String reason) {
    }

    /** The {@code #!} header of a prompt file: its keys, and the body that is sent (as PromptTemplate strips it). */
    private static final class Header {
        String paper;
        Passage passage;
        final List<Differs> differs = new ArrayList<>();
        String body;

        static Header parse(String file, String raw) {
            Header h = new Header();
            String s = raw;
            while (s.startsWith("#!")) {
                int nl = s.indexOf('\n');
                String line = (nl < 0 ? s : s.substring(0, nl)).substring(2).strip();
                s = nl < 0 ? "" : s.substring(nl + 1);
                if (line.startsWith("paper:")) {
                    assertThat(h.paper).as(file + ": one '#! paper:' line").isNull();
                    String v = line.substring("paper:".length()).strip();
                    h.paper = v.split("[\\s,(]", 2)[0];
                } else if (line.startsWith("passage:")) {
                    assertThat(h.passage).as(file + ": one '#! passage:' line").isNull();
                    Matcher m = PASSAGE.matcher(line.substring("passage:".length()).strip());
                    assertThat(m.matches()).as(file + ": '#! passage: [after `A`]... from `S` to `E`', was: " + line).isTrue();
                    List<String> after = new ArrayList<>();
                    Matcher q = QUOTED.matcher(m.group(1));
                    while (q.find()) {
                        after.add(inner(q.group(1)));
                    }
                    h.passage = new Passage(after, inner(m.group(2)), inner(m.group(3)));
                } else if (line.startsWith("differs:")) {
                    Matcher m = DIFFERS.matcher(line.substring("differs:".length()).strip());
                    assertThat(m.matches()).as(file + ": '#! differs: `paper` -> `ours` (reason)', was: " + line).isTrue();
                    assertThat(m.group(1)).as(file + ": the paper side of a '#! differs:' is not empty").isNotBlank();
                    h.differs.add(new Differs(inner(unescape(m.group(1))), inner(unescape(m.group(2))), m.group(3)));
                }
            }
            assertThat(h.paper).as(file + ": a '#! paper: <paper file without .txt>' or '#! paper: none (reason)' line")
                    .isNotNull();
            h.body = s.endsWith("\n") ? s.substring(0, s.length() - 1) : s;
            return h;
        }
    }
}
