package dev.veracity.eval.report;

import java.util.Arrays;
import java.util.BitSet;

/**
 * One number per answered question of a run, or none (a metric that skips the question, a figure the line lacks):
 * a primitive array and a presence bit set, so 100,000 questions cost under a megabyte.
 */
final class NumberColumn {

    private double[] values;
    private final BitSet present;
    private int size;

    NumberColumn(int capacity) {
        values = new double[Math.max(capacity, 16)];
        present = new BitSet();
    }

    private NumberColumn(double[] values, BitSet present, int size) {
        this.values = values;
        this.present = present;
        this.size = size;
    }

    /** Appends the next question's value; null for none. */
    void add(Double v) {
        if (size == values.length) {
            values = Arrays.copyOf(values, values.length * 2);
        }
        if (v != null) {
            values[size] = v;
            present.set(size);
        }
        size++;
    }

    int size() {
        return size;
    }

    boolean has(int row) {
        return present.get(row);
    }

    /** The value of a question that has one ({@link #has}). */
    double get(int row) {
        return values[row];
    }

    /** The value, or null when the question has none. */
    Double orNull(int row) {
        return present.get(row) ? values[row] : null;
    }

    /** The values present, in question order. */
    double[] present() {
        double[] out = new double[present.cardinality()];
        int k = 0;
        for (int row = present.nextSetBit(0); row >= 0 && row < size; row = present.nextSetBit(row + 1)) {
            out[k++] = values[row];
        }
        return k == out.length ? out : Arrays.copyOf(out, k);
    }

    /** The rows of {@code rows} (ascending), in their order: a subset's column or this one without dropped rows. */
    NumberColumn select(int[] rows) {
        double[] v = new double[rows.length];
        BitSet p = new BitSet(rows.length);
        for (int i = 0; i < rows.length; i++) {
            v[i] = values[rows[i]];
            if (present.get(rows[i])) {
                p.set(i);
            }
        }
        return new NumberColumn(v, p, rows.length);
    }
}
