package dev.veracity.methods.march;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Clean-up shared by the two parsers. */
final class ParseText {

    /** "[Answer: x]" (bracket closed on the same line) or a bare "Answer: x" to the end of the line. */
    static final Pattern ANSWER = Pattern.compile(
            "(?i)\\[\\s*answer\\s*[:\uFF1A]\\s*([^\\]\\n]*?)\\s*\\]|(?<![\\w])answer\\s*[:\uFF1A][ \\t]*([^\\n\\]]*)");

    private ParseText() {
    }

    /** Markdown emphasis and headings and odd whitespace removed; null becomes "". */
    static String plain(String s) {
        if (s == null) {
            return "";
        }
        return s.replace("\r\n", "\n").replace('\r', '\n').replace("**", "").replace("__", "")
                .replace('\u00A0', ' ').replace('\u2009', ' ').replace('\u202F', ' ');
    }

    /** The answer text of an {@link #ANSWER} match. */
    static String answerOf(Matcher m) {
        String a = m.group(1) != null ? m.group(1) : m.group(2);
        return cleanAnswer(a);
    }

    static String cleanAnswer(String a) {
        String s = a == null ? "" : a.strip();
        s = s.replaceAll("^[\"'`*\\s]+|[\"'`*\\s\u2013\u2014-]+$", "");
        while (s.endsWith(".") || s.endsWith(",") || s.endsWith(";")) {
            s = s.substring(0, s.length() - 1).strip();
        }
        return s;
    }

    static String cleanText(String s) {
        String t = s == null ? "" : s.strip();
        t = t.replaceAll("^[-*\u2022\\s:]+", "").replaceAll("[\\s\\[(\u2013\u2014-]+$", "");
        return t.replaceAll("\\s+", " ").strip();
    }
}
