package dev.veracity.cli;

import java.util.Locale;

/**
 * A bench's target, printed beside the figure it judges, with the ratio of the two: one line format for every
 * {@code bench} command, so that a reader (and the README's tables) see at a glance what was aimed at, what was
 * measured and by how much it was met or missed. The figure and the target share a unit; the ratio is figure /
 * target, so a ceiling is met at a ratio of 1 or less and a floor at 1 or more.
 *
 * @param what  what is measured, e.g. "first model call after launch"
 * @param bound whether the figure must stay at or below the target, or reach it
 * @param value the target's value
 * @param unit  the unit figure and target share ("ms", "x", "calls/s"; "" for none)
 */
record BenchTarget(String what, Bound bound, double value, String unit) {

    /** Which side of the target a figure must lie on. */
    enum Bound {
        AT_MOST("<="), AT_LEAST(">=");

        private final String sign;

        Bound(String sign) {
            this.sign = sign;
        }
    }

    BenchTarget {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException("a target must be a positive number, was " + value);
        }
    }

    /** A ceiling: the figure is met at or below {@code value}. */
    static BenchTarget atMost(String what, double value, String unit) {
        return new BenchTarget(what, Bound.AT_MOST, value, unit);
    }

    /** A floor: the figure is met at or above {@code value}. */
    static BenchTarget atLeast(String what, double value, String unit) {
        return new BenchTarget(what, Bound.AT_LEAST, value, unit);
    }

    /** Whether {@code figure} meets the target (a figure that is not a number does not). */
    boolean met(double figure) {
        return bound == Bound.AT_MOST ? figure <= value : figure >= value;
    }

    /** The figure over the target. */
    double ratio(double figure) {
        return figure / value;
    }

    /**
     * The line: {@code what: figure unit   target <= value unit   ratio r   met} (or {@code MISSED}), figures
     * with as many decimals as their size needs.
     */
    String line(double figure) {
        return String.format(Locale.ROOT, "%s: %s   target %s %s   ratio %.2f   %s", what, withUnit(figure),
                bound.sign, withUnit(value), ratio(figure), met(figure) ? "met" : "MISSED");
    }

    /** Prints {@link #line} to standard output, indented as the benches indent their figures. */
    void print(double figure) {
        System.out.println("   " + line(figure));
    }

    private String withUnit(double v) {
        String number = Math.abs(v) >= 100 || v == Math.rint(v) && Math.abs(v) < 1e15 ? String.format(Locale.ROOT, "%,.0f", v)
                : Math.abs(v) >= 10 ? String.format(Locale.ROOT, "%.1f", v) : String.format(Locale.ROOT, "%.2f", v);
        if (unit.isEmpty()) {
            return number;
        }
        return unit.equals("x") ? number + "x" : number + " " + unit;
    }
}
