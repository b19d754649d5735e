package dev.veracity.sim.reader;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Text helpers shared by the role readers: labels, documents, sentences, overlap, answer spans. */
final class Text {

    private Text() {
    }

    static final String UNKNOWN = "unknown";

    static final Set<String> STOP = Set.of(
            "a", "an", "the", "of", "in", "on", "at", "to", "for", "by", "with", "from", "and", "or", "but", "is", "are",
            "was", "were", "be", "been", "being", "did", "do", "does", "has", "have", "had", "what", "which", "who",
            "whom", "whose", "when", "where", "why", "how", "that", "this", "these", "those", "it", "its", "as", "into",
            "than", "then", "there", "their", "they", "he", "she", "his", "her", "him", "i", "you", "we", "our", "your",
            "not", "no", "yes", "many", "much", "year", "s", "about", "after", "before", "also", "can", "could", "would",
            "will", "should", "so", "if", "all", "any", "one", "name");

    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+");
    private static final Pattern NUMBER = Pattern.compile("\\d+(?:[.,]\\d+)*");
    private static final Pattern NUMERIC_QUESTION = Pattern.compile(
            "(?i)\\b(when|what year|which year|how many|how much|how old|how long|how far|what date|what number|how tall|population)\\b");

    /** The text after the last {@code label} up to the end of its line, trimmed; "" when absent. */
    static String lastLine(String text, String label) {
        int at = text.lastIndexOf(label);
        if (at < 0) {
            return "";
        }
        int start = at + label.length();
        int eol = text.indexOf('\n', start);
        return text.substring(start, eol < 0 ? text.length() : eol).strip();
    }

    /** The text between the last {@code from} and the first {@code to} after it (or the end), trimmed. */
    static String between(String text, String from, String to) {
        int at = text.lastIndexOf(from);
        if (at < 0) {
            return "";
        }
        int start = at + from.length();
        int end = to == null ? -1 : text.indexOf(to, start);
        return text.substring(start, end < 0 ? text.length() : end).strip();
    }

    /** A document: its label number (from 1) and text. */
    record Doc(int number, String text) {
    }

    private static final Pattern DOC_MARK = Pattern.compile("(?m)(?:^|(?<=Context: ))Document[ -]?(\\d+)(?::[ \\t]*|[ \\t]*\\n)");

    /**
     * Documents laid out as "Document i: text" (separated by blank lines) or "Document-i\ntext" (one per line
     * block): each runs to the next marker, or for the colon style to the first blank line.
     */
    static List<Doc> documents(String region) {
        List<Doc> out = new ArrayList<>();
        Matcher m = DOC_MARK.matcher(region);
        int prevBody = -1;
        int prevNumber = 0;
        boolean prevColon = false;
        while (m.find()) {
            if (prevBody >= 0) {
                out.add(new Doc(prevNumber, cut(region, prevBody, m.start(), prevColon)));
            }
            prevBody = m.end();
            prevNumber = Integer.parseInt(m.group(1).length() > 6 ? "0" : m.group(1));
            prevColon = m.group().contains(":");
        }
        if (prevBody >= 0) {
            out.add(new Doc(prevNumber, cut(region, prevBody, region.length(), prevColon)));
        }
        return out;
    }

    private static String cut(String region, int start, int end, boolean colon) {
        if (colon) {
            int blank = region.indexOf("\n\n", start);
            if (blank >= 0 && blank < end) {
                end = blank;
            }
        }
        return region.substring(start, end).strip();
    }

