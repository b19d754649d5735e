package dev.veracity.eval.run;

import dev.veracity.eval.results.ResultLine;
import dev.veracity.eval.results.ResultsJson;
import dev.veracity.text.Unicode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * {@code results.jsonl}: one line per finished question, appended whole ({@link JsonlAppender}). A run killed at any
 * moment (SIGKILL) leaves at most a partial last line: opening the file cuts it off, so the question is done again
 * and never written twice.
 *
 * <p>Constant memory in the number of questions, apart from the resume index (the answered ids): the lines stay in
 * the file and {@link #answered()} streams them, so a run of 100,000 questions holds no more than a run of 100.
 *
 * <p>Lines are written as well-formed Unicode ({@link Unicode#repair}): a dataset string can hold a lone surrogate
 * (Jackson decodes a JSON {@code "\ud800"} escape into one), which UTF-8 encoding would silently turn into
 * {@code ?}. Repaired, the file holds U+FFFD, the same text the cache and traces hold for model outputs, and
 * {@link #answered()} returns what the file says.
 */
public final class ResultsFile implements AutoCloseable {

    private final Path file;
    private final JsonlAppender out;
    /** The answered questions' ids: what a resumed run skips. */
    private final Set<String> done = ConcurrentHashMap.newKeySet();
    /** Questions whose last record is a failure ({@code "failed": reason}) and that no later line answered. */
    private final Map<String, ResultLine> failed = Collections.synchronizedMap(new LinkedHashMap<>());
    /** Line numbers of answers that repeat an earlier answer's id (only in a file joined by hand): not streamed. */
    private final Set<Long> repeats = new HashSet<>();

    private ResultsFile(Path file) {
        this.file = file;
        this.out = JsonlAppender.open(file);
        long[] lineNo = {0};
        read(line -> {
            lineNo[0]++;
            if (line.isBlank()) {
                return;
            }
            ResultLine node;
            try {
                node = ResultsJson.line(line, file + ":" + lineNo[0]);
            } catch (ResultsJson.MalformedLine e) {
                throw new IllegalStateException(file + ":" + lineNo[0] + ": not a result line (" + e.getMessage()
                        + "); the results file was edited or is not Veracity's. Move it away to start over.");
            }
            String id = node.id();
            if (id == null) {
                throw new IllegalStateException(file + ":" + lineNo[0] + ": result line without an \"id\"");
            }
            if (node.isFailure()) {
                if (!done.contains(id)) {
                    failed.put(id, node); // not done: the next run asks again
                }
            } else if (done.add(id)) {
                failed.remove(id);
            } else {
                repeats.add(lineNo[0]);
            }
        });
    }

    /** Every line of the file as it is now, in order, one in memory at a time. */
    private void read(Consumer<String> each) {
        try (BufferedReader in = reader()) {
            for (String line; (line = in.readLine()) != null; ) {
                each.accept(line);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /** A reader of its own, so that reading never moves the append position; malformed UTF-8 reads as U+FFFD. */
    private BufferedReader reader() {
        try {
            return new BufferedReader(new InputStreamReader(Files.newInputStream(file), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /** Opens the file, creating it, and drops a partial last line left by a killed run. */
    public static ResultsFile open(Path file) {
        return new ResultsFile(file);
    }

    public Path file() {
        return file;
    }

    /** Bytes of a partial last line that opening cut off (0 after a clean stop). */
    public long truncatedBytes() {
        return out.truncatedBytes();
    }

    public boolean isDone(String id) {
        return done.contains(id);
    }

    /** Answered questions. */
    public int size() {
        return done.size();
    }

    /** The field of a failure record: the reason the question failed after all retries. */
    public static final String FAILED = "failed";

    /** The field of a failure record naming the kind of error (an {@code ErrorKind}, or the exception's class). */
    public static final String FAILED_KIND = "failed_kind";

    /**
     * The answered questions' lines, in file order (failure records are not among them), read from the file as it
     * is when iterated: one line in memory at a time. {@code forEach} closes the file when done; an iterator
     * closes it once exhausted (one left half-way holds a file handle until collected).
     */
    public Iterable<ResultLine> answered() {
        return new Iterable<>() {
            @Override
            public void forEach(Consumer<? super ResultLine> action) {
                long[] lineNo = {0};
                read(line -> {
                    ResultLine n = answer(++lineNo[0], line);
                    if (n != null) {
                        action.accept(n);
                    }
                });
            }

            @Override
            public Iterator<ResultLine> iterator() {
                BufferedReader in = reader();
                return new Iterator<>() {
                    private ResultLine next;
                    private long lineNo;
                    private boolean ended;

                    @Override
                    public boolean hasNext() {
                        try {
                            while (next == null && !ended) {
                                String line = in.readLine();
                                if (line == null) {
                                    ended = true;
                                    in.close();
                                } else {
                                    next = answer(++lineNo, line);
                                }
                            }
                        } catch (IOException e) {
                            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
                        }
                        return next != null;
                    }

                    @Override
                    public ResultLine next() {
                        if (!hasNext()) {
                            throw new NoSuchElementException();
                        }
                        ResultLine n = next;
                        next = null;
                        return n;
                    }
                };
            }
        };
    }

    private ResultLine answer(long lineNo, String line) {
        if (line.isBlank() || repeats.contains(lineNo)) {
            return null;
        }
        try {
            ResultLine n = ResultsJson.line(line, file + ":" + lineNo);
            return n.isFailure() ? null : n;
        } catch (ResultsJson.MalformedLine e) {
            throw new IllegalStateException(file + ":" + lineNo + ": not a result line (" + e.getMessage() + ")");
        }
    }

    /**
     * Appends a result, unless its question is already in the file.
     *
     * @return false when the id was already done
     */
    public synchronized boolean append(ResultLine result) {
        String id = result.id();
        if (!done.add(id)) {
            return false;
        }
        try {
            write(result);
            failed.remove(id);
            return true;
        } catch (RuntimeException e) {
            done.remove(id);
            throw e;
        }
    }

    /**
     * Records that the question at {@code position} among the run's (null: not known) failed after all retries (a
     * line with {@code "failed": reason} and {@code "failed_kind"}); the question stays undone, so the next run with the same command asks it again, and an
     * answer then supersedes the record.
     */
    public synchronized void appendFailure(String id, Integer position, String question, String kind, String reason) {
        if (done.contains(id)) {
            return;
        }
        failed.put(id, write(ResultLine.failure(id, position, question,
                reason == null || reason.isBlank() ? "unknown failure" : oneLine(reason),
                kind == null || kind.isBlank() ? "UNKNOWN" : kind)));
    }

    /** Failure records of questions no line has answered since, in file order. */
    public List<ResultLine> failures() {
        synchronized (failed) {
            return List.copyOf(failed.values());
        }
    }

    /** Whether the question's last record is a failure. */
    public boolean isFailed(String id) {
        return failed.containsKey(id);
    }

    /** A reason on one line: an exception message can carry a parser's location or a stack on further lines. */
    static String oneLine(String s) {
        return s.strip().replaceAll("\\s*\\R\\s*", " ");
    }

    private ResultLine write(ResultLine result) {
        String raw = ResultsJson.lineText(result);
        String line = Unicode.repair(raw);
        out.append(line + "\n");
        try {
            return line == raw ? result : ResultsJson.line(line, file); // same instance: nothing was repaired
        } catch (ResultsJson.MalformedLine e) {
            throw new IllegalStateException("a repaired result line of " + file + " does not read back: " + e.getMessage());
        }
    }

    @Override
    public synchronized void close() {
        out.close();
    }
}
