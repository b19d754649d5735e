package dev.veracity.eval.run;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * A share of a run's questions, so that several machines answer one evaluation ({@code eval --shard I/N}): the
 * questions whose bucket is among {@code indices}, of {@code count} buckets. I is 0-based, as a Kubernetes Indexed
 * Job's {@code JOB_COMPLETION_INDEX} is.
 *
 * <p>A question's bucket is a stable hash of its id alone (the first 8 bytes of the SHA-256 of its UTF-8 bytes, as an
 * unsigned number, modulo {@code count}): the same on every machine and JVM, whatever order the questions are read or
 * answered in, and whatever else the run is given. The shard is taken after the run's selection ({@code --sample},
 * then {@code --limit}), so N shards of a run answer exactly the run's questions; a question keeps its position among
 * the whole run's, so a merged run's rows are the unsharded run's. A merge checks every row against its shard's
 * buckets. The price of hashing over taking every N-th position: shards are balanced only on average (a binomial
 * spread), which matters little for the runs long enough to shard.
 *
 * <p>Several indices ({@code 0,2/3}) name the union of those shards: what a merge of some of them covers, and a way to
 * run missing shards on one machine.
 *
 * @param indices the buckets (each below {@code count}), at least one
 * @param count   the number of shards, at least 1
 */
public record Shard(BitSet indices, int count) {

    public Shard {
        if (count < 1) {
            throw new IllegalArgumentException("a shard count must be >= 1, was " + count);
        }
        indices = (BitSet) indices.clone();
        if (indices.isEmpty() || indices.length() > count) {
            throw new IllegalArgumentException("a shard index must be in 0.." + (count - 1) + " (0-based), was "
                    + (indices.isEmpty() ? "none" : String.valueOf(indices.length() - 1)));
        }
    }

    /** Shard {@code index} of {@code count}. */
    public static Shard of(int index, int count) {
        if (index < 0) {
            throw new IllegalArgumentException("a shard index must be in 0.." + (count - 1) + " (0-based), was " + index);
        }
        BitSet b = new BitSet();
        b.set(index);
        return new Shard(b, count);
    }

    /**
     * {@code I/N}, or {@code I,J,.../N}, as {@code --shard} and {@code run.json} write it; a mistake is one line saying
     * the form.
     */
    public static Shard parse(String text) {
        String t = text == null ? "" : text.strip();
        String form = "; write I/N with 0 <= I < N (0-based, e.g. --shard 0/4 for the first of four)";
        int slash = t.indexOf('/');
        if (slash < 0 || slash != t.lastIndexOf('/')) {
            throw new IllegalArgumentException("--shard '" + text + "' is not I/N" + form);
        }
        int count;
        BitSet indices = new BitSet();
        try {
            count = Integer.parseInt(t.substring(slash + 1).strip());
            for (String i : t.substring(0, slash).split(",", -1)) {
                int index = Integer.parseInt(i.strip());
                if (index < 0 || index >= Math.max(count, 1)) {
                    throw new IllegalArgumentException("--shard '" + text + "': index " + index + " is not below "
                            + count + form);
                }
                indices.set(index);
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--shard '" + text + "' is not I/N" + form);
        }
        if (count < 1) {
            throw new IllegalArgumentException("--shard '" + text + "': N must be >= 1" + form);
        }
        return new Shard(indices, count);
    }

    /** The bucket of a question id, 0..count-1: the same for the same id everywhere. */
    public static int bucket(String id, int count) {
        byte[] digest;
        try {
            digest = MessageDigest.getInstance("SHA-256").digest(id.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e); // every JDK has it
        }
        long h = 0;
        for (int i = 0; i < 8; i++) {
            h = h << 8 | (digest[i] & 0xff);
        }
        return (int) Long.remainderUnsigned(h, count);
    }

    /** The buckets (a copy). */
    @Override
    public BitSet indices() {
        return (BitSet) indices.clone();
    }

    /** Whether question {@code id} belongs to this shard. */
    public boolean contains(String id) {
        return indices.get(bucket(id, count));
    }

    /** The shard's indices, ascending. */
    public List<Integer> indexList() {
        return indices.stream().boxed().toList();
    }

    /** The indices of {@code count} that this shard does not cover. */
    public List<Integer> missing() {
        List<Integer> out = new ArrayList<>();
        for (int i = indices.nextClearBit(0); i < count; i = indices.nextClearBit(i + 1)) {
            out.add(i);
        }
        return out;
    }

    /** Whether it covers every shard (then it is the whole run). */
    public boolean whole() {
        return indices.cardinality() == count;
    }

    /** The union with another shard of the same count. */
    public Shard union(Shard other) {
        if (other.count != count) {
            throw new IllegalArgumentException("shards of " + count + " and of " + other.count + " do not combine");
        }
        BitSet b = (BitSet) indices.clone();
        b.or(other.indices);
        return new Shard(b, count);
    }

    /** Whether the two share an index. */
    public boolean overlaps(Shard other) {
        return count == other.count && indices.intersects(other.indices);
    }

    /** {@code I/N} ({@code I,J/N} for several). */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        indices.stream().forEach(i -> b.append(b.isEmpty() ? "" : ",").append(i));
        return b + "/" + count;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Shard s && s.count == count && s.indices.equals(indices);
    }

    @Override
    public int hashCode() {
        return 31 * indices.hashCode() + count;
    }
}
