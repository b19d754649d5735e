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
 * A rollout's output folder, appended one question at a time: companion files of rows carrying
 * {@code question_id} (C-3PO's {@code records.jsonl} and {@code seed.jsonl}; an online rollout's records and rewards)
 * and, last, a commit file whose line (with the question's {@code id}) marks the question done ({@code trees.jsonl}
 * for C-3PO). Opening the folder again resumes: a torn last line of the commit file is cut off, and companion rows of
 * questions without a commit line (a kill between the files) are removed, so a rerun writes every question exactly
 * once.
 */
public final class RolloutFiles implements AutoCloseable {

    public static final String TREES = "trees.jsonl";
    public static final String RECORDS = "records.jsonl";
    public static final String SEED = "seed.jsonl";

    private final Set<String> done;
    private final BufferedWriter commit;
    private final List<BufferedWriter> companions;

    private RolloutFiles(Set<String> done, BufferedWriter commit, List<BufferedWriter> companions) {
        this.done = done;
        this.commit = commit;
        this.companions = companions;
    }

    /** Opens (creating or resuming) a C-3PO rollout's files: trees, records and seed. */
    public static RolloutFiles open(Path dir) {
        return open(dir, TREES, List.of(RECORDS, SEED));
    }

    /**
     * Opens (creating or resuming) a folder with the given commit file and companion files.
     *
     * @param commit     the file whose line ({@code id}: the question) is written last and marks the question done
     * @param companions the files of the question's other rows (each with {@code question_id}), in write order
     */
    public static RolloutFiles open(Path dir, String commit, List<String> companions) {
        try {
            Files.createDirectories(dir);
            Path commitFile = dir.resolve(commit);
            Set<String> done = new LinkedHashSet<>();
            if (Files.exists(commitFile)) {
                cutTornLine(commitFile);
                JsonlRows.forEach(commitFile, (line, row) -> done.add(row.path("id").asText()));
            }
            List<BufferedWriter> writers = new ArrayList<>();
            for (String c : companions) {
                keepDone(dir.resolve(c), done);
                writers.add(append(dir.resolve(c)));
            }
            return new RolloutFiles(done, append(commitFile), writers);
        } catch (IOException e) {
            throw new UncheckedIOException(dir + ": cannot open the rollout's files: " + e.getMessage(), e);
        }
    }

    /** The ids of the questions whose trees are written. */
    public synchronized Set<String> done() {
        return Set.copyOf(done);
    }

    /** Appends one C-3PO question's rows, the tree line last, and flushes them. */
    public synchronized void write(ObjectNode tree, List<ObjectNode> recordRows, List<ObjectNode> seedRows) {
        write(tree, List.of(recordRows, seedRows));
    }

    /** Appends one question's companion rows (one list per companion file, in order), then its commit line. */
    public synchronized void write(ObjectNode commitLine, List<List<ObjectNode>> rows) {
        if (rows.size() != companions.size()) {
            throw new IllegalArgumentException(rows.size() + " lists of rows for " + companions.size() + " files");
        }
        try {
            for (int i = 0; i < rows.size(); i++) {
                for (ObjectNode r : rows.get(i)) {
                    line(companions.get(i), r);
                }
                companions.get(i).flush();
            }
            line(commit, commitLine);
            commit.flush();
            done.add(commitLine.path("id").asText());
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
            commit.close();
            for (BufferedWriter w : companions) {
                w.close();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close the rollout's files: " + e.getMessage(), e);
        }
    }
}
