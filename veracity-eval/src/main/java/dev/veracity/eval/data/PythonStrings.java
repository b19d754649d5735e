package dev.veracity.eval.data;

import java.util.ArrayList;
import java.util.List;

/**
 * A Python list literal of strings, as {@code str(list)} writes it and {@code ast.literal_eval} reads it (a dataset
 * that stored a list as its Python text): {@code ['a', "b's", 'c\'d']}. Quotes of either kind, backslash escapes
 * ({@code \\ \' \" \n \t}; any other escaped character is kept as it is), commas and white space between items, an
 * optional trailing comma; numbers are kept as their text. One pass, linear time; anything else is no list (null).
 */
final class PythonStrings {

    private PythonStrings() {
    }

    /** The strings of the literal, or null when {@code s} is not a list of strings and numbers. */
    static List<String> list(String s) {
        String t = s.strip();
        if (t.length() < 2 || t.charAt(0) != '[' || t.charAt(t.length() - 1) != ']') {
            return null;
        }
        List<String> out = new ArrayList<>();
        int i = 1;
        int end = t.length() - 1;
        boolean needComma = false;
        while (true) {
            while (i < end && Character.isWhitespace(t.charAt(i))) {
                i++;
            }
            if (i >= end) {
                return out;
            }
            char c = t.charAt(i);
            if (c == ',' && needComma) {
                needComma = false;
                i++;
                continue;
            }
            if (needComma) {
                return null;
            }
            if (c == '\'' || c == '"') {
                StringBuilder item = new StringBuilder();
                i++;
                boolean closed = false;
                while (i < end) {
                    char d = t.charAt(i++);
                    if (d == c) {
                        closed = true;
                        break;
                    }
                    if (d == '\\' && i < end) {
                        char e = t.charAt(i++);
                        item.append(switch (e) {
                            case 'n' -> '\n';
                            case 't' -> '\t';
                            default -> e;
                        });
                    } else {
                        item.append(d);
                    }
                }
                if (!closed) {
                    return null;
                }
                out.add(item.toString());
            } else {
                int from = i;
                while (i < end && (Character.isLetterOrDigit(t.charAt(i)) || "+-.".indexOf(t.charAt(i)) >= 0)) {
                    i++;
                }
                if (i == from) {
                    return null;
                }
                out.add(t.substring(from, i));
            }
            needComma = true;
        }
    }
}
