package dev.veracity.eval.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.eval.metrics.Metric;
import dev.veracity.eval.run.ResultsFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.function.Consumer;

/**
 * One evaluation run directory as the report reads it: {@code summary.json} (only {@code method} and
 * {@code metrics} required), {@code results.jsonl} and the path of {@code traces.db} (which may be absent).
 *
 * <p>Constant memory in the size of a line: {@code results.jsonl} is read once into a compact table of the answered
 * questions ({@link ResultTable}: ids, scores, figures, flags), never into JSON trees, since a line carries prompts,
 * documents and transcripts. A consumer that needs whole lines streams them again with {@link #forEachResult}.
 *
 * <p>The rules of the file: a line that cannot be parsed (such as a line cut off when the run was killed) is skipped
 * and counted; the rest follow {@code ResultsFile}, which the summary is folded from: of an id answered more than once
 * the first answer counts, a failure record ({@code "failed": reason}) after an answer is ignored, and a question
 * whose failure no later line answered is failed, not answered.
 */
public final class RunDir {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path dir;
    private final JsonNode summary;
    private final Map<String, Double> metrics;
    private final Path traces;
    private final ResultTable table;
    private final int skippedLines;
    /** Failed question ids to the line of their last failure record, in order of first failure. */
    private final Map<String, Integer> failed;

    private RunDir(Path dir, JsonNode summary, Map<String, Double> metrics, ResultTable table, int skippedLines,
                   Map<String, Integer> failed) {
        this.dir = dir;
        this.summary = summary;
        this.metrics = Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
        this.traces = dir.resolve("traces.db");
        this.table = table;
        this.skippedLines = skippedLines;
        this.failed = Collections.unmodifiableMap(failed);
    }

    /**
     * Reads a run directory. A run whose {@code summary.json} is missing, or counts other answers than
     * {@code results.jsonl} holds (an eval interrupted, or resumed and interrupted again), is read as a partial run
     * ({@link #partial()}): its identity from {@code run.json} (or the old summary), its figures from the result lines.
     * Fails when neither file says what the run is, or the summary lacks method or metrics.
     */
    public static RunDir load(Path dir) {
        Path summaryFile = dir.resolve("summary.json");
        Path resultsFile = dir.resolve("results.jsonl");
        JsonNode summary = Files.exists(summaryFile) ? readJson(summaryFile) : null;
        if (summary == null && !Files.isRegularFile(resultsFile)) {
            throw new IllegalArgumentException(dir + " holds no summary.json and no results.jsonl: not an eval run folder");
        }
        JsonNode identity = summary;
        if (summary == null) {
            Path config = dir.resolve(RUN_CONFIG);
            if (!Files.isRegularFile(config)) {
                throw new IllegalArgumentException(dir + " holds results.jsonl but neither summary.json nor " + RUN_CONFIG
                        + ": the run cannot be named; run its eval command again to finish it");
            }
            identity = fromConfig(readJson(config));
        }
        if (identity == null || !identity.isObject() || !identity.path("method").isTextual()
                || !identity.path("metrics").isObject()) {
            throw new IllegalArgumentException((summary == null ? dir.resolve(RUN_CONFIG) : summaryFile)
                    + ": needs a \"method\" string and a \"metrics\" " + (summary == null ? "list" : "object"));
        }
        RunDir run = read(dir, identity);
        if (summary == null) {
            return run.asPartial("no summary.json: its eval was interrupted or is still running");
        }
        JsonNode n = summary.path("n");
        if (Files.isRegularFile(resultsFile) && n.isNumber() && n.asLong() != run.answered()) {
            return run.asPartial("summary.json counts " + n.asLong() + " answered questions, results.jsonl holds "
                    + run.answered() + ": its eval was interrupted, or is running, after the summary was written");
        }
        return run;
    }

    /** The file an eval writes first, with the run's configuration (method, dataset, metrics, model, ...). */
    static final String RUN_CONFIG = "run.json";

    /** The summary's retrieval figures, folded from the lines it counted ({@code DocumentSource}'s tally). */
    private static final List<String> RETRIEVAL_FIGURES = List.of("answer_recall", "answer_recall_at_k",
            "questions_with_gold", "ms_per_question");

