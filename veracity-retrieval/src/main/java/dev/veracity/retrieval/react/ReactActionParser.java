package dev.veracity.retrieval.react;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses a ReAct action from model text. Total: never throws; text that is no action is {@link ReactAction.Invalid}.
 * Tolerates a leading {@code Action 3:} label, spaces around the name and brackets, any case ({@code search},
 * {@code SEARCH}), a missing closing bracket at the end, and quotes or backticks around the argument. The first
 * line holding an action wins (models often continue with a fake observation). Linear time: white space is
 * matched possessively, and the argument is the run up to the first ']' or the line's end.
 */
public final class ReactActionParser {

    private static final Pattern ACTION = Pattern.compile(
            "^\\s*+(?:\\*\\*)?(?:action\\s*+\\d*+\\s*+:\\s*+)?(?:\\*\\*)?\\s*+(search|lookup|finish)\\s*+\\[([^\\]]*+)",
            Pattern.CASE_INSENSITIVE);

    private ReactActionParser() {
    }

    public static ReactAction parse(String text) {
        if (text == null || text.isBlank()) {
            return new ReactAction.Invalid(text == null ? "" : text.strip());
        }
        for (String line : text.strip().split("\\R")) {
            Matcher m = ACTION.matcher(line);
            if (m.find()) {
                String arg = unquote(m.group(2).strip());
                return switch (m.group(1).toLowerCase(Locale.ROOT)) {
                    case "search" -> arg.isEmpty() ? new ReactAction.Invalid(text.strip()) : new ReactAction.Search(arg);
                    case "lookup" -> arg.isEmpty() ? new ReactAction.Invalid(text.strip()) : new ReactAction.Lookup(arg);
                    default -> new ReactAction.Finish(arg);
                };
            }
        }
        return new ReactAction.Invalid(text.strip());
    }

    /** Strips matching quotes (and the white space inside them) by moving two indices: linear time. */
    public static String unquote(String s) {
        int lo = 0;
        int hi = s.length();
        while (hi - lo >= 2) {
            char a = s.charAt(lo);
            char b = s.charAt(hi - 1);
            if ((a == '"' && b == '"') || (a == '\'' && b == '\'') || (a == '`' && b == '`')
                    || (a == '\u201c' && b == '\u201d') || (a == '\u2018' && b == '\u2019')) {
                lo++;
                hi--;
                while (lo < hi && Character.isWhitespace(s.charAt(lo))) {
                    lo++;
                }
                while (hi > lo && Character.isWhitespace(s.charAt(hi - 1))) {
                    hi--;
                }
            } else {
                break;
            }
        }
        return s.substring(lo, hi);
    }
}
