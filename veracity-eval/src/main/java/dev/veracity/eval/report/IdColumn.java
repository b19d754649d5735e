package dev.veracity.eval.report;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The question ids of a run's rows, off the heap ({@link MappedArray}s): their UTF-8 bytes end to end, each row's
 * place in them, a 64-bit hash of each, and an open-addressing index from hash to row, so that a row is found by id,
 * and the same question in another run by its row there, without a String or a map entry per question. A hash match
 * is confirmed on the bytes: two ids that share a hash are still told apart.
 */
final class IdColumn {

    /** A row's reference for a line without an id. */
    private static final long NO_ID = -1;

    private final MappedArray bytes;
    /** Per row: the id's first byte << 32 | its length, or {@link #NO_ID}. */
    private final MappedArray refs;
    private final MappedArray hashes;
    /** Slots of row + 1 (0: empty), a power of two at least twice the ids indexed. */
    private MappedArray slots;
    private int slotCount;
    private int indexed;
    private int byteEnd;
    private int size;

    IdColumn(int capacity) {
        bytes = new MappedArray(1, 16L * capacity);
        refs = new MappedArray(8, capacity);
        hashes = new MappedArray(8, capacity);
        slotCount = Integer.highestOneBit(Math.max(16, capacity) * 2 - 1) * 2;
        slots = new MappedArray(4, slotCount);
    }

    int size() {
        return size;
    }

    /**
     * Appends a row's id (null: none) and returns its row; an id already in the column is not added, and its first
     * row is returned as {@code -(row + 1)}.
     */
    int add(String id) {
        if (id == null) {
            refs.putLong(size, NO_ID);
            hashes.putLong(size, 0);
            return size++;
        }
        byte[] b = id.getBytes(StandardCharsets.UTF_8);
        long hash = hash(b);
        int found = find(b, hash);
        if (found >= 0) {
            return -(found + 1);
        }
        if (b.length > Integer.MAX_VALUE - byteEnd) {
            throw new IllegalStateException("the question ids of a run exceed 2 GB");
        }
        bytes.putBytes(byteEnd, b);
        refs.putLong(size, (long) byteEnd << 32 | b.length);
        hashes.putLong(size, hash);
        byteEnd += b.length;
        if (2 * (indexed + 1) > slotCount) {
            rehash();
        }
        insert(size, hash);
        return size++;
    }

    /** The column is complete: only read from now on. */
    IdColumn seal() {
        bytes.seal();
        refs.seal();
        hashes.seal();
        slots.seal();
        return this;
    }

    /** The id of a row, or null when its line has none. */
    String id(int row) {
        byte[] b = idBytes(row);
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }

    /** Whether the row has an id. */
    boolean hasId(int row) {
        return refs.getLong(row) != NO_ID;
    }

    /** The row of {@code id}, or -1. */
    int rowOf(String id) {
        if (id == null) {
            return -1;
        }
        byte[] b = id.getBytes(StandardCharsets.UTF_8);
        return find(b, hash(b));
    }

    /** The row here of the question at {@code row} in {@code other}, or -1 (also for a row without an id). */
    int rowOf(IdColumn other, int row) {
        if (other == this) {
            return other.hasId(row) ? row : -1;
        }
        byte[] b = other.idBytes(row);
        return b == null ? -1 : find(b, other.hashes.getLong(row));
    }

    private byte[] idBytes(int row) {
        long ref = refs.getLong(row);
        return ref == NO_ID ? null : bytes.getBytes((int) (ref >>> 32), (int) ref);
    }

    private int find(byte[] id, long hash) {
        int mask = slotCount - 1;
        for (int s = spread(hash) & mask; ; s = (s + 1) & mask) {
            int row = slots.getInt(s) - 1;
            if (row < 0) {
                return -1;
            }
            if (hashes.getLong(row) == hash && Arrays.equals(idBytes(row), id)) {
                return row;
            }
        }
    }

    private void insert(int row, long hash) {
        int mask = slotCount - 1;
        int s = spread(hash) & mask;
        while (slots.getInt(s) != 0) {
            s = (s + 1) & mask;
        }
        slots.putInt(s, row + 1);
        indexed++;
    }

    /** Doubles the index, re-placing the rows by their stored hashes. */
    private void rehash() {
        slotCount *= 2;
        slots.seal(); // its file closed now, not at a collection: a large table rehashes many times
        slots = new MappedArray(4, slotCount);
        indexed = 0;
        for (int row = 0; row < size; row++) {
            if (refs.getLong(row) != NO_ID) {
                insert(row, hashes.getLong(row));
            }
        }
    }

    /** FNV-1a over the bytes: the same id hashes the same in every run. */
    private static long hash(byte[] b) {
        long h = 0xcbf29ce484222325L;
        for (byte x : b) {
            h = (h ^ (x & 0xff)) * 0x100000001b3L;
        }
        return h;
    }

    /** The slot bits of a hash, mixed (Murmur3's finalizer) so that similar ids spread. */
    private static int spread(long h) {
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        return (int) h;
    }
}
