package dev.veracity.llm.client;

import java.util.Locale;

/**
 * The setting of a client's limit on attempts in flight: a fixed number, or {@code auto}, a limit that starts at
 * {@code initial} and moves between 1 and {@code max} as the server answers ({@link CallLimiter}).
 *
 * @param adaptive whether the limit adapts ({@code auto})
 * @param initial  the limit at the start (the whole limit when fixed)
 * @param max      the highest the limit may go (equal to {@code initial} when fixed)
 */
public record ConcurrencyLimit(boolean adaptive, int initial, int max) {

    /**
     * {@code auto}: starts at 16, today's fixed default, so a run begins as it always did; grows to at most 256, the
     * batch of sequences a vLLM server runs at once by default ({@code --max-num-seqs}), so no server is asked for
     * more than the common ones take at most.
     */
    public static final ConcurrencyLimit AUTO = new ConcurrencyLimit(true, 16, 256);

    public ConcurrencyLimit {
        if (initial < 1 || max < initial || (!adaptive && max != initial)) {
            throw new IllegalArgumentException("a concurrency limit needs 1 <= initial <= max (equal when fixed), got "
                    + initial + " and " + max);
        }
    }

    /** A limit that never moves. */
    public static ConcurrencyLimit fixed(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("concurrency must be >= 1, was " + n);
        }
        return new ConcurrencyLimit(false, n, n);
    }

    /**
     * Reads a setting as a user writes it: {@code auto} (any case) or a positive integer.
     *
     * @throws IllegalArgumentException with a one-line message naming the setting and the value
     */
    public static ConcurrencyLimit parse(String value) {
        String v = value == null ? "" : value.trim();
        if (v.toLowerCase(Locale.ROOT).equals("auto")) {
            return AUTO;
        }
        try {
            int n = Integer.parseInt(v);
            if (n >= 1) {
                return fixed(n);
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException("setting 'concurrency' must be a positive integer or auto, was '" + value
                + "'");
    }

    /** Questions an eval run admits per slot of a fixed limit when it is not told how many. */
    public static final int QUESTIONS_PER_SLOT = 4;

    /**
     * How many questions an eval run answers at once by default: four times a fixed limit, so that the client's slots
     * stay busy while some questions work between their calls (parse, score, retrieve) or wait on each other's calls
     * (the client serves the calls of earlier questions first, {@link dev.veracity.trace.CallContext#order()}, so the
     * extra questions only take the slots the earlier ones leave), and so that a run's last questions are admitted
     * early enough that their longest paths start before the others end: at twice the limit, C-3PO over 200 RAMDocs
     * questions (29 of them six calls in a row, the rest two or three) waited on admission, 1.15x the ideal at 400 ms a
     * call against 1.06x at four times with the run's end at its last admission (bench run; a model of the schedule
     * gives the same at three times); for {@code auto} its {@code max}, so that there is always work waiting when the
     * limit grows (a waiting question costs one parked virtual thread).
     */
    public int questionsAtOnce() {
        return adaptive ? max : (int) Math.min(Integer.MAX_VALUE, (long) max * QUESTIONS_PER_SLOT);
    }

    /** As a user writes it: {@code auto} or the number. */
    @Override
    public String toString() {
        return adaptive ? "auto" : Integer.toString(initial);
    }
}
