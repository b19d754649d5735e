package dev.veracity.eval.report;

import java.util.Arrays;

/**
 * One number per answered question of a run, or none (a metric that skips the question, a figure the line lacks),
 * kept off the heap in a {@link MappedArray}: a question's absence is a NaN of a payload no arithmetic makes, so a
 * column costs 8 bytes a question of mapped memory and nothing of the heap.
 */
final class NumberColumn {

    /** The bits of "no value": a quiet NaN with a payload (a computed NaN is the canonical 0x7ff8000000000000). */
    private static final long ABSENT = 0x7ff8_0000_dead_0001L;

    private final MappedArray values;
    private int size;

    NumberColumn(int capacity) {
        values = new MappedArray(8, capacity);
    }

    /** Appends the next question's value; null for none. */
    void add(Double v) {
        values.putLong(size, v == null ? ABSENT : Double.doubleToRawLongBits(v));
        size++;
    }

    /** The column is complete: only read from now on. */
    NumberColumn seal() {
        values.seal();
        return this;
    }

    int size() {
        return size;
    }

    boolean has(int row) {
        return values.getLong(row) != ABSENT;
    }

    /** The value of a question that has one ({@link #has}). */
    double get(int row) {
        return values.getDouble(row);
    }

    /** The value, or null when the question has none. */
    Double orNull(int row) {
        return has(row) ? get(row) : null;
    }

    /** The values present, in question order (an array of their count: what the bootstrap resamples). */
    double[] present() {
        double[] out = new double[size];
        int k = 0;
        for (int row = 0; row < size; row++) {
            long bits = values.getLong(row);
            if (bits != ABSENT) {
                out[k++] = Double.longBitsToDouble(bits);
            }
        }
        return k == out.length ? out : Arrays.copyOf(out, k);
    }

    /** The rows of {@code rows} (ascending), in their order: a subset's column. */
    NumberColumn select(int[] rows) {
        NumberColumn out = new NumberColumn(rows.length);
        for (int r : rows) {
            out.values.putLong(out.size++, values.getLong(r));
        }
        return out.seal();
    }
}
