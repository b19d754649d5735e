package dev.veracity.eval.run;

import dev.veracity.eval.results.ResultLine;
import dev.veracity.eval.results.ResultsJson;
import dev.veracity.eval.results.Summary;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What a run folder holds, checked line by line against the questions it was asked: each answered exactly once or
 * recorded failed with a reason, every line a result line with an id (read through {@link ResultLine}, as every reader
 * reads it), and {@code summary.json} ({@link Summary}) agreeing with the lines. {@code bench soak} reads a folder this
 * way after killing and resuming its run.
 *
 * @param answered    questions with an answer line
 * @param failed      questions without an answer whose last record is a failure, by {@code failed_kind}
 * @param missing     questions with no record at all
 * @param duplicates  answer lines beyond the first for a question (must be 0)
 * @param badLines    lines that are not a result line with an id, or of a newer schema (must be 0)
 * @param tornTail    whether the file ends without a newline (a partial line the next run would cut)
 * @param unexpected  ids in the file that are not among the questions
 * @param problems    one line each: what disagrees (the summary included); empty when the folder is sound
 */
public record RunAudit(int answered, Map<String, Integer> failed, int missing, int duplicates, int badLines,
                       boolean tornTail, int unexpected, List<String> problems) {

    public RunAudit {
        failed = java.util.Collections.unmodifiableMap(new TreeMap<>(failed));
        problems = List.copyOf(problems);
    }

    public int failedTotal() {
        return failed.values().stream().mapToInt(Integer::intValue).sum();
    }

    public boolean sound() {
        return problems.isEmpty();
    }

    /** Audits {@code dir}'s results.jsonl and summary.json against the ids of the questions asked. */
    public static RunAudit of(Path dir, List<String> ids) {
        Path file = dir.resolve("results.jsonl");
        Map<String, Integer> answers = new HashMap<>();
        Map<String, ResultLine> last = new HashMap<>();
        int bad = 0;
        boolean torn = false;
        List<String> problems = new ArrayList<>();
        if (Files.exists(file)) {
            try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                int n = 0;
                for (String text; (text = in.readLine()) != null; ) {
                    n++;
                    if (text.isBlank()) {
                        continue;
                    }
                    String where = "results.jsonl:" + n;
                    ResultLine line;
                    try {
                        line = ResultsJson.line(text, where);
                    } catch (ResultsJson.MalformedLine e) {
                        bad++;
                        problems.add(where + " is not a result line (" + e.getMessage() + ")");
                        continue;
                    } catch (IllegalArgumentException e) { // a newer schema: this build cannot vouch for it
                        bad++;
                        problems.add(e.getMessage());
                        continue;
                    }
                    if (line.id() == null) {
                        bad++;
                        problems.add(where + " is a result line without an id");
                        continue;
                    }
                    if (!line.isFailure()) {
                        answers.merge(line.id(), 1, Integer::sum);
                    }
                    last.put(line.id(), line);
                }
                torn = Files.size(file) > 0 && lastByte(file) != '\n';
            } catch (IOException e) {
                throw new UncheckedIOException("reading " + file + ": " + e.getMessage(), e);
            }
        }
        Set<String> asked = new HashSet<>(ids);
        int duplicates = answers.values().stream().mapToInt(c -> c - 1).sum();
        if (duplicates > 0) {
            problems.add(duplicates + " duplicate answer lines");
        }
        Map<String, Integer> failed = new TreeMap<>();
        int missing = 0;
        for (String id : asked) {
            if (answers.containsKey(id)) {
                continue;
            }
            ResultLine rec = last.get(id);
            if (rec == null) {
                missing++;
            } else if (rec.failed().isBlank()) {
                problems.add(id + ": a failure record without a reason");
            } else {
                failed.merge(rec.failedKind() == null ? "UNKNOWN" : rec.failedKind(), 1, Integer::sum);
            }
        }
        if (missing > 0) {
            problems.add(missing + " questions with neither an answer nor a failure record");
        }
        int unexpected = (int) last.keySet().stream().filter(id -> !asked.contains(id)).count();
        if (unexpected > 0) {
            problems.add(unexpected + " ids in results.jsonl that are not among the questions");
        }
        int answered = (int) answers.keySet().stream().filter(asked::contains).count();
        int failedTotal = failed.values().stream().mapToInt(Integer::intValue).sum();
        Path summaryFile = dir.resolve("summary.json");
        if (!Files.exists(summaryFile)) {
            problems.add("no summary.json");
        } else {
            try {
                Summary s = ResultsJson.summary(summaryFile);
                if (s.n() == null || s.n() != answers.size()) {
                    problems.add("summary n " + s.n() + " but " + answers.size() + " answered lines");
                }
                if (s.failed() == null || s.failed() != failedTotal) {
                    problems.add("summary failed " + s.failed() + " but " + failedTotal + " failed questions");
                }
            } catch (IllegalArgumentException | UncheckedIOException e) {
                problems.add(e.getMessage().lines().findFirst().orElse("summary.json cannot be read"));
            }
        }
        return new RunAudit(answered, failed, missing, duplicates, bad, torn, unexpected, problems);
    }

    private static int lastByte(Path file) throws IOException {
        try (var ch = java.nio.channels.FileChannel.open(file)) {
            java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(1);
            ch.read(b, ch.size() - 1);
            return b.get(0);
        }
    }
}
