package dev.veracity.sim;

/** Seeded hashing for every deterministic "random" choice the simulator makes. */
final class Mix {
    private Mix() {
    }

    /** SplitMix64's finaliser: a cheap, well-distributed 64-bit mix. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    static long mix(long a, long b) {
        return mix(a * 0x9e3779b97f4a7c15L + mix(b));
    }

    static long mix(long a, long b, long c) {
        return mix(mix(a, b), c);
    }

    /** A double uniform in [0, 1) from a hash. */
    static double unit(long hash) {
        return (hash >>> 11) * 0x1.0p-53;
    }

    /** An index uniform in [0, bound) from a hash. */
    static int index(long hash, int bound) {
        return (int) Long.remainderUnsigned(hash, bound);
    }
}
