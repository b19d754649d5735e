package dev.veracity.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.eval.metrics.ScoreFile;
import dev.veracity.eval.metrics.ScoreFileException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ./veracity score}: a benchmark metric over a file of predictions, as the official scripts score it. */
@Command(name = "score", mixinStandardHelpOptions = true,
        description = "Score {\"id\", \"prediction\", \"gold\": [...]} lines (\"wrong\": [...] for strict-multi);"
                + " writes one {\"id\", \"score\"} line per input and prints the aggregate as JSON. With several"
                + " metrics (--metric f1,em) each line holds every metric's score under its name and the aggregates"
                + " are printed as one JSON object by metric.")
final class ScoreCommand implements Callable<Integer> {

    @Option(names = "--metric", required = true, split = ",", paramLabel = "NAME",
            description = "One or more (comma-separated): em, f1, nq-em, triviaqa-em, triviaqa-f1, musique-em, musique-f1, substring, fever-acc,"
                    + " strict-multi, truthfulness")
    List<String> metrics;

    @Option(names = "--input", required = true, paramLabel = "FILE", description = "Predictions, JSON lines.")
    Path input;

    @Option(names = "--out", required = true, paramLabel = "FILE", description = "Per-item scores, JSON lines.")
    Path out;

    @Override
    public Integer call() throws Exception {
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        if (metrics.size() == 1) {
            System.out.println(json.writeValueAsString(score(input, out, metrics.getFirst())));
            return 0;
        }
        ObjectNode aggregates = json.createObjectNode();
        List<List<JsonNode>> perMetric = new ArrayList<>();
        Path dir = Files.createTempDirectory("veracity-score");
        try {
            for (String m : metrics) {
                Path part = dir.resolve(perMetric.size() + ".jsonl");
                aggregates.set(m, score(input, part, m));
                List<JsonNode> lines = new ArrayList<>();
                for (String line : Files.readAllLines(part, StandardCharsets.UTF_8)) {
                    lines.add(json.readTree(line));
                }
                perMetric.add(lines);
            }
            writeMerged(perMetric, json);
        } finally {
            try (var files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    Files.deleteIfExists(f);
                }
            }
            Files.deleteIfExists(dir);
        }
        System.out.println(json.writeValueAsString(aggregates));
        return 0;
    }

    /** One line per item: its id, each metric's score under the metric's name, its other fields as metric.field. */
    private void writeMerged(List<List<JsonNode>> perMetric, ObjectMapper json) throws java.io.IOException {
        Path abs = out.toAbsolutePath();
        if (abs.getParent() != null) {
            Files.createDirectories(abs.getParent());
        }
        try (BufferedWriter w = Files.newBufferedWriter(abs, StandardCharsets.UTF_8)) {
            for (int i = 0; i < perMetric.getFirst().size(); i++) {
                ObjectNode o = json.createObjectNode();
                o.set("id", perMetric.getFirst().get(i).get("id"));
                for (int m = 0; m < metrics.size(); m++) {
                    Iterator<Map.Entry<String, JsonNode>> fields = perMetric.get(m).get(i).fields();
                    while (fields.hasNext()) {
                        Map.Entry<String, JsonNode> f = fields.next();
                        if (f.getKey().equals("score")) {
                            o.set(metrics.get(m), f.getValue());
                        } else if (!f.getKey().equals("id")) {
                            o.set(metrics.get(m) + "." + f.getKey(), f.getValue());
                        }
                    }
                }
                w.write(json.copy().disable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(o));
                w.write('\n');
            }
        }
    }

    private static ObjectNode score(Path in, Path to, String metric) {
        try {
            return ScoreFile.score(in, to, metric.strip());
        } catch (ScoreFileException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }
}
