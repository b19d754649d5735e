package dev.veracity.retrieval.react;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses a ReAct action from model text. Total: never throws; text that is no action is {@link ReactAction.Invalid}.
 * Tolerates a leading {@code Action 3:} label, spaces around the name and brackets, any case ({@code search},
 * {@code SEARCH}), a missing closing bracket at the end, and quotes or backticks around the argument. The first
 * line holding an action wins (models often continue with a fake observation).
 */
public final class ReactActionParser {

    private static final Pattern ACTION = Pattern.compile(
            "^\\s*(?:\\*\\*)?(?:action\\s*\\d*\\s*:\\s*)?(?:\\*\\*)?\\s*(search|lookup|finish)\\s*\\[(.*?)(?:]|$)",
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

    static String unquote(String s) {
        String t = s;
        while (t.length() >= 2) {
            char a = t.charAt(0);
            char b = t.charAt(t.length() - 1);
            if ((a == '"' && b == '"') || (a == '\'' && b == '\'') || (a == '`' && b == '`')
                    || (a == '\u201c' && b == '\u201d') || (a == '\u2018' && b == '\u2019')) {
                t = t.substring(1, t.length() - 1).strip();
            } else {
                break;
            }
        }
        return t;
    }
}
