package dev.veracity.eval.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.eval.metrics.ItemScore;
import dev.veracity.eval.metrics.Metric;
import dev.veracity.eval.metrics.Metrics;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * A comparison of evaluation runs, one table per dataset and one row per run: each of the run's metrics (those its
 * {@code summary.json} names) with the number of questions it counted and a 95% percentile bootstrap interval over
 * the per-question values of {@code results.jsonl}, the judge's accuracy over its parsed verdicts, then calls,
 * tokens and seconds per question and parse failures. Formats: aligned text, CSV, JSON and Markdown.
 *
 * <p>A metric over no question is "n/a", never 0; a judge that parsed no verdict is "n/a (0 of N parsed)".
 */
public final class ComparisonTable {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** The supported output formats. */
    public enum Format { TEXT, CSV, JSON, MARKDOWN }

    /**
     * A metric cell.
     *
     * @param value  the mean, or null for n/a
     * @param lo     the interval's lower bound, or null when there is no interval
     * @param hi     the interval's upper bound, or null
     * @param n      the questions counted (the judge: parsed verdicts), or null when unknown
     * @param of     the judge only: the judged questions, or null
     */
    public record Cell(Double value, Double lo, Double hi, Integer n, Integer of) {

        static final Cell NA = new Cell(null, null, null, 0, null);

        static Cell of(Bootstrap.Interval i) {
            return new Cell(i.mean(), i.lo(), i.hi(), i.n(), null);
        }
    }

    /**
     * One run's row.
     *
     * @param run              the run folder's name
     * @param method           the method
     * @param questions        the questions in the run
     * @param metrics          metric name to cell, for the metrics the run has
     * @param judge            the judge's cell, or null when the run was not judged
     * @param callsPerQuestion model calls per question, or null when unknown
     * @param tokensPerQuestion prompt + completion tokens per question, or null
     * @param secondsPerQuestion wall seconds per question, or null
     * @param parseFailures    parse failures over the run
     */
    public record Row(String run, String method, int questions, Map<String, Cell> metrics, Cell judge,
                      Double callsPerQuestion, Double tokensPerQuestion, Double secondsPerQuestion, int parseFailures) {
    }

    /**
     * The runs of one dataset.
     *
     * @param dataset the dataset name ("" when the summaries do not say)
     * @param metrics the metric columns, in order of first appearance
     * @param judged  whether any run has a judge column
     * @param rows    the rows, in the order the runs were given
     */
    public record Table(String dataset, List<String> metrics, boolean judged, List<Row> rows) {
    }

    private final List<Table> tables;
    private final int resamples;
    private final long seed;
    /** Run name to why it is partial ({@link RunDir#partial()}), for the runs that are. */
    private final Map<String, String> partial;

    private ComparisonTable(List<Table> tables, int resamples, long seed, Map<String, String> partial) {
        this.tables = List.copyOf(tables);
        this.resamples = resamples;
        this.seed = seed;
        this.partial = Map.copyOf(partial);
    }

    /** The table of the run folders, with the default resamples and seed. */
    /**
     * Question types shown as their own rows under a run that has them (and others): CRAG's comparison questions,
     * whose candidates in the question bait hallucinations (TruthRL Table 2).
     */
    static final Map<String, String> SUBSETS = Map.of("comparison", "comparison: hallucination-baiting");

    public static ComparisonTable of(List<RunDir> runs) {
        return of(runs, Bootstrap.DEFAULT_RESAMPLES, Bootstrap.DEFAULT_SEED);
    }

    /** Loads run folders; fails with a message naming the folder that is missing or malformed. */
    public static List<RunDir> load(List<Path> dirs) {
        List<RunDir> runs = new ArrayList<>();
        for (Path d : dirs) {
            if (!java.nio.file.Files.isDirectory(d)) {
                throw new IllegalArgumentException("no run folder at " + d);
            }
            try {
                runs.add(RunDir.load(d));
            } catch (UncheckedIOException | IllegalArgumentException e) {
                // One line: a JSON parser's message goes on with the location on a second line.
                String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().lines().findFirst().orElse("");
                throw new IllegalArgumentException("run folder " + d + " cannot be read: " + why, e);
            }
        }
        return runs;
    }

