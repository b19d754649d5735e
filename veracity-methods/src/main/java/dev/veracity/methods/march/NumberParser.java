package dev.veracity.methods.march;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the numbers models write (for {@code match=strict}, ours): "1,234.5", "10k", "2.5 million", "3bn",
 * "1e3", "1.2 x 10^3", "45%", "45 percent", "$12", "~50", "(50)". Percent signs are dropped (the prompts ask both
 * agents for pure numbers, so "45%" and "45" mean the same claim); a lower-case "m" is a unit, not a million.
 * Total: anything else is empty.
 */
public final class NumberParser {

    private static final Map<String, Double> SCALES = Map.ofEntries(
            Map.entry("k", 1e3), Map.entry("K", 1e3), Map.entry("thousand", 1e3), Map.entry("hundred", 1e2),
            Map.entry("M", 1e6), Map.entry("mn", 1e6), Map.entry("mln", 1e6), Map.entry("million", 1e6),
            Map.entry("B", 1e9), Map.entry("bn", 1e9), Map.entry("billion", 1e9),
            Map.entry("T", 1e12), Map.entry("tn", 1e12), Map.entry("trillion", 1e12));
    private static final Pattern NUMBER = Pattern.compile(
            "([+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][+-]?\\d+)?)(?:\\s*+[x\u00D7*]\\s*+10\\s*+\\^\\s*+([+-]?\\d+))?"
                    + "\\s*+(k|K|M|B|T|mn|mln|bn|tn|thousand|hundred|million|billion|trillion|Thousand|Million|Billion|Trillion)?\\.?");

    private NumberParser() {
    }

    public static OptionalDouble parse(String text) {
        if (text == null) {
            return OptionalDouble.empty();
        }
        String s = text.strip();
        s = stripBrackets(s).strip();
        s = s.replaceAll("(?i)^(?:about|approximately|approx\\.?|around|roughly|nearly|over|under)\\s++", "");
        s = s.replaceAll("(?i)^(?:us\\$|usd|eur|gbp|[$\u20AC\u00A3\u00A5])\\s*+", "");
        s = stripPercent(s);
        s = s.replaceAll("(?<=\\d)[,\u2009\u202F'](?=\\d{3}(?!\\d))", "").replace('\u2212', '-').strip();
        Matcher m = NUMBER.matcher(s);
        if (!m.matches()) {
            return OptionalDouble.empty();
        }
        try {
            double v = Double.parseDouble(m.group(1));
            if (m.group(2) != null) {
                v *= Math.pow(10, Integer.parseInt(m.group(2)));
            }
            if (m.group(3) != null) {
                Double scale = SCALES.get(m.group(3));
                if (scale == null) {
                    scale = SCALES.get(m.group(3).toLowerCase(Locale.ROOT));
                }
                v *= scale;
            }
            return Double.isFinite(v) ? OptionalDouble.of(v) : OptionalDouble.empty();
        } catch (RuntimeException e) {
            return OptionalDouble.empty();
        }
    }

    private static final String LEADING = "[(\"'~\u2248";
    private static final String TRAILING = "])\"'";
    private static final List<String> PERCENT =
            List.of("%", "percent", "per cent", "percentage points", "percentage point");

    /**
     * {@code replaceAll("^[\\[(\"'~\u2248]+|[\\])\"']+$", "")} by hand (the regex retried {@code [\\])"']+} from
     * every character of a long run of them): the leading run of opening marks, then the trailing run of closing
     * marks that is left.
     */
    static String stripBrackets(String s) {
        int lo = 0;
        while (lo < s.length() && LEADING.indexOf(s.charAt(lo)) >= 0) {
            lo++;
        }
        int hi = s.length();
        while (hi > lo && TRAILING.indexOf(s.charAt(hi - 1)) >= 0) {
            hi--;
        }
        return s.substring(lo, hi);
    }

    /**
     * {@code replaceAll("(?i)\\s*(?:%|percent|per cent|percentage points?)$", "")} by hand (the regex retried
     * {@code \\s*} from every character of a long run of white space): a percent suffix, ASCII case ignored, and the
     * white space ({@code [ \\t\\n\\x0B\\f\\r]}) before it. At most one of the suffixes can end the text.
     */
    static String stripPercent(String s) {
        for (String p : PERCENT) {
            int start = s.length() - p.length();
            if (start >= 0 && asciiEqualsIgnoreCase(s, start, p)) {
                while (start > 0 && " \t\n\u000B\f\r".indexOf(s.charAt(start - 1)) >= 0) {
                    start--;
                }
                return s.substring(0, start);
            }
        }
        return s;
    }

    private static boolean asciiEqualsIgnoreCase(String s, int from, String lowerAscii) {
        for (int i = 0; i < lowerAscii.length(); i++) {
            char c = s.charAt(from + i);
            if (c >= 'A' && c <= 'Z') {
                c = (char) (c + ('a' - 'A'));
            }
            if (c != lowerAscii.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** |a - b| <= tol * max(|a|, |b|), exact for zero. */
    static boolean close(double a, double b, double relativeTolerance) {
        if (a == b) {
            return true;
        }
        return Math.abs(a - b) <= relativeTolerance * Math.max(Math.abs(a), Math.abs(b));
    }
}
