package dev.veracity.rl.rollout;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.rl.jsonl.AtomicJsonlWriter;
import dev.veracity.rl.jsonl.JsonlRows;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A rollout's output folder, appended one question at a time: {@code records.jsonl} (per-agent training records),
 * {@code seed.jsonl} (the warm-up's seed trajectories) and, last, {@code trees.jsonl}, whose line is the question's
 * commit mark. Opening the folder again resumes: a torn last line of {@code trees.jsonl} is cut off, and records and
 * seed lines of questions without a tree line (a kill between the files) are removed, so a rerun writes every
 * question exactly once.
 */
public final class RolloutFiles implements AutoCloseable {

    public static final String TREES = "trees.jsonl";
    public static final String RECORDS = "records.jsonl";
    public static final String SEED = "seed.jsonl";

    private final Set<String> done;
    private final BufferedWriter trees;
    private final BufferedWriter records;
    private final BufferedWriter seed;

    private RolloutFiles(Set<String> done, BufferedWriter trees, BufferedWriter records, BufferedWriter seed) {
        this.done = done;
        this.trees = trees;
        this.records = records;
        this.seed = seed;
    }

    /** Opens (creating or resuming) the folder's files. */
    public static RolloutFiles open(Path dir) {
        try {
            Files.createDirectories(dir);
            Path treesFile = dir.resolve(TREES);
            Set<String> done = new LinkedHashSet<>();
            if (Files.exists(treesFile)) {
                cutTornLine(treesFile);
                JsonlRows.forEach(treesFile, (line, row) -> done.add(row.path("id").asText()));
            }
            keepDone(dir.resolve(RECORDS), done);
            keepDone(dir.resolve(SEED), done);
            return new RolloutFiles(done, append(treesFile), append(dir.resolve(RECORDS)), append(dir.resolve(SEED)));
        } catch (IOException e) {
            throw new UncheckedIOException(dir + ": cannot open the rollout's files: " + e.getMessage(), e);
        }
    }

    /** The ids of the questions whose trees are written. */
    public synchronized Set<String> done() {
        return Set.copyOf(done);
    }

    /** Appends one question's rows, the tree line last, and flushes them. */
    public synchronized void write(ObjectNode tree, List<ObjectNode> recordRows, List<ObjectNode> seedRows) {
        try {
            for (ObjectNode r : recordRows) {
                line(records, r);
            }
            for (ObjectNode r : seedRows) {
                line(seed, r);
            }
            records.flush();
            seed.flush();
            line(trees, tree);
            trees.flush();
            done.add(tree.path("id").asText());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the rollout's files: " + e.getMessage(), e);
        }
    }

    private static void line(BufferedWriter w, JsonNode row) throws IOException {
        w.write(JsonlRows.JSON.writeValueAsString(row));
        w.write('\n');
    }

    private static BufferedWriter append(Path f) throws IOException {
        return Files.newBufferedWriter(f, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    /** A kill mid-write leaves a line without its newline: drop it (its question is redone). */
    private static void cutTornLine(Path f) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            long end = raf.length();
            long keep = end;
            while (keep > 0) {
                raf.seek(keep - 1);
                if (raf.read() == '\n') {
                    break;
                }
                keep--;
            }
            if (keep < end) {
                raf.setLength(keep);
            }
        }
    }

    /** Rewrites the file without rows of questions not in {@code done} (and without a torn last line). */
    private static void keepDone(Path f, Set<String> done) throws IOException {
        if (!Files.exists(f)) {
            return;
        }
        cutTornLine(f);
        List<JsonNode> keep = new ArrayList<>();
        boolean[] dropped = {false};
        JsonlRows.forEach(f, (line, row) -> {
            if (done.contains(row.path("question_id").asText())) {
                keep.add(row);
            } else {
                dropped[0] = true;
            }
        });
        if (!dropped[0]) {
            return;
        }
        try (AtomicJsonlWriter w = new AtomicJsonlWriter(f)) {
            keep.forEach(w::write);
            w.commit();
        }
    }

    @Override
    public synchronized void close() {
        try {
            trees.close();
            records.close();
            seed.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close the rollout's files: " + e.getMessage(), e);
        }
    }
}