    /** The table of the runs: one table per dataset, in order of first appearance. */
    public static ComparisonTable of(List<RunDir> runs, int resamples, long seed) {
        if (resamples < 1) {
            throw new IllegalArgumentException("--resamples must be >= 1, got " + resamples);
        }
        Map<String, List<RunDir>> byDataset = new LinkedHashMap<>();
        for (RunDir r : runs) {
            byDataset.computeIfAbsent(r.text("dataset"), k -> new ArrayList<>()).add(r);
        }
        List<Table> tables = new ArrayList<>();
        Map<String, String> partial = new LinkedHashMap<>();
        runs.stream().filter(r -> r.partial() != null).forEach(r -> partial.put(r.name(), r.partial()));
        byDataset.forEach((dataset, group) -> {
            Set<String> names = new LinkedHashSet<>();
            List<Row> rows = new ArrayList<>();
            boolean judged = false;
            for (RunDir r : group) {
                Row row = row(r, resamples, seed);
                names.addAll(row.metrics().keySet());
                judged |= row.judge() != null;
                rows.add(row);
                SUBSETS.forEach((type, label) -> {
                    RunDir part = r.subset("question_type", type);
                    if (part.answered() > 0 && part.answered() < r.answered()) {
                        Row sub = row(part, resamples, seed);
                        rows.add(new Row(sub.run() + " [" + label + "]", sub.method(), sub.questions(), sub.metrics(),
                                sub.judge(), sub.callsPerQuestion(), sub.tokensPerQuestion(), sub.secondsPerQuestion(),
                                sub.parseFailures()));
                    }
                });
            }
            tables.add(new Table(dataset, List.copyOf(names), judged, rows));
        });
        return new ComparisonTable(tables, resamples, seed, partial);
    }

    public List<Table> tables() {
        return tables;
    }

    /** The runs read as partial (an interrupted eval), by run name, with why; empty when every run is finished. */
    public Map<String, String> partial() {
        return partial;
    }

    /** "RUN: partial, N questions answered so far (why)" for each partial row of the table. */
    private List<String> partialNotes(Table t) {
        List<String> out = new ArrayList<>();
        for (Row r : t.rows()) {
            String why = partial.get(r.run());
            if (why != null) {
                out.add(r.run() + ": partial, " + r.questions() + " questions answered so far (" + why
                        + "); run its eval command again to finish it");
            }
        }
        return out;
    }

    // ---------------------------------------------------------------- rows

    /** The run's official metrics: the keys of {@code metrics_n}, else the summary's metrics less their extras. */
    static List<String> metricNames(JsonNode summary) {
        List<String> out = new ArrayList<>();
        JsonNode counts = summary.path("metrics_n");
        if (counts.isObject()) {
            counts.fieldNames().forEachRemaining(out::add);
            return out;
        }
        List<String> keys = new ArrayList<>();
        summary.path("metrics").fieldNames().forEachRemaining(keys::add);
        for (String k : keys) {
            boolean extra = keys.stream().anyMatch(p -> !p.equals(k) && k.startsWith(p + "."));
            if (!extra) {
                out.add(k);
            }
        }
        return out;
    }

    private static Row row(RunDir r, int resamples, long seed) {
        JsonNode summary = r.summary();
        Map<String, Cell> metrics = new LinkedHashMap<>();
        for (String name : metricNames(summary)) {
            double[] values = r.scores(name).present();
            if (values.length > 0) {
                metrics.put(name, Cell.of(Bootstrap.mean(values, resamples, seed)));
                continue;
            }
            JsonNode v = summary.path("metrics").path(name);
            JsonNode n = summary.path("metrics_n").path(name);
            if (v.isNumber() && !(n.isNumber() && n.asInt() == 0)) {
                // No per-question values to resample: the summary's figure, without an interval.
                metrics.put(name, new Cell(v.asDouble(), null, null, n.isNumber() ? n.asInt() : null, null));
            } else {
                metrics.put(name, Cell.NA);
            }
        }
        OptionalDouble prompt = r.perQuestion("prompt_tokens_per_question", "prompt_tokens");
        OptionalDouble completion = r.perQuestion("completion_tokens_per_question", "completion_tokens");
        OptionalDouble wallMs = r.perQuestion("wall_ms_per_question", "wall_ms");
        return new Row(r.name(), r.method(), r.n(), metrics,
                judge(r, resamples, seed), value(r.perQuestion("calls_per_question", "calls")),
                prompt.isPresent() || completion.isPresent() ? prompt.orElse(0) + completion.orElse(0) : null,
                wallMs.isPresent() ? wallMs.getAsDouble() / 1000 : null, r.parseFailures());
    }

