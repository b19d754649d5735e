package dev.veracity.eval.recipe;

import java.math.BigDecimal;
import java.util.regex.Pattern;

/**
 * A number as the paper's text prints it. The text extractions sometimes lose the last digit of a bold number
 * ("16." for 16.x in TruthRL's tables); such a value is kept as printed and read as the interval it stands for, so
 * that no digit is invented.
 *
 * @param printed   the paper's text, e.g. {@code 12.80}, {@code -0.9}, {@code 16.}
 * @param value     the number (for a truncated value: the printed digits)
 * @param truncated whether the last digit was lost
 */
public record PaperValue(String printed, BigDecimal value, boolean truncated) {

    private static final Pattern NUMBER = Pattern.compile("-?\\d+(\\.\\d*)?");

    static boolean valid(String s) {
        return NUMBER.matcher(s).matches();
    }

    /** Reads a printed value; null stays null (the paper prints "-"). */
    public static PaperValue of(String printed) {
        if (printed == null) {
            return null;
        }
        if (!valid(printed)) {
            throw new IllegalArgumentException("'" + printed + "' is not a number as the paper prints it");
        }
        return new PaperValue(printed, new BigDecimal(printed.endsWith(".") ? printed + "0" : printed), printed.endsWith("."));
    }

    /** The middle of what the value stands for: itself, or for "16." 16.5 (and for "-0." -0.5). */
    public double center() {
        if (!truncated) {
            return value.doubleValue();
        }
        return value.doubleValue() + (printed.startsWith("-") ? -0.5 : 0.5);
    }

    /** Half the width of what the value stands for: 0, or 0.5 for a lost digit. */
    public double halfWidth() {
        return truncated ? 0.5 : 0;
    }

    /** How the table shows it: as printed, a lost digit as "?". */
    public String display() {
        return truncated ? printed + "?" : printed;
    }
}
