package dev.veracity.eval.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
 * recorded failed with a reason, every line a JSON object with an id, and {@code summary.json} agreeing with the lines.
 * {@code bench soak} reads a folder this way after killing and resuming its run.
 *
 * @param answered    questions with an answer line
 * @param failed      questions without an answer whose last record is a failure, by {@code failed_kind}
 * @param missing     questions with no record at all
 * @param duplicates  answer lines beyond the first for a question (must be 0)
 * @param badLines    lines that are not a JSON object with an id (must be 0)
 * @param tornTail    whether the file ends without a newline (a partial line the next run would cut)
 * @param unexpected  ids in the file that are not among the questions
 * @param problems    one line each: what disagrees (the summary included); empty when the folder is sound
 */
public record RunAudit(int answered, Map<String, Integer> failed, int missing, int duplicates, int badLines,
                       boolean tornTail, int unexpected, List<String> problems) {

    private static final ObjectMapper JSON = new ObjectMapper();

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
        Map<String, JsonNode> last = new HashMap<>();
        int bad = 0;
        boolean torn = false;
        List<String> problems = new ArrayList<>();
        if (Files.exists(file)) {
            try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                int n = 0;
                for (String line; (line = in.readLine()) != null; ) {
                    n++;
                    if (line.isBlank()) {
                        continue;
                    }
                    JsonNode node;
                    try {
                        node = JSON.readTree(line);
                    } catch (IOException e) {
                        node = null;
                    }
                    if (node == null || !node.isObject() || !node.path("id").isTextual()) {
                        bad++;
                        problems.add("results.jsonl:" + n + " is not a JSON object with an id");
                        continue;
                    }
                    String id = node.get("id").asText();
                    if (!node.has(ResultsFile.FAILED)) {
                        answers.merge(id, 1, Integer::sum);
                    }
                    last.put(id, node);
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
            JsonNode rec = last.get(id);
            if (rec == null) {
                missing++;
            } else if (rec.path(ResultsFile.FAILED).asText("").isBlank()) {
                problems.add(id + ": a failure record without a reason");
            } else {
                failed.merge(rec.path(ResultsFile.FAILED_KIND).asText("UNKNOWN"), 1, Integer::sum);
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
        try {
            JsonNode s = Files.exists(summaryFile) ? JSON.readTree(summaryFile.toFile()) : null;
            if (s == null) {
                problems.add("no summary.json");
            } else {
                if (s.path("n").asInt(-1) != answers.size()) {
                    problems.add("summary n " + s.path("n").asText() + " but " + answers.size() + " answered lines");
                }
                if (s.path("failed").asInt(-1) != failedTotal) {
                    problems.add("summary failed " + s.path("failed").asText() + " but " + failedTotal + " failed questions");
                }
            }
        } catch (IOException e) {
            problems.add("summary.json is not JSON: " + e.getMessage().lines().findFirst().orElse(""));
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
