package dev.veracity.eval.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.text.Unicode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code results.jsonl}: one line per finished question, appended whole. A run killed at any moment (SIGKILL)
 * leaves at most a partial last line: opening the file cuts it off, so the question is done again and never
 * written twice. Each line goes out in one write of one buffer, which a killed process either made or did not.
 *
 * <p>Lines are written as well-formed Unicode ({@link Unicode#repair}): a dataset string can hold a lone surrogate
 * (Jackson decodes a JSON {@code "\ud800"} escape into one), which UTF-8 encoding would silently turn into
 * {@code ?}. Repaired, the file holds U+FFFD, the same text the cache and traces hold for model outputs, and
 * {@link #lines()} returns what the file says.
 */
public final class ResultsFile implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path file;
    private final FileChannel channel;
    private final Set<String> done = Collections.synchronizedSet(new LinkedHashSet<>());
    private final List<JsonNode> lines = Collections.synchronizedList(new ArrayList<>());
    /** Questions whose last record is a failure ({@code "failed": reason}) and that no later line answered. */
    private final java.util.Map<String, JsonNode> failed = Collections.synchronizedMap(new java.util.LinkedHashMap<>());
    private final long truncatedBytes;

    private ResultsFile(Path file) throws IOException {
        this.file = file;
        long keep = 0;
        if (Files.exists(file)) {
            byte[] bytes = Files.readAllBytes(file);
            int end = bytes.length;
            while (end > 0 && bytes[end - 1] != '\n') {
                end--;
            }
            keep = end;
            String text = new String(bytes, 0, end, StandardCharsets.UTF_8);
            int lineNo = 0;
            for (String line : text.split("\n")) {
                lineNo++;
                if (line.isBlank()) {
                    continue;
                }
                JsonNode node;
                try {
                    node = JSON.readTree(line);
                } catch (IOException e) {
                    throw new IllegalStateException(file + ":" + lineNo + ": not a JSON line (" + e.getMessage()
                            + "); the results file was edited or is not Veracity's. Move it away to start over.");
                }
                String id = node.path("id").asText(null);
                if (id == null) {
                    throw new IllegalStateException(file + ":" + lineNo + ": result line without an \"id\"");
                }
                if (node.has(FAILED)) {
                    if (!done.contains(id)) {
                        failed.put(id, node); // not done: the next run asks again
                    }
                } else if (done.add(id)) {
                    failed.remove(id);
                    lines.add(node);
                }
            }
        }
        this.truncatedBytes = Files.exists(file) ? Files.size(file) - keep : 0;
        Files.createDirectories(file.toAbsolutePath().getParent());
        this.channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        channel.truncate(keep);
        channel.position(keep);
    }

    /** Opens the file, creating it, and drops a partial last line left by a killed run. */
    public static ResultsFile open(Path file) {
        try {
            return new ResultsFile(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open results file " + file + ": " + e.getMessage(), e);
        }
    }

    public Path file() {
        return file;
    }

    /** Bytes of a partial last line that opening cut off (0 after a clean stop). */
    public long truncatedBytes() {
        return truncatedBytes;
    }

    public boolean isDone(String id) {
        return done.contains(id);
    }

    public int size() {
        return done.size();
    }

    /** The field of a failure record: the reason the question failed after all retries. */
    public static final String FAILED = "failed";

    /** The answered questions' lines, in file order (failure records are not among them). */
    public List<JsonNode> lines() {
        synchronized (lines) {
            return List.copyOf(lines);
        }
    }

    /**
     * Appends a result, unless its question is already in the file.
     *
     * @return false when the id was already done
     */
    public synchronized boolean append(ObjectNode result) {
        String id = result.path("id").asText();
        if (!done.add(id)) {
            return false;
        }
        try {
            JsonNode written = write(result);
            lines.add(written);
            failed.remove(id);
            return true;
        } catch (IOException e) {
            done.remove(id);
            throw new UncheckedIOException("cannot append to " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Records that a question failed after all retries (a line with {@code "failed": reason}); the question stays
     * undone, so the next run with the same command asks it again, and an answer then supersedes the record.
     */
    public synchronized void appendFailure(String id, String question, String reason) {
        if (done.contains(id)) {
            return;
        }
        ObjectNode o = JSON.createObjectNode();
        o.put("id", id);
        o.put("question", question);
        o.put(FAILED, reason == null ? "unknown failure" : reason);
        try {
            failed.put(id, write(o));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to " + file + ": " + e.getMessage(), e);
        }
    }

    /** Failure records of questions no line has answered since, in file order. */
    public List<JsonNode> failures() {
        synchronized (failed) {
            return List.copyOf(failed.values());
        }
    }

    private JsonNode write(ObjectNode result) throws IOException {
        String raw = JSON.writeValueAsString(result);
        String line = Unicode.repair(raw);
        ByteBuffer buf = ByteBuffer.wrap((line + "\n").getBytes(StandardCharsets.UTF_8));
        while (buf.hasRemaining()) {
            channel.write(buf);
        }
        return line == raw ? result : JSON.readTree(line); // same instance: nothing was repaired
    }

    @Override
    public synchronized void close() {
        try {
            channel.force(true);
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException("closing " + file + ": " + e.getMessage(), e);
        }
    }
}
