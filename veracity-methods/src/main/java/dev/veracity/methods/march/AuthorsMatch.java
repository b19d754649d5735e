package dev.veracity.methods.march;

import java.util.regex.Pattern;

/**
 * The authors' answer equality (GUIDE.md section 3): remove every {@code % k K w W ,} from both answers; equal
 * strings match. Otherwise, when either contains a ".", both are read as floats and match within an absolute
 * tolerance of 0.1, strictly as their Python does ({@code abs(a - b) < 0.1}), in binary floating point: "0.5" =
 * "0.55" (0.55 - 0.5 is 0.050000000000000044) and "0.5" = "0.6" (0.6 - 0.5 is 0.09999999999999998, just under
 * 0.1), while "0.1" != "0.2" (0.2 - 0.1 is exactly 0.1, not under it) and "50.1" != "50" (50.1 - 50 is
 * 0.10000000000000142); else both are read as integers and must be equal, so "1e3" != "1000" (an integer parse
 * of "1e3" fails). A "Cannot answer", an empty or an unparseable answer is a mismatch. The float and integer
 * syntaxes are matched possessively, so a long run of digits is read in linear time.
 */
final class AuthorsMatch implements AnswerMatcher {

    static final AuthorsMatch INSTANCE = new AuthorsMatch();

    private static final Pattern FLOAT = Pattern.compile("[+-]?(?:\\d[\\d_]*+(?:\\.\\d*+)?|\\.\\d++)(?:[eE][+-]?\\d++)?|[+-]?(?:inf|infinity|nan)",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern INT = Pattern.compile("[+-]?\\d++(?:_\\d++)*+");

    private AuthorsMatch() {
    }

    @Override
    public boolean matches(String claimed, String checked) {
        if (claimed == null || checked == null || CheckerAnswer.isCannotAnswer(checked)) {
            return false;
        }
        String a = strip(claimed);
        String b = strip(checked);
        if (a.isEmpty() || b.isEmpty()) {
            return false;
        }
        if (a.equals(b)) {
            return true;
        }
        if (a.contains(".") || b.contains(".")) {
            Double x = toFloat(a);
            Double y = toFloat(b);
            return x != null && y != null && Math.abs(x - y) < 0.1;
        }
        String x = toInt(a);
        String y = toInt(b);
        return x != null && x.equals(y);
    }

    static String strip(String s) {
        return s.replaceAll("[%kKwW,]", "").strip();
    }

    private static Double toFloat(String s) {
        if (!FLOAT.matcher(s).matches()) {
            return null;
        }
        String t = s.replace("_", "").toLowerCase(java.util.Locale.ROOT);
        if (t.contains("inf")) {
            return t.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        if (t.contains("nan")) {
            return Double.NaN;
        }
        try {
            return Double.parseDouble(t);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * The integer in canonical form (sign, no leading zeros), or null: Python's int() equality without BigInteger,
     * whose decimal parsing is quadratic in the number of digits (a 100k-digit "answer" took seconds).
     */
    private static String toInt(String s) {
        if (!INT.matcher(s).matches()) {
            return null;
        }
        String digits = s.replace("_", "");
        boolean negative = digits.startsWith("-");
        if (negative || digits.startsWith("+")) {
            digits = digits.substring(1);
        }
        int i = 0;
        while (i < digits.length() - 1 && digits.charAt(i) == '0') {
            i++;
        }
        digits = digits.substring(i);
        return negative && !digits.equals("0") ? "-" + digits : digits;
    }
}
