package dev.veracity.eval.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import dev.veracity.eval.run.ResultsFile;

/**
 * One evaluation run directory as the report reads it: {@code summary.json} (only {@code method} and
 * {@code metrics} required), {@code results.jsonl} (unparseable lines, such as a line cut off when the run was
 * killed, are skipped and counted) and the path of {@code traces.db} (which may be absent).
 *
 * @param dir            the run directory
 * @param summary        the summary object
 * @param metrics        the run's metrics in file order
 * @param results        the parsed result lines of answered questions in file order
 * @param skippedLines   result lines that could not be parsed
 * @param traces         where the trace store should be
 * @param failed         questions whose last record is a failure ({@code "failed": reason}), not answered since
 */
public record RunDir(Path dir, JsonNode summary, Map<String, Double> metrics, List<JsonNode> results,
                     int skippedLines, Path traces, List<JsonNode> failed) {

    private static final ObjectMapper JSON = new ObjectMapper();

    public RunDir {
        metrics = Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
        results = List.copyOf(results);
        failed = failed == null ? List.of() : List.copyOf(failed);
    }

    /** Reads a run directory. Fails when {@code summary.json} is missing, unreadable or lacks method or metrics. */
    public static RunDir load(Path dir) {
        Path summaryFile = dir.resolve("summary.json");
        JsonNode summary;
        try {
            summary = JSON.readTree(summaryFile.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + summaryFile + ": " + e.getMessage(), e);
        }
        if (summary == null || !summary.isObject() || !summary.path("method").isTextual()
                || !summary.path("metrics").isObject()) {
            throw new IllegalArgumentException(summaryFile + ": needs a \"method\" string and a \"metrics\" object");
        }
        Map<String, Double> metrics = new LinkedHashMap<>();
        summary.get("metrics").properties().forEach(e -> {
            if (e.getValue().isNumber()) {
                metrics.put(e.getKey(), e.getValue().asDouble());
            }
        });
        List<JsonNode> results = new ArrayList<>();
        java.util.Map<String, JsonNode> failed = new java.util.LinkedHashMap<>();
        int skipped = 0;
        Path resultsFile = dir.resolve("results.jsonl");
        if (Files.isRegularFile(resultsFile)) {
            try (BufferedReader in = Files.newBufferedReader(resultsFile, StandardCharsets.UTF_8)) {
                String line;
                while ((line = in.readLine()) != null) {
                    if (line.isBlank()) {
                        continue;
                    }
                    try {
                        JsonNode node = JSON.readTree(line);
                        if (node != null && node.isObject() && node.has(ResultsFile.FAILED)) {
                            failed.put(node.path("id").asText(), node);
                        } else if (node != null && node.isObject()) {
                            failed.remove(node.path("id").asText());
                            results.add(node);
                        } else {
                            skipped++;
                        }
                    } catch (IOException e) {
                        skipped++;
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("reading " + resultsFile + ": " + e.getMessage(), e);
            }
        }
        return new RunDir(dir, summary, metrics, results, skipped, dir.resolve("traces.db"), List.copyOf(failed.values()));
    }

    public String method() {
        return summary.path("method").asText();
    }

    /** The run folder's name, as tables and reports call the run (the method when the folder has none, e.g. "/"). */
    public String name() {
        Path name = dir.toAbsolutePath().normalize().getFileName();
        return name == null ? method() : name.toString();
    }

    /** A text field of the summary, or "" when absent. */
    public String text(String field) {
        JsonNode v = summary.get(field);
        return v == null || v.isNull() ? "" : v.asText();
    }

    /** A number field of the summary, if present. */
    public OptionalDouble number(String field) {
        JsonNode v = summary.get(field);
        return v != null && v.isNumber() ? OptionalDouble.of(v.asDouble()) : OptionalDouble.empty();
    }

    /**
     * The same run restricted to the answered questions whose result line has {@code field} = {@code value} (CRAG's
     * {@code question_type}): the summary keeps the run's identity and metric names, and every count and
     * per-question figure is recomputed from those lines.
     */
    public RunDir subset(String field, String value) {
        List<JsonNode> lines = results.stream().filter(r -> value.equals(r.path(field).asText(null))).toList();
        com.fasterxml.jackson.databind.node.ObjectNode s = JSON.createObjectNode();
        for (String keep : List.of("method", "dataset", "data", "model", "llm_base_url", "metrics_n")) {
            if (summary.has(keep)) {
                s.set(keep, summary.get(keep));
            }
        }
        s.set("metrics", summary.path("metrics"));
        s.put("n", lines.size());
        return new RunDir(dir, s, metrics, lines, 0, traces, List.of());
    }

    /** The question count: the summary's {@code n}, else the parsed results. */
    public int n() {
        OptionalDouble n = number("n");
        return n.isPresent() ? (int) n.getAsDouble() : results.size();
    }

    /** The main metric: the first in the summary, or "" when there is none. */
    public String mainMetric() {
        return metrics.isEmpty() ? "" : metrics.keySet().iterator().next();
    }

    /** A per-question figure: the summary's field, else the mean of {@code resultField} over the results. */
    public OptionalDouble perQuestion(String summaryField, String... resultFields) {
        OptionalDouble v = number(summaryField);
        if (v.isPresent() || results.isEmpty()) {
            return v;
        }
        double sum = 0;
        int count = 0;
        for (JsonNode r : results) {
            boolean any = false;
            double x = 0;
            for (String f : resultFields) {
                if (r.path(f).isNumber()) {
                    x += r.get(f).asDouble();
                    any = true;
                }
            }
            if (any) {
                sum += x;
                count++;
            }
        }
        return count == 0 ? OptionalDouble.empty() : OptionalDouble.of(sum / count);
    }

    /** Parse failures: the summary's count, else the sum over the results. */
    public int parseFailures() {
        OptionalDouble v = number("parse_failures");
        if (v.isPresent()) {
            return (int) v.getAsDouble();
        }
        int n = 0;
        for (JsonNode r : results) {
            JsonNode p = r.path("parse_failures");
            n += p.isArray() ? p.size() : p.isNumber() ? p.asInt() : 0;
        }
        return n;
    }

    /** Errors: the summary's count, else the results with an error. */
    public int errors() {
        OptionalDouble v = number("errors");
        if (v.isPresent()) {
            return (int) v.getAsDouble();
        }
        int n = 0;
        for (JsonNode r : results) {
            JsonNode e = r.get("error");
            n += e != null && !e.isNull() ? 1 : 0;
        }
        return n;
    }
}