    /** Sentences: split after . ! ? followed by white space, and at line breaks. */
    static List<String> sentences(String text) {
        List<String> out = new ArrayList<>();
        int start = 0;
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            boolean end = c == '\n' || (c == '.' || c == '!' || c == '?') && (i + 1 == n || Character.isWhitespace(text.charAt(i + 1)));
            if (end) {
                add(out, text.substring(start, i + (c == '\n' ? 0 : 1)));
                start = i + 1;
            }
        }
        add(out, text.substring(start));
        return out;
    }

    private static void add(List<String> out, String s) {
        String t = s.strip();
        if (!t.isEmpty()) {
            out.add(t);
        }
    }

    /** Content words, lower case, stop words removed. */
    static Set<String> words(String text) {
        // a scan of its own rather than WORD's matcher: the readers call this for every sentence of every document of
        // every prompt, and on a machine the simulator shares with its client the matcher's cost was the client's
        Set<String> out = new HashSet<>();
        int n = text.length();
        int i = 0;
        while (i < n) {
            int c = text.codePointAt(i);
            if (!wordChar(c)) {
                i += Character.charCount(c);
                continue;
            }
            int start = i;
            while (i < n && wordChar(c = text.codePointAt(i))) {
                i += Character.charCount(c);
            }
            String w = text.substring(start, i).toLowerCase(Locale.ROOT);
            if (!STOP.contains(w)) {
                out.add(stem(w));
            }
        }
        return out;
    }

    /** Whether {@code c} is in {@link #WORD}'s class, [\p{L}\p{N}]: a letter or a number; ASCII answered at once. */
    static boolean wordChar(int c) {
        if (c < 128) {
            return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9';
        }
        return switch (Character.getType(c)) {
            case Character.UPPERCASE_LETTER, Character.LOWERCASE_LETTER, Character.TITLECASE_LETTER,
                 Character.MODIFIER_LETTER, Character.OTHER_LETTER, Character.DECIMAL_DIGIT_NUMBER,
                 Character.LETTER_NUMBER, Character.OTHER_NUMBER -> true;
            default -> false;
        };
    }

    /** A crude suffix stripper, so "opened" meets "open" and "towers" meets "tower". */
    static String stem(String w) {
        int n = w.length();
        if (n > 5 && w.endsWith("ing")) {
            return w.substring(0, n - 3);
        }
        if (n > 4 && w.endsWith("ed")) {
            return w.substring(0, n - 2);
        }
        if (n > 4 && w.endsWith("es")) {
            return w.substring(0, n - 2);
        }
        if (n > 3 && w.endsWith("s") && !w.endsWith("ss")) {
            return w.substring(0, n - 1);
        }
        return w;
    }

    static int overlap(Set<String> question, String sentence) {
        int score = 0;
        for (String w : words(sentence)) {
            if (question.contains(w)) {
                score++;
            }
        }
        return score;
    }

    /** A sentence of a document, with its overlap with the question. */
    record Hit(int doc, String sentence, int score) {
    }

    /** The sentences of {@code docs} ranked by overlap with {@code question} (best first, ties in text order). */
    static List<Hit> ranked(String question, List<Doc> docs) {
        Set<String> q = words(question);
        List<Hit> hits = new ArrayList<>();
        for (Doc d : docs) {
            for (String s : sentences(d.text())) {
                hits.add(new Hit(d.number(), s, overlap(q, s)));
            }
        }
        hits.sort((a, b) -> Integer.compare(b.score(), a.score()));
        return hits;
    }

    /** The best sentence, or null when none shares a word with the question. */
    static Hit best(String question, List<Doc> docs) {
        List<Hit> r = ranked(question, docs);
        return r.isEmpty() || r.getFirst().score() == 0 ? null : r.getFirst();
    }

    /** A short answer to {@code question} from the best sentence of {@code docs}, or {@link #UNKNOWN}. */
    static String answer(String question, List<Doc> docs) {
        Hit h = best(question, docs);
        return h == null ? UNKNOWN : span(question, h.sentence());
    }

    /** A short span of {@code sentence} answering {@code question}: a number, a name phrase, or a few words. */
    static String span(String question, String sentence) {
        if (NUMERIC_QUESTION.matcher(question).find()) {
            String n = firstNumberNotIn(sentence, question);
            if (n != null) {
                return n;
            }
        }
        Set<String> q = words(question);
        String name = namePhrase(sentence, q);
        if (name != null) {
            return name;
        }
        List<String> few = new ArrayList<>();
        Matcher m = WORD.matcher(sentence);
        while (m.find() && few.size() < 4) {
            String w = m.group();
            String lw = w.toLowerCase(Locale.ROOT);
            if (!q.contains(stem(lw)) && !STOP.contains(lw)) {
                few.add(w);
            }
        }
        return few.isEmpty() ? UNKNOWN : String.join(" ", few);
    }

    /** The first number of {@code text} that {@code question} does not contain, commas removed; or null. */
    static String firstNumberNotIn(String text, String question) {
        Matcher m = NUMBER.matcher(text);
        String fallback = null;
        while (m.find()) {
            String n = m.group();
            if (!question.contains(n)) {
                return pure(n);
            }
            if (fallback == null) {
                fallback = pure(n);
            }
        }
        return fallback;
    }

    /** All numbers of {@code text}, as written. */
    static List<String> numbers(String text) {
        List<String> out = new ArrayList<>();
        Matcher m = NUMBER.matcher(text);
        while (m.find()) {
            out.add(m.group());
        }
        return out;
    }

    /** A number as a pure number: thousands separators removed, a trailing period dropped. */
    static String pure(String n) {
        String s = n.replace(",", "");
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }

    /** The first run of capitalised words (not all in the question, not a lone sentence-initial stop word). */
    static String namePhrase(String sentence, Set<String> question) {
        Matcher m = WORD.matcher(sentence);
        List<String> run = new ArrayList<>();
        boolean first = true;
        boolean novel = false;
        int lastEnd = -1;
        while (m.find()) {
            String w = m.group();
            String lw = w.toLowerCase(Locale.ROOT);
            boolean gapOk = lastEnd < 0 || sentence.substring(lastEnd, m.start()).isBlank();
            boolean cap = Character.isUpperCase(w.charAt(0)) && !(first && STOP.contains(lw));
            first = false;
            if (cap && (run.isEmpty() || gapOk)) {
                run.add(w);
                novel |= !question.contains(stem(lw));
            } else {
                if (!run.isEmpty() && novel) {
                    return String.join(" ", run);
                }
                run.clear();
                novel = false;
                if (cap) {
                    run.add(w);
                    novel = !question.contains(stem(lw));
                }
            }
            lastEnd = m.end();
        }
        return !run.isEmpty() && novel ? String.join(" ", run) : null;
    }

    /** Lower case, punctuation and articles removed, spaces collapsed (SQuAD-style normalisation). */
    static String normalise(String s) {
        String t = s.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}]+", " ");
        t = (" " + t + " ").replaceAll(" (a|an|the) ", " ");
        return t.strip().replaceAll(" +", " ");
    }

    /** Whether a normalised {@code gold} occurs in the normalised {@code prediction} (on word boundaries). */
    static boolean contains(String prediction, String gold) {
        String g = normalise(gold);
        return !g.isEmpty() && (" " + normalise(prediction) + " ").contains(" " + g + " ");
    }

    /** Items of a gold list: a JSON/Python list of quoted strings, else the whole text. */
    static List<String> goldItems(String gold) {
        String g = gold.strip();
        if (g.startsWith("[") && g.endsWith("]")) {
            List<String> out = new ArrayList<>();
            Matcher m = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"|'([^']*)'").matcher(g);
            while (m.find()) {
                out.add(m.group(1) != null ? m.group(1) : m.group(2));
            }
            if (!out.isEmpty()) {
                return out;
            }
            return List.of(g.substring(1, g.length() - 1));
        }
        return List.of(g);
    }

    /** A JSON string literal. */
    static String quote(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }

    /** "All Correct Answers: [...]. Explanation: ..." over distinct answers, "unknown" dropped. */
    static String answerSet(List<String> answers, String explanation) {
        List<String> distinct = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (String a : answers) {
            String t = a.strip();
            if (t.isEmpty() || t.equalsIgnoreCase(UNKNOWN) || !seen.add(normalise(t))) {
                continue;
            }
            distinct.add(t);
        }
        if (distinct.isEmpty()) {
            return "All Correct Answers: [\"unknown\"]. Explanation: " + explanation;
        }
        StringBuilder sb = new StringBuilder("All Correct Answers: [");
        for (int i = 0; i < distinct.size(); i++) {
            sb.append(i > 0 ? ", " : "").append(quote(distinct.get(i)));
        }
        return sb.append("]. Explanation: ").append(explanation).toString();
    }

    /** At most {@code max} characters of {@code s}, on one line. */
    static String brief(String s, int max) {
        String t = s.replace('\n', ' ').strip();
        return t.length() <= max ? t : t.substring(0, max).strip() + "...";
    }
}
