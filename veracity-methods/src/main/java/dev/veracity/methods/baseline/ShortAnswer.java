package dev.veracity.methods.baseline;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the short answer out of a model's reply. Total: any text gives an answer or an empty Optional, never an
 * exception.
 */
final class ShortAnswer {

    /** "Answer: X" at the start of a line; the last one counts (a model may restate its reasoning first). */
    private static final Pattern ANSWER_LINE = Pattern.compile("(?im)^\\s*(?:\\*\\*)?(?:final\\s+)?answer(?:\\*\\*)?\\s*[:：]\\s*(.+?)\\s*$");

    private ShortAnswer() {
    }

    /** The text after the last "Answer:" line, cleaned; empty when there is none or it is blank. */
    static Optional<String> afterAnswerLine(String text) {
        if (text == null) {
            return Optional.empty();
        }
        Matcher m = ANSWER_LINE.matcher(text);
        String last = null;
        while (m.find()) {
            last = m.group(1);
        }
        return Optional.ofNullable(last).map(ShortAnswer::clean).filter(s -> !s.isEmpty());
    }

    /**
     * A direct answer ("Paris", "Answer: Paris", "Paris.\nBecause ..."): the answer line if there is one, else the
     * first non-blank line.
     */
    static String direct(String text) {
        Optional<String> marked = afterAnswerLine(text);
        if (marked.isPresent()) {
            return marked.get();
        }
        if (text == null) {
            return "";
        }
        for (String line : text.split("\\R")) {
            String c = clean(line);
            if (!c.isEmpty()) {
                return c;
            }
        }
        return "";
    }

    /** Strips markdown emphasis, one trailing period (outside or inside quotes) and surrounding quotes. */
    static String clean(String s) {
        String c = dropPeriod(s.strip().replace("**", "").strip());
        if (c.length() >= 2 && (c.startsWith("\"") && c.endsWith("\"") || c.startsWith("'") && c.endsWith("'"))) {
            c = dropPeriod(c.substring(1, c.length() - 1).strip());
        }
        return c;
    }

    private static String dropPeriod(String c) {
        return c.endsWith(".") && !c.endsWith("..") ? c.substring(0, c.length() - 1).strip() : c;
    }
}
