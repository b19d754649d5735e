package dev.veracity.eval.metrics;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Scores a JSONL prediction file. Each non-blank input line is an object
 * {@code {"id": string|number, "prediction": string, "gold": [string...], "wrong": [string...]}}
 * ({@code wrong} optional, other fields ignored; a null prediction reads as empty, numbers and booleans as their
 * text). One {@code {"id", "score", ...per-item fields}} line is written per input line, in input order. The whole
 * input is validated before anything is written, and the output is written to a temporary file and then moved in
 * place, so a failed run leaves no partial output.
 */
public final class ScoreFile {

    private static final ObjectMapper MAPPER =
            new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private ScoreFile() {}

    /**
     * CLI entry point: scores {@code input} with the metric named {@code metricName} and writes {@code output}.
     *
     * @return the aggregate as {@code {"metric", "n", "mean", ...extras}}
     * @throws ScoreFileException for an unknown metric (listing the valid names), an unreadable or malformed input
     *                            ({@code file:line: what is wrong}) or an unwritable output
     */
    public static ObjectNode score(Path input, Path output, String metricName) {
        Metric metric;
        try {
            metric = Metrics.byName(metricName);
        } catch (IllegalArgumentException e) {
            throw new ScoreFileException(e.getMessage());
        }
        return toJson(score(input, output, metric));
    }

    /** Scores {@code input} with {@code metric}, writes {@code output}, returns the aggregate. */
    public static Aggregate score(Path input, Path output, Metric metric) {
        List<Item> items = read(input);
        List<ItemScore> scores = new ArrayList<>(items.size());
        for (Item it : items) scores.add(metric.score(it.prediction, it.gold, it.wrong));
        write(output, items, scores);
        return metric.aggregate(scores);
    }

    /** The aggregate as a JSON object: metric, n, mean, then the metric's extras. */
    public static ObjectNode toJson(Aggregate a) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("metric", a.metric());
        o.put("n", a.n());
        o.put("mean", a.mean());
        a.extras().forEach((k, v) -> putValue(o, k, v));
        return o;
    }

    private record Item(JsonNode id, String prediction, List<String> gold, List<String> wrong) {}

    private static List<Item> read(Path input) {
        List<Item> items = new ArrayList<>();
        try (BufferedReader r = Files.newBufferedReader(input, StandardCharsets.UTF_8)) {
            String line;
            int lineNo = 0;
            while ((line = r.readLine()) != null) {
                lineNo++;
                if (lineNo == 1 && line.startsWith("\uFEFF")) line = line.substring(1);
                if (line.isBlank()) continue;
                items.add(parse(input, lineNo, line));
            }
        } catch (CharacterCodingException e) {
            throw new ScoreFileException(input + ": not valid UTF-8", e);
        } catch (IOException e) {
            throw new ScoreFileException(input + ": cannot read (" + e.getClass().getSimpleName() + ": "
                    + e.getMessage() + ")", e);
        }
        return items;
    }

    private static Item parse(Path file, int lineNo, String line) {
        JsonNode node;
        try {
            node = MAPPER.readTree(line);
        } catch (JacksonException e) {
            throw error(file, lineNo, "invalid JSON (" + e.getOriginalMessage() + ")");
        }
        if (node == null || !node.isObject()) throw error(file, lineNo, "expected a JSON object");
        JsonNode id = node.get("id");
        if (id == null || !(id.isTextual() || id.isNumber())) {
            throw error(file, lineNo, id == null ? "missing \"id\"" : "\"id\" is not a string or number");
        }
        JsonNode pred = node.get("prediction");
        if (pred == null) throw error(file, lineNo, "missing \"prediction\"");
        if (pred.isContainerNode()) throw error(file, lineNo, "\"prediction\" is not a string");
        JsonNode gold = node.get("gold");
        if (gold == null) throw error(file, lineNo, "missing \"gold\"");
        List<String> golds = stringList(file, lineNo, "gold", gold);
        JsonNode wrong = node.get("wrong");
        List<String> wrongs = wrong == null || wrong.isNull() ? List.of() : stringList(file, lineNo, "wrong", wrong);
        return new Item(id, pred.isNull() ? "" : pred.asText(), golds, wrongs);
    }

    private static List<String> stringList(Path file, int lineNo, String field, JsonNode n) {
        if (!n.isArray()) throw error(file, lineNo, "\"" + field + "\" is not a list");
        List<String> out = new ArrayList<>(n.size());
        for (JsonNode e : n) {
            if (e.isContainerNode()) throw error(file, lineNo, "\"" + field + "\" has an element that is not a string");
            out.add(e.isNull() ? "" : e.asText());
        }
        return out;
    }

    private static void write(Path output, List<Item> items, List<ItemScore> scores) {
        Path abs = output.toAbsolutePath();
        Path tmp = null;
        try {
            if (abs.getParent() != null) Files.createDirectories(abs.getParent());
            tmp = Files.createTempFile(abs.getParent(), abs.getFileName().toString(), ".tmp");
            try (BufferedWriter w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                for (int i = 0; i < items.size(); i++) {
                    ObjectNode o = MAPPER.createObjectNode();
                    o.set("id", items.get(i).id);
                    o.put("score", scores.get(i).score());
                    for (Map.Entry<String, Object> f : scores.get(i).fields().entrySet()) putValue(o, f.getKey(), f.getValue());
                    w.write(MAPPER.writeValueAsString(o));
                    w.write('\n');
                }
            }
            Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // best effort
                }
            }
            throw new ScoreFileException(output + ": cannot write (" + e.getClass().getSimpleName() + ": "
                    + e.getMessage() + ")", e);
        }
    }

    private static void putValue(ObjectNode o, String key, Object v) {
        switch (v) {
            case Integer i -> o.put(key, i);
            case Long l -> o.put(key, l);
            case Number n -> o.put(key, n.doubleValue());
            case Boolean b -> o.put(key, b);
            case null -> o.putNull(key);
            default -> o.put(key, v.toString());
        }
    }

    private static ScoreFileException error(Path file, int lineNo, String what) {
        return new ScoreFileException(file + ":" + lineNo + ": " + what);
    }
}
