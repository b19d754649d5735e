package dev.veracity.methods.march;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The function A(lambda) of section 2.2: one Checker sample to answers keyed by question number. The authors parse
 * {@code (\d+)\.\s*Evidence:\s*(.*?)\s*\[Answer:\s*(.*?)\]} (DOTALL), which takes any number followed by a dot: a
 * line "... affected 50." followed by "[Answer: 50]" becomes an entry numbered 50. Here (every difference is listed
 * in docs/parsers.md with the corpus case that shows it):
 * <ul>
 *   <li>reasoning blocks are removed first ({@link ParseText#plain});</li>
 *   <li>an entry starts at the beginning of a line (after spaces, a bullet, {@code #} or bold; never on a
 *       {@code >} blockquote line, which quotes something), with a number N
 *       followed by {@code .}, {@code )} or {@code :} (or "Question N" / "Q N"), and N must be one of the m
 *       questions asked. When some entries say "Evidence" or give an answer right after their number, only such
 *       entries count, so a numbered list inside one entry's evidence does not split it. One exception keeps the
 *       one-line layout of the paper's own Appendix C: "... Answer: 52 2. Evidence: ..." opens entry N mid-line
 *       when N follows the previous entry's number, "Evidence" follows it and the previous entry already has its
 *       answer;</li>
 *   <li>the answer of an entry is its last {@code [Answer: x]}, else its last bare {@code Answer: x} (evidence may
 *       quote a document that holds a marker before the real one);</li>
 *   <li>answers are keyed by the number written (the authors' code keys by position when the output does not start
 *       with "1.", which shifts every answer); a number given twice is ambiguous and dropped (a missing answer is a
 *       mismatch, so quoted text that imitates the format cannot add a confirmation);</li>
 *   <li>an output with no numbered entry at all is read by position, and says so.</li>
 * </ul>
 * Total and linear-time: never throws.
 */
public final class CheckerOutputParser {

    private CheckerOutputParser() {
    }

    /** An entry header: the number written, where the header starts and where the entry's body starts. */
    private record Header(int number, int start, int body, boolean strong) {
    }

    /**
     * @param output    one Checker sample
     * @param questions m, the number of questions the Checker was asked (entries numbered outside 1..m are text)
     */
    public static CheckerOutput parse(String output, int questions) {
        String text = ParseText.plain(output);
        List<String> problems = new ArrayList<>();
        List<Header> headers = headers(text, questions);
        if (headers.isEmpty()) {
            return positional(text, problems);
        }
        Map<Integer, CheckerAnswer> answers = new LinkedHashMap<>();
        Set<Integer> ambiguous = new HashSet<>();
        for (int i = 0; i < headers.size(); i++) {
            Header h = headers.get(i);
            int end = i + 1 < headers.size() ? headers.get(i + 1).start() : text.length();
            CheckerAnswer a = entry(h.number(), text, h.body(), end);
            if (a == null) {
                problems.add("checker: entry " + h.number() + " has no answer: '"
                        + ParseText.abbreviate(text.substring(h.body(), end)) + "'");
                continue;
            }
            if (answers.containsKey(h.number()) || ambiguous.contains(h.number())) {
                ambiguous.add(h.number());
                answers.remove(h.number());
                continue;
            }
            answers.put(h.number(), a);
        }
        for (int n : ambiguous) {
            problems.add("checker: answer " + n + " given more than once; counted as missing");
        }
        return new CheckerOutput(answers, problems);
    }

    /** Entry headers at line starts (strong ones only, when there are any), plus the one-line continuation rule. */
    private static List<Header> headers(String text, int questions) {
        List<Header> lineStarts = new ArrayList<>();
        boolean anyStrong = false;
        for (int line = 0; line < text.length(); ) {
            int eol = text.indexOf('\n', line);
            int lineEnd = eol < 0 ? text.length() : eol;
            int first = skipDecoration(text, line, lineEnd);
            // a blockquote line quotes something (a document imitating the format): never an entry
            Header h = blockquote(text, line, lineEnd) ? null : headerAt(text, first, lineEnd, questions, line);
            if (h != null) {
                lineStarts.add(h);
                anyStrong |= h.strong();
            }
            line = lineEnd + 1;
        }
        List<Header> out = new ArrayList<>();
        for (Header h : lineStarts) {
            if (h.strong() || !anyStrong) {
                out.add(h);
            }
        }
        return withOneLineEntries(text, out, questions);
    }

    /**
     * Appendix C writes "1. Evidence: ... Answer: 52 2. Evidence: ... Answer: 59" on one line: inside an entry that
     * already has an answer, "N+1. Evidence" opens the next entry.
     */
    private static List<Header> withOneLineEntries(String text, List<Header> headers, int questions) {
        if (headers.isEmpty()) {
            return headers;
        }
        List<Header> out = new ArrayList<>();
        for (int i = 0; i < headers.size(); i++) {
            Header h = headers.get(i);
            out.add(h);
            int end = i + 1 < headers.size() ? headers.get(i + 1).start() : text.length();
            Header current = h;
            int from = h.body();
            while (true) {
                Header next = nextInline(text, current, from, end, questions);
                if (next == null) {
                    break;
                }
                out.add(next);
                current = next;
                from = next.body();
            }
        }
        return out;
    }

    /** The first "N+1. Evidence" in {@code [from, end)} that comes after an answer marker of the current entry. */
    private static Header nextInline(String text, Header current, int from, int end, int questions) {
        int wanted = current.number() + 1;
        if (wanted > questions) {
            return null;
        }
        ParseText.Mark first = ParseText.firstAnswer(text, from, end);
        if (first == null) {
            return null;
        }
        String digits = Integer.toString(wanted);
        for (int i = first.start() + 1; i + digits.length() < end; i++) {
            if (text.startsWith(digits, i) && (i == 0 || !Character.isLetterOrDigit(text.charAt(i - 1))
                    && text.charAt(i - 1) != '.' && text.charAt(i - 1) != ',')) {
                Header h = headerAt(text, i, end, questions, i);
                if (h != null && h.number() == wanted && h.strong() && startsWithWord(text, h.body(), end, "evidence")) {
                    return h;
                }
            }
        }
        return null;
    }

    private static boolean blockquote(String text, int line, int lineEnd) {
        int p = line;
        while (p < lineEnd && (text.charAt(p) == ' ' || text.charAt(p) == '\t')) {
            p++;
        }
        return p < lineEnd && text.charAt(p) == '>';
    }

    /** Skips leading spaces, bullets, heading marks and emphasis of a line. */
    private static int skipDecoration(String text, int i, int lineEnd) {
        while (i < lineEnd) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c) || c == '-' || c == '*' || c == '\u2022' || c == '#' || c == '_') {
                i++;
            } else {
                break;
            }
        }
        return i;
    }

    /** A header at {@code i}: ["Question" | "Q"] digits, then {@code . ) :}; null when there is none or N is not 1..m. */
    private static Header headerAt(String text, int i, int lineEnd, int questions, int headerStart) {
        int p = i;
        if (text.regionMatches(true, p, "question", 0, 8)) {
            p += 8;
        } else if (p < lineEnd && (text.charAt(p) == 'Q' || text.charAt(p) == 'q') && p + 1 < lineEnd
                && (text.charAt(p + 1) == ' ' || Character.isDigit(text.charAt(p + 1)))) {
            p += 1;
        }
        while (p < lineEnd && text.charAt(p) == ' ') {
            p++;
        }
        int digits = p;
        while (p < lineEnd && p - digits < 4 && Character.isDigit(text.charAt(p))) {
            p++;
        }
        if (p == digits || p - digits > 3 || (p < lineEnd && Character.isDigit(text.charAt(p)))) {
            return null;
        }
        int number = Integer.parseInt(text, digits, p, 10);
        while (p < lineEnd && text.charAt(p) == ' ') {
            p++;
        }
        if (p >= lineEnd || ".):\uFF1A".indexOf(text.charAt(p)) < 0 || number < 1 || number > questions) {
            return null;
        }
        p++;
        if (p < lineEnd && Character.isDigit(text.charAt(p))) {
            return null; // "2.5" is a number, not "2." opening an entry
        }
        int body = p;
        while (body < lineEnd && (text.charAt(body) == ' ' || text.charAt(body) == '\t' || text.charAt(body) == '*')) {
            body++;
        }
        boolean strong = startsWithWord(text, body, lineEnd, "evidence") || startsAnswer(text, body, lineEnd);
        return new Header(number, headerStart, body, strong);
    }

    private static boolean startsWithWord(String text, int i, int end, String word) {
        return i + word.length() <= end && text.regionMatches(true, i, word, 0, word.length())
                && (i + word.length() == end || !Character.isLetter(text.charAt(i + word.length())));
    }

    private static boolean startsAnswer(String text, int i, int end) {
        int p = i < end && text.charAt(i) == '[' ? i + 1 : i;
        while (p < end && text.charAt(p) == ' ') {
            p++;
        }
        return startsWithWord(text, p, end, "answer");
    }

    /** The last bracketed answer of the entry, else its last bare one; null when it has none or it is empty. */
    private static CheckerAnswer entry(int number, String text, int from, int to) {
        List<ParseText.Mark> marks = ParseText.answers(text, from, to);
        ParseText.Mark chosen = null;
        for (ParseText.Mark m : marks) {
            if (m.bracketed() || chosen == null || !chosen.bracketed()) {
                chosen = m;
            }
        }
        if (chosen == null || chosen.answer().isEmpty()) {
            return null;
        }
        return new CheckerAnswer(number, evidence(text, from, chosen.start()), chosen.answer());
    }

    private static String evidence(String text, int from, int to) {
        int p = from;
        while (p < to && Character.isWhitespace(text.charAt(p))) {
            p++;
        }
        if (startsWithWord(text, p, to, "evidence")) {
            p += "evidence".length();
            while (p < to && (text.charAt(p) == ' ' || text.charAt(p) == '*')) {
                p++;
            }
            if (p < to && (text.charAt(p) == ':' || text.charAt(p) == '\uFF1A')) {
                p++;
            }
        }
        return ParseText.cleanText(text.substring(p, to));
    }

    private static CheckerOutput positional(String text, List<String> problems) {
        Map<Integer, CheckerAnswer> answers = new LinkedHashMap<>();
        int from = 0;
        for (ParseText.Mark m : ParseText.answers(text, 0, text.length())) {
            String evidence = evidence(text, from, m.start());
            from = m.end();
            if (!m.answer().isEmpty()) {
                int n = answers.size() + 1;
                answers.put(n, new CheckerAnswer(n, evidence, m.answer()));
            }
        }
        if (answers.isEmpty()) {
            if (!text.isBlank()) {
                problems.add("checker: no answers in the output: '" + ParseText.abbreviate(text) + "'");
            }
        } else {
            problems.add("checker: answers are not numbered; keyed by position");
        }
        return new CheckerOutput(answers, problems);
    }
}
