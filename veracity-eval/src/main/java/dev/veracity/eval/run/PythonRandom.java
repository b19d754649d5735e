package dev.veracity.eval.run;

/**
 * CPython's {@code random.Random(seed)}: MT19937 seeded by {@code init_by_array} with the seed's 32-bit words, and
 * the {@code shuffle} and {@code getrandbits} built on it. Papers select their evaluation questions with it (ReAct,
 * and Reasoning Court after it: {@code idxs = list(range(7405)); random.Random(233).shuffle(idxs); idxs[:500]}), so
 * only the same generator picks the same questions.
 */
public final class PythonRandom {

    private static final int N = 624;
    private static final int M = 397;
    private final int[] mt = new int[N];
    private int mti;

    /** {@code random.Random(seed)} for a non-negative integer seed below 2^64. */
    public PythonRandom(long seed) {
        if (seed < 0) {
            throw new IllegalArgumentException("seed must be >= 0, was " + seed);
        }
        // CPython: the absolute value split into 32-bit words, least significant first; 0 is one word [0]
        int[] key = (seed >>> 32) == 0 ? new int[] {(int) seed} : new int[] {(int) seed, (int) (seed >>> 32)};
        initByArray(key);
    }

    private void initGenrand(int s) {
        mt[0] = s;
        for (mti = 1; mti < N; mti++) {
            mt[mti] = 1812433253 * (mt[mti - 1] ^ (mt[mti - 1] >>> 30)) + mti;
        }
    }

    private void initByArray(int[] key) {
        initGenrand(19650218);
        int i = 1;
        int j = 0;
        for (int k = Math.max(N, key.length); k > 0; k--) {
            mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >>> 30)) * 1664525)) + key[j] + j;
            i++;
            j++;
            if (i >= N) {
                mt[0] = mt[N - 1];
                i = 1;
            }
            if (j >= key.length) {
                j = 0;
            }
        }
        for (int k = N - 1; k > 0; k--) {
            mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >>> 30)) * 1566083941)) - i;
            i++;
            if (i >= N) {
                mt[0] = mt[N - 1];
                i = 1;
            }
        }
        mt[0] = 0x80000000;
    }

    /** The next 32-bit output, as an unsigned value. */
    long nextUint32() {
        if (mti >= N) {
            for (int kk = 0; kk < N; kk++) {
                int y = (mt[kk] & 0x80000000) | (mt[(kk + 1) % N] & 0x7fffffff);
                mt[kk] = mt[(kk + M) % N] ^ (y >>> 1) ^ ((y & 1) != 0 ? 0x9908b0df : 0);
            }
            mti = 0;
        }
        int y = mt[mti++];
        y ^= y >>> 11;
        y ^= (y << 7) & 0x9d2c5680;
        y ^= (y << 15) & 0xefc60000;
        y ^= y >>> 18;
        return y & 0xffffffffL;
    }

    /** {@code getrandbits(k)} for 1 <= k <= 32. */
    long getrandbits(int k) {
        if (k < 1 || k > 32) {
            throw new IllegalArgumentException("k must be in 1..32, was " + k);
        }
        return nextUint32() >>> (32 - k);
    }

    /** {@code _randbelow_with_getrandbits(n)}: uniform in [0, n) by rejection. */
    int randbelow(int n) {
        int k = 32 - Integer.numberOfLeadingZeros(n); // n.bit_length()
        long r = getrandbits(k);
        while (r >= n) {
            r = getrandbits(k);
        }
        return (int) r;
    }

    /** {@code random.Random(seed).shuffle(list(range(n)))}: the shuffled indices. */
    public static int[] shuffledRange(long seed, int n) {
        int[] x = new int[n];
        for (int i = 0; i < n; i++) {
            x[i] = i;
        }
        PythonRandom r = new PythonRandom(seed);
        for (int i = n - 1; i > 0; i--) {
            int j = r.randbelow(i + 1);
            int t = x[i];
            x[i] = x[j];
            x[j] = t;
        }
        return x;
    }
}
