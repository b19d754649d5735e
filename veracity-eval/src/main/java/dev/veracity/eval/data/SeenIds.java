package dev.veracity.eval.data;

/**
 * The ids a stream of items has given so far, as 64-bit fingerprints in an open-addressing table: about 16 bytes an id
 * instead of a hundred for a set of strings, since a run holds the stream open while it answers (a million questions
 * stay a few megabytes). A fingerprint seen before only says "maybe": the caller confirms by reading the earlier items
 * again, so a refused id is a real repeat.
 */
final class SeenIds {

    private long[] table = new long[1 << 10];
    private int size;

    /** Adds the id; false when its fingerprint was there already (the same id, or very rarely another one). */
    boolean add(String id) {
        long f = fingerprint(id);
        if ((size + 1) * 2 > table.length) {
            grow();
        }
        int mask = table.length - 1;
        for (int i = (int) (f ^ (f >>> 32)) & mask; ; i = (i + 1) & mask) {
            if (table[i] == f) {
                return false;
            }
            if (table[i] == 0) {
                table[i] = f;
                size++;
                return true;
            }
        }
    }

    private void grow() {
        long[] old = table;
        table = new long[old.length * 2];
        int mask = table.length - 1;
        for (long f : old) {
            if (f != 0) {
                int i = (int) (f ^ (f >>> 32)) & mask;
                while (table[i] != 0) {
                    i = (i + 1) & mask;
                }
                table[i] = f;
            }
        }
    }

    /** FNV-1a over the UTF-16 units, then MurmurHash3's 64-bit finaliser; never 0 (the empty slot). */
    static long fingerprint(String id) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < id.length(); i++) {
            h ^= id.charAt(i);
            h *= 0x100000001b3L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h == 0 ? 1 : h;
    }
}