    /** The registered metric of that name, or null for a name only the result lines know. */
    static Metric metric(String name) {
        try {
            return Metrics.byName(name);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * One line's value of a metric: re-scored from its prediction and gold answers when the metric is known, else
     * the line's stored value; null when the metric skips the line or the line has none.
     */
    static Double value(Metric metric, String name, JsonNode l) {
        if (metric != null && l.path("gold").isArray() && l.has("prediction")) {
            ItemScore s = metric.score(l.path("prediction").asText(""), strings(l.get("gold")), strings(l.path("wrong")));
            return s.counted() ? s.score() : null;
        }
        return l.path("metrics").path(name).isNumber() ? l.get("metrics").get(name).asDouble() : null;
    }

    private static Cell judge(RunDir r, int resamples, long seed) {
        List<Double> parsed = new ArrayList<>();
        int judgedLines = 0;
        ResultTable t = r.table();
        for (int row = 0; row < t.size(); row++) {
            byte outcome = t.judge(row);
            if (outcome == ResultTable.NOT_JUDGED) {
                continue;
            }
            judgedLines++;
            if (outcome == ResultTable.CORRECT) {
                parsed.add(1.0);
            } else if (outcome == ResultTable.INCORRECT) {
                parsed.add(0.0);
            }
        }
        JsonNode j = r.summary().path("judge");
        if (judgedLines == 0) {
            if (!j.isObject()) {
                return null;
            }
            // Only the summary: its accuracy, without an interval.
            int correct = j.path("correct").asInt(0);
            int incorrect = j.path("incorrect").asInt(0);
            int of = correct + incorrect + j.path("unparseable").asInt(0);
            return correct + incorrect == 0 || !j.path("accuracy").isNumber()
                    ? new Cell(null, null, null, 0, of)
                    : new Cell(j.get("accuracy").asDouble(), null, null, correct + incorrect, of);
        }
        if (parsed.isEmpty()) {
            return new Cell(null, null, null, 0, judgedLines);
        }
        Bootstrap.Interval i = Bootstrap.mean(parsed.stream().mapToDouble(Double::doubleValue).toArray(), resamples, seed);
        return new Cell(i.mean(), i.lo(), i.hi(), i.n(), judgedLines);
    }

    private static List<String> strings(JsonNode arr) {
        List<String> out = new ArrayList<>();
        if (arr != null) {
            arr.forEach(n -> out.add(n.asText()));
        }
        return out;
    }

    private static Double value(OptionalDouble v) {
        return v.isPresent() ? v.getAsDouble() : null;
    }

    // ---------------------------------------------------------------- formats

    /** The line that says how the intervals were computed. */
    public String method() {
        return "95% CI: percentile bootstrap of the mean over per-question values, " + resamples
                + " resamples, fixed seed " + seed + " (reproducible); n = questions counted";
    }

    /** The table in a format. */
    public String format(Format f) {
        return switch (f) {
            case TEXT -> text();
            case CSV -> csv();
            case JSON -> json();
            case MARKDOWN -> markdown();
        };
    }

    /** Aligned text, one block per dataset, each under its header line. */
    public String text() {
        StringBuilder out = new StringBuilder();
        for (Table t : tables) {
            if (!out.isEmpty()) {
                out.append('\n');
            }
            out.append("Dataset ").append(t.dataset().isEmpty() ? "(unnamed)" : t.dataset()).append(" - ")
                    .append(method()).append('\n');
            List<List<String>> cells = new ArrayList<>();
            cells.add(header(t));
            t.rows().forEach(r -> cells.add(cells(t, r)));
            int[] width = new int[cells.getFirst().size()];
            for (List<String> row : cells) {
                for (int c = 0; c < row.size(); c++) {
                    width[c] = Math.max(width[c], row.get(c).length());
                }
            }
            for (int i = 0; i < cells.size(); i++) {
                List<String> row = cells.get(i);
                StringBuilder line = new StringBuilder();
                for (int c = 0; c < row.size(); c++) {
                    if (c > 0) {
                        line.append("  ");
                    }
                    // run and method left-aligned, figures right-aligned
                    String pad = " ".repeat(width[c] - row.get(c).length());
                    line.append(c < 2 ? row.get(c) + pad : pad + row.get(c));
                }
                out.append(line.toString().stripTrailing()).append('\n');
                if (i == 0) {
                    int total = 0;
                    for (int w : width) {
                        total += w;
                    }
                    out.append("-".repeat(total + 2 * (width.length - 1))).append('\n');
                }
            }
            partialNotes(t).forEach(n -> out.append("* ").append(n).append('\n'));
        }
        return out.toString();
    }

    /** Markdown: per dataset a heading, the header line and a table. */
    public String markdown() {
        StringBuilder out = new StringBuilder();
        for (Table t : tables) {
            if (!out.isEmpty()) {
                out.append('\n');
            }
            out.append("### Dataset ").append(md(t.dataset().isEmpty() ? "(unnamed)" : t.dataset())).append("\n\n");
            out.append('_').append(method()).append("_\n\n");
            List<String> h = header(t);
            out.append("| ").append(String.join(" | ", h.stream().map(ComparisonTable::md).toList())).append(" |\n");
            out.append('|');
            for (int c = 0; c < h.size(); c++) {
                out.append(c < 2 ? " --- |" : " ---: |");
            }
            out.append('\n');
            for (Row r : t.rows()) {
                out.append("| ").append(String.join(" | ", cells(t, r).stream().map(ComparisonTable::md).toList()))
                        .append(" |\n");
            }
            List<String> notes = partialNotes(t);
            if (!notes.isEmpty()) {
                out.append('\n');
                notes.forEach(n -> out.append("_").append(md(n)).append("_\n"));
            }
        }
        return out.toString();
    }

    /**
     * CSV (RFC 4180): one header row and one row per run, every dataset's columns in one table (blank where a run
     * lacks a metric or a figure is n/a); intervals in {@code NAME.lo} / {@code NAME.hi}, counts in {@code NAME.n}.
     */
    public String csv() {
        Set<String> metrics = new LinkedHashSet<>();
        boolean judged = false;
        for (Table t : tables) {
            metrics.addAll(t.metrics());
            judged |= t.judged();
        }
        List<String> header = new ArrayList<>(List.of("dataset", "run", "method", "questions"));
        for (String m : metrics) {
            header.addAll(List.of(m, m + ".lo", m + ".hi", m + ".n"));
        }
        if (judged) {
            header.addAll(List.of("judge", "judge.lo", "judge.hi", "judge.parsed", "judge.n"));
        }
        header.addAll(List.of("calls_per_question", "tokens_per_question", "seconds_per_question", "parse_failures",
                "bootstrap_resamples", "bootstrap_seed"));
        StringBuilder out = new StringBuilder();
        out.append(String.join(",", header.stream().map(ComparisonTable::csvField).toList())).append("\r\n");
        for (Table t : tables) {
            for (Row r : t.rows()) {
                List<String> f = new ArrayList<>(List.of(t.dataset(), r.run(), r.method(), String.valueOf(r.questions())));
                for (String m : metrics) {
                    Cell c = r.metrics().get(m);
                    f.addAll(c == null ? List.of("", "", "", "")
                            : List.of(raw(c.value()), raw(c.lo()), raw(c.hi()), c.n() == null ? "" : c.n().toString()));
                }
                if (judged) {
                    Cell c = r.judge();
                    f.addAll(c == null ? List.of("", "", "", "", "")
                            : List.of(raw(c.value()), raw(c.lo()), raw(c.hi()), c.n() == null ? "" : c.n().toString(),
                                    c.of() == null ? "" : c.of().toString()));
                }
                f.addAll(List.of(raw(r.callsPerQuestion()), raw(r.tokensPerQuestion()), raw(r.secondsPerQuestion()),
                        String.valueOf(r.parseFailures()), String.valueOf(resamples), String.valueOf(seed)));
                out.append(String.join(",", f.stream().map(ComparisonTable::csvField).toList())).append("\r\n");
            }
        }
        return out.toString();
    }

    /** JSON: the bootstrap settings and, per dataset, the rows with every cell's value, interval and n. */
    public String json() {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode b = root.putObject("bootstrap");
        b.put("method", "percentile");
        b.put("level", Bootstrap.LEVEL);
        b.put("resamples", resamples);
        b.put("seed", seed);
        ArrayNode ts = root.putArray("tables");
        for (Table t : tables) {
            ObjectNode tn = ts.addObject();
            tn.put("dataset", t.dataset());
            ArrayNode ms = tn.putArray("metrics");
            t.metrics().forEach(ms::add);
            ArrayNode rows = tn.putArray("rows");
            for (Row r : t.rows()) {
                ObjectNode rn = rows.addObject();
                rn.put("run", r.run());
                rn.put("method", r.method());
                rn.put("questions", r.questions());
                if (partial.containsKey(r.run())) {
                    rn.put("partial", partial.get(r.run()));
                }
                ObjectNode mn = rn.putObject("metrics");
                r.metrics().forEach((k, c) -> cellJson(mn.putObject(k), c, "n"));
                if (r.judge() != null) {
                    ObjectNode jn = rn.putObject("judge");
                    cellJson(jn, r.judge(), "parsed");
                    if (r.judge().of() != null) {
                        jn.put("n", r.judge().of());
                    }
                }
                put(rn, "calls_per_question", r.callsPerQuestion());
                put(rn, "tokens_per_question", r.tokensPerQuestion());
                put(rn, "seconds_per_question", r.secondsPerQuestion());
                rn.put("parse_failures", r.parseFailures());
            }
        }
        try {
            return JSON.writeValueAsString(root) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void cellJson(ObjectNode o, Cell c, String countName) {
        put(o, "value", c.value());
        put(o, "lo", c.lo());
        put(o, "hi", c.hi());
        if (c.n() == null) {
            o.putNull(countName);
        } else {
            o.put(countName, c.n());
        }
    }

    private static void put(ObjectNode o, String k, Double v) {
        if (v == null || v.isNaN() || v.isInfinite()) {
            o.putNull(k);
        } else {
            o.put(k, v);
        }
    }

    private static List<String> header(Table t) {
        List<String> h = new ArrayList<>(List.of("run", "method", "questions"));
        h.addAll(t.metrics());
        if (t.judged()) {
            h.add("judge");
        }
        h.addAll(List.of("calls/q", "tokens/q", "s/q", "parse failures"));
        return h;
    }

    private static List<String> cells(Table t, Row r) {
        List<String> c = new ArrayList<>(List.of(r.run(), r.method(), String.valueOf(r.questions())));
        for (String m : t.metrics()) {
            Cell cell = r.metrics().get(m);
            c.add(cell == null ? "-" : cell(cell));
        }
        if (t.judged()) {
            Cell j = r.judge();
            if (j == null) {
                c.add("-");
            } else if (j.value() == null) {
                c.add("n/a (0 of " + (j.of() == null ? "?" : j.of()) + " parsed)");
            } else {
                c.add(cell(j) + (j.of() == null ? "" : " of " + j.of()));
            }
        }
        c.add(fixed(r.callsPerQuestion(), 2));
        c.add(fixed(r.tokensPerQuestion(), 1));
        c.add(fixed(r.secondsPerQuestion(), 2));
        c.add(String.valueOf(r.parseFailures()));
        return c;
    }

    /** "0.512 [0.431, 0.590] n=60", "0.512 n=60" without an interval, "n/a" over no question. */
    static String cell(Cell c) {
        if (c.value() == null || c.value().isNaN()) {
            return "n/a";
        }
        StringBuilder s = new StringBuilder(fixed(c.value(), 3));
        if (c.lo() != null && c.hi() != null) {
            s.append(" [").append(fixed(c.lo(), 3)).append(", ").append(fixed(c.hi(), 3)).append(']');
        }
        if (c.n() != null) {
            s.append(" n=").append(c.n());
        }
        return s.toString();
    }

    static String fixed(Double v, int decimals) {
        return v == null || v.isNaN() ? "n/a" : String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    private static String raw(Double v) {
        return v == null || v.isNaN() || v.isInfinite() ? "" : String.valueOf(v);
    }

    private static String csvField(String s) {
        if (s.contains(",") || s.contains("\"") || s.contains("\n") || s.contains("\r")) {
            return '"' + s.replace("\"", "\"\"") + '"';
        }
        return s;
    }

    private static String md(String s) {
        return s.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ").replace("\r", " ");
    }
}