    private static JsonNode readJson(Path file) {
        try {
            return JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + file + ": " + e.getMessage(), e);
        }
    }

    /** A summary's identity fields from run.json: its metrics list becomes the metric names, without values. */
    private static JsonNode fromConfig(JsonNode config) {
        if (config == null || !config.isObject() || !config.path("metrics").isArray()) {
            return config;
        }
        ObjectNode s = JSON.createObjectNode();
        for (String keep : List.of("method", "dataset", "data", "sample", "model", "llm_base_url")) {
            if (config.has(keep)) {
                s.set(keep, config.get(keep));
            }
        }
        ObjectNode metrics = s.putObject("metrics");
        config.get("metrics").forEach(m -> metrics.putNull(m.asText()));
        s.set("config", config);
        ObjectNode retrieval = indexRetrieval(config.path("documents").asText(""));
        if (retrieval != null) {
            s.set("retrieval", retrieval);
        }
        return s;
    }

    /**
     * The retrieval record of run.json's {@code documents} when it names an index ({@code PATH k=N MODE}, as eval
     * writes it); null for the dataset's documents, which are its own or none by the method, or for anything else.
     */
    private static ObjectNode indexRetrieval(String documents) {
        String[] words = documents.strip().split(" ");
        if (words.length < 3 || !words[words.length - 2].matches("k=\\d+")) {
            return null;
        }
        ObjectNode r = JSON.createObjectNode();
        r.put("source", "index");
        r.put("index", documents.strip().substring(0, documents.strip().lastIndexOf(" k=")));
        r.put("k", Integer.parseInt(words[words.length - 2].substring(2)));
        r.put("mode", words[words.length - 1]);
        return r;
    }

    /**
     * The same run read as partial: the identity fields kept, with how it ran (its questions at once, where its
     * documents came from) where the summary says, every count and figure folded from the result lines (question count,
     * metric values and their n), so that nothing stale is shown: the retrieval record loses the figures the summary
     * folded from fewer lines (answer recall, milliseconds per question).
     */
    private RunDir asPartial(String why) {
        ObjectNode s = JSON.createObjectNode();
        for (String keep : List.of("method", "dataset", "data", "sample", "model", "llm_base_url", "config",
                "questions_at_once")) {
            if (summary.has(keep)) {
                s.set(keep, summary.get(keep));
            }
        }
        if (summary.get("retrieval") instanceof ObjectNode retrieval) {
            s.set("retrieval", retrieval.deepCopy().remove(RETRIEVAL_FIGURES));
        }
        s.put("partial", why);
        s.put("n", table.size());
        ObjectNode values = s.putObject("metrics");
        ObjectNode counts = s.putObject("metrics_n");
        Map<String, Double> means = new LinkedHashMap<>();
        for (String name : ComparisonTable.metricNames(summary)) {
            double[] v = scores(name).present();
            counts.put(name, v.length);
            if (v.length == 0) {
                values.putNull(name);
            } else {
                double mean = java.util.Arrays.stream(v).average().orElse(Double.NaN);
                values.put(name, mean);
                means.put(name, mean);
            }
        }
        return new RunDir(dir, s, means, table, skippedLines, failed);
    }

    /**
     * Whether the run is partial, and why: {@code summary.json} missing or older than the result lines (an eval that
     * was interrupted); null for a finished run. A partial run's figures are those of the questions answered so far.
     */
    public String partial() {
        JsonNode p = summary.get("partial");
        return p == null || !p.isTextual() ? null : p.textValue();
    }

    /** Reads the result lines into the table, scoring the metrics {@code summary} names. */
    private static RunDir read(Path dir, JsonNode summary) {
        Map<String, Double> metrics = new LinkedHashMap<>();
        summary.get("metrics").properties().forEach(e -> {
            if (e.getValue().isNumber()) {
                metrics.put(e.getKey(), e.getValue().asDouble());
            }
        });
        // scored while reading: the run's own metrics (the table's columns) and its main one (the pages')
        Set<String> scored = new LinkedHashSet<>(ComparisonTable.metricNames(summary));
        metrics.keySet().stream().findFirst().ifPresent(scored::add);
        ResultTable.Builder rows = new ResultTable.Builder(scored);
        Map<String, Integer> failed = new LinkedHashMap<>();
        int[] skipped = {0};
        Path resultsFile = dir.resolve("results.jsonl");
        if (Files.isRegularFile(resultsFile)) {
            ResultsJsonl.forEachLine(resultsFile, (lineNo, line) -> {
                if (line.isBlank()) {
                    return true;
                }
                JsonNode node = ResultsJsonl.parse(line);
                if (node == null) {
                    skipped[0]++;
                } else if (node.has(ResultsFile.FAILED)) {
                    if (!rows.answered(node.path("id").asText())) {
                        failed.put(node.path("id").asText(), lineNo); // the run asks again; a later answer clears it
                    }
                } else if (rows.add(lineNo, node)) {
                    failed.remove(node.path("id").asText());
                }
                return true;
            });
        }
        return new RunDir(dir, summary, metrics, rows.build(), skipped[0], failed);
    }

    public Path dir() {
        return dir;
    }

    /** The summary object. */
    public JsonNode summary() {
        return summary;
    }

    /** The run's metrics in file order. */
    public Map<String, Double> metrics() {
        return metrics;
    }

    /** Result lines that could not be parsed. */
    public int skippedLines() {
        return skippedLines;
    }

    /** Where the trace store should be. */
    public Path traces() {
        return traces;
    }

    /** The ids of the questions whose last record is a failure and that no later line answered, in file order. */
    public List<String> failed() {
        return List.copyOf(failed.keySet());
    }

    /** The answered questions in the table (each id once). */
    public int answered() {
        return table.size();
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
     * per-question figure is recomputed from those lines. A field the table does not keep is read from the file.
     */
    public RunDir subset(String field, String value) {
        BitSet rows = new BitSet();
        if (table.hasLabel(field)) {
            for (int row = 0; row < table.size(); row++) {
                if (value.equals(table.label(field, row))) {
                    rows.set(row);
                }
            }
        } else {
            forEachRow(null, (row, line) -> {
                if (value.equals(line.path(field).asText(null))) {
                    rows.set(row);
                }
            });
        }
        ObjectNode s = JSON.createObjectNode();
        for (String keep : List.of("method", "dataset", "data", "model", "llm_base_url", "metrics_n", "retrieval",
                "config", "questions_at_once")) {
            if (summary.has(keep)) {
                s.set(keep, summary.get(keep));
            }
        }
        s.set("metrics", summary.path("metrics"));
        s.put("n", rows.cardinality());
        return new RunDir(dir, s, metrics, table.select(rows.stream().toArray()), 0, Map.of());
    }

    /** The question count: the summary's {@code n}, else the answered questions. */
    public int n() {
        OptionalDouble n = number("n");
        return n.isPresent() ? (int) n.getAsDouble() : table.size();
    }

    /** The main metric: the first in the summary, or "" when there is none. */
    public String mainMetric() {
        return metrics.isEmpty() ? "" : metrics.keySet().iterator().next();
    }

    /** The model the run asked (summary.json's {@code model}), or "" when it does not say. */
    public String model() {
        return text("model");
    }

    /**
     * Where the run's documents came from, in a few words: {@code dataset}, {@code none} (closed book), or the index's
     * search ({@code bm25 k=5 wiki-idx}); a page store the agents searched is added ({@code + pages NAME}); "" when the
     * summary does not say.
     */
    public String retrieval() {
        JsonNode r = summary.path("retrieval");
        String source = r.path("source").asText("");
        String out = switch (source) {
            case "index" -> (r.path("mode").asText("search") + " k=" + r.path("k").asText("?") + " "
                    + lastName(r.path("index").asText(""))).strip();
            default -> source;
        };
        String pages = summary.at("/config/pages").asText("");
        if (!pages.isEmpty() && !pages.equals("none")) {
            String path = pages.contains(" sha256=") ? pages.substring(0, pages.indexOf(" sha256=")) : pages;
            out = (out.isEmpty() ? "" : out + " + ") + "pages " + lastName(path);
        }
        return out;
    }

    private static String lastName(String path) {
        if (path.isEmpty()) {
            return "";
        }
        Path p = Path.of(path).getFileName();
        return p == null ? path : p.toString();
    }

    /** Questions the run answered at once (summary.json's {@code questions_at_once}), if it says. */
    public OptionalDouble questionsAtOnce() {
        return number("questions_at_once");
    }

    /**
     * The share of the run's samples the response cache served: the summary's {@code cached_share}, else the sum of the
     * result lines' {@code cached_samples} over their {@code samples}; empty for a run written before either existed.
     */
    public OptionalDouble cachedShare() {
        OptionalDouble v = number("cached_share");
        if (v.isPresent()) {
            return v;
        }
        NumberColumn cached = table.figure("cached_samples");
        NumberColumn samples = table.figure("samples");
        double c = 0;
        double n = 0;
        for (int row = 0; row < table.size(); row++) {
            if (cached.has(row) && samples.has(row)) {
                c += cached.get(row);
                n += samples.get(row);
            }
        }
        return n > 0 ? OptionalDouble.of(c / n) : OptionalDouble.empty();
    }

    /**
     * A per-question figure: the summary's field, else the mean of the result lines' {@code resultField} (one of
     * {@link ResultTable#FIGURES}) over the lines that have it; empty when none has it (a run written before the
     * figure existed).
     */
    public OptionalDouble perQuestion(String summaryField, String resultField) {
        OptionalDouble v = number(summaryField);
        if (v.isPresent() || table.size() == 0) {
            return v;
        }
        NumberColumn c = table.figure(resultField);
        double sum = 0;
        int count = 0;
        for (int row = 0; row < c.size(); row++) {
            if (c.has(row)) {
                sum += c.get(row);
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
        for (int row = 0; row < table.size(); row++) {
            n += table.parseFailures(row);
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
        for (int row = 0; row < table.size(); row++) {
            n += table.error(row) ? 1 : 0;
        }
        return n;
    }

    /**
     * Streams the answered questions' lines in table order, one in memory at a time: the lines the table was built
     * from (the last record of each id, no failure record, no torn line).
     *
     * @throws IllegalStateException when {@code results.jsonl} changed since the run was loaded
     */
    public void forEachResult(Consumer<JsonNode> each) {
        forEachRow(null, (row, line) -> each.accept(line));
    }

    /** Receives a row of the table with its line. */
    @FunctionalInterface
    interface RowVisitor {
        void visit(int row, JsonNode line);
    }

    ResultTable table() {
        return table;
    }

    /** Streams the lines of {@code rows} (null: every row) in row order; only those lines are parsed. */
    void forEachRow(BitSet rows, RowVisitor each) {
        int first = rows == null ? 0 : rows.nextSetBit(0);
        if (first < 0 || first >= table.size()) {
            return;
        }
        Path file = dir.resolve("results.jsonl");
        int[] next = {first};
        ResultsJsonl.forEachLine(file, (lineNo, text) -> {
            int row = next[0];
            if (lineNo < table.line(row)) {
                return true;
            }
            JsonNode line = ResultsJsonl.parse(text);
            if (line == null || !Objects.equals(line.path("id").asText(null), table.id(row))) {
                throw changed(file, table.line(row));
            }
            each.visit(row, line);
            next[0] = rows == null ? row + 1 : rows.nextSetBit(row + 1);
            return next[0] >= 0 && next[0] < table.size();
        });
        if (next[0] >= 0 && next[0] < table.size()) {
            throw changed(file, table.line(next[0]));
        }
    }

    private static IllegalStateException changed(Path file, int lineNo) {
        return new IllegalStateException(file + " changed since it was read (line " + lineNo + " is not the answer it"
                + " was); run the command again once the eval writing it has finished");
    }

    /**
     * A metric's per-question scores, re-scored as the comparison table does ({@link ComparisonTable#value}): the
     * run's own metrics were scored while loading; another (a baseline's metric) is read from the file once.
     */
    NumberColumn scores(String metric) {
        NumberColumn c = table.scores(metric);
        if (c == null) {
            Metric m = ComparisonTable.metric(metric);
            NumberColumn read = new NumberColumn(table.size());
            forEachResult(line -> read.add(ComparisonTable.value(m, metric, line)));
            table.putScores(metric, read);
            c = table.scores(metric);
        }
        return c;
    }

    /** The first {@code max} failure records (id, question, reason), read from the file in {@link #failed} order. */
    List<JsonNode> failures(int max) {
        List<Integer> wanted = failed.values().stream().limit(max).toList();
        Map<Integer, JsonNode> byLine = new HashMap<>();
        Set<Integer> lines = new HashSet<>(wanted);
        if (!lines.isEmpty()) {
            Path file = dir.resolve("results.jsonl");
            ResultsJsonl.forEachLine(file, (lineNo, text) -> {
                if (lines.contains(lineNo)) {
                    JsonNode node = ResultsJsonl.parse(text);
                    if (node == null || !node.has(ResultsFile.FAILED)) {
                        throw changed(file, lineNo);
                    }
                    byLine.put(lineNo, node);
                }
                return byLine.size() < lines.size();
            });
        }
        List<JsonNode> out = new ArrayList<>();
        for (Integer line : wanted) {
            JsonNode f = byLine.get(line);
            if (f == null) {
                throw changed(dir.resolve("results.jsonl"), line);
            }
            out.add(f);
        }
        return out;
    }
}
