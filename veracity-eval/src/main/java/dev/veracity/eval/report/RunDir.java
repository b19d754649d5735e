package dev.veracity.eval.report;

import dev.veracity.eval.metrics.Metric;
import dev.veracity.eval.results.ResultLine;
import dev.veracity.eval.results.ResultsJson;
import dev.veracity.eval.results.RunConfiguration;
import dev.veracity.eval.results.Summary;
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
 * questions ({@link ResultTable}: ids, scores, figures, flags, in memory-mapped temporary files off the heap), never
 * into JSON trees, since a line carries prompts, documents and transcripts: the heap a run holds does not grow with it. A consumer that needs whole lines streams them again with {@link #forEachResult}.
 *
 * <p>The rules of the file: a line that cannot be parsed (such as a line cut off when the run was killed) is skipped
 * and counted; the rest follow {@code ResultsFile}, which the summary is folded from: of an id answered more than once
 * the first answer counts, a failure record ({@code "failed": reason}) after an answer is ignored, and a question
 * whose failure no later line answered is failed, not answered.
 */
public final class RunDir {

    private final Path dir;
    private final Summary summary;
    /** Why the run is read as partial, or null. */
    private final String partial;
    private final Map<String, Double> metrics;
    private final Path traces;
    private final ResultTable table;
    private final int skippedLines;
    /** Failed question ids to the line of their last failure record, in order of first failure. */
    private final Map<String, Integer> failed;

    private RunDir(Path dir, Summary summary, String partial, Map<String, Double> metrics, ResultTable table,
                   int skippedLines, Map<String, Integer> failed) {
        this.dir = dir;
        this.summary = summary;
        this.partial = partial;
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
        Summary summary = Files.exists(summaryFile) ? ResultsJson.summary(summaryFile) : null;
        if (summary == null && !Files.isRegularFile(resultsFile)) {
            throw new IllegalArgumentException(dir + " holds no summary.json and no results.jsonl: not an eval run folder");
        }
        Summary identity = summary;
        if (summary == null) {
            Path config = dir.resolve(RUN_CONFIG);
            if (!Files.isRegularFile(config)) {
                throw new IllegalArgumentException(dir + " holds results.jsonl but neither summary.json nor " + RUN_CONFIG
                        + ": the run cannot be named; run its eval command again to finish it");
            }
            identity = fromConfig(ResultsJson.runConfiguration(config));
        }
        if (identity.method() == null || identity.metrics() == null) {
            throw new IllegalArgumentException((summary == null ? dir.resolve(RUN_CONFIG) : summaryFile)
                    + ": needs a \"method\" string and a \"metrics\" " + (summary == null ? "list" : "object"));
        }
        RunDir run = read(dir, identity);
        if (summary == null) {
            return run.asPartial("no summary.json: its eval was interrupted or is still running");
        }
        Long n = summary.n();
        if (Files.isRegularFile(resultsFile) && n != null && n != run.answered()) {
            return run.asPartial("summary.json counts " + n + " answered questions, results.jsonl holds "
                    + run.answered() + ": its eval was interrupted, or is running, after the summary was written");
        }
        return run;
    }

    /** The file an eval writes first, with the run's configuration (method, dataset, metrics, model, ...). */
    static final String RUN_CONFIG = "run.json";

    /** A summary's identity fields from run.json: its metrics list becomes the metric names, without values. */
    private static Summary fromConfig(RunConfiguration config) {
        Summary.Builder s = new Summary.Builder();
        s.method = config.method();
        s.dataset = config.dataset();
        s.data = config.data();
        s.sample = config.sample();
        s.model = config.model();
        s.llmBaseUrl = config.llmBaseUrl();
        if (config.metrics() != null) {
            s.metrics = new LinkedHashMap<>();
            config.metrics().forEach(m -> s.metrics.put(m, null));
        }
        s.config = config;
        s.retrieval = indexRetrieval(config.documents() == null ? "" : config.documents());
        return s.build();
    }

    /**
     * The retrieval record of run.json's {@code documents} when it names an index ({@code PATH k=N MODE}, as eval
     * writes it); null for the dataset's documents, which are its own or none by the method, or for anything else.
     */
    private static Summary.Retrieval indexRetrieval(String documents) {
        String[] words = documents.strip().split(" ");
        if (words.length < 3 || !words[words.length - 2].matches("k=\\d+")) {
            return null;
        }
        return new Summary.Retrieval("index", documents.strip().substring(0, documents.strip().lastIndexOf(" k=")), null,
                Integer.parseInt(words[words.length - 2].substring(2)), words[words.length - 1], null, null, null, null,
                null, null, null);
    }

    /**
     * The same run read as partial: the identity fields kept, with how it ran (its questions at once, where its
     * documents came from) where the summary says, every count and figure folded from the result lines (question count,
     * metric values and their n), so that nothing stale is shown: the retrieval record loses the figures the summary
     * folded from fewer lines (answer recall, milliseconds per question).
     */
    private RunDir asPartial(String why) {
        Summary.Builder s = new Summary.Builder();
        s.method = summary.method();
        s.dataset = summary.dataset();
        s.data = summary.data();
        s.sample = summary.sample();
        s.model = summary.model();
        s.llmBaseUrl = summary.llmBaseUrl();
        s.config = summary.config();
        s.questionsAtOnce = summary.questionsAtOnce();
        s.retrieval = summary.retrieval() == null ? null : summary.retrieval().withoutFigures();
        s.n = (long) table.size();
        s.metrics = new LinkedHashMap<>();
        s.metricsN = new LinkedHashMap<>();
        Map<String, Double> means = new LinkedHashMap<>();
        for (String name : ComparisonTable.metricNames(summary)) {
            double[] v = scores(name).present();
            s.metricsN.put(name, (long) v.length);
            if (v.length == 0) {
                s.metrics.put(name, null);
            } else {
                double mean = java.util.Arrays.stream(v).average().orElse(Double.NaN);
                s.metrics.put(name, mean);
                means.put(name, mean);
            }
        }
        return new RunDir(dir, s.build(), why, means, table, skippedLines, failed);
    }

    /**
     * Whether the run is partial, and why: {@code summary.json} missing or older than the result lines (an eval that
     * was interrupted); null for a finished run. A partial run's figures are those of the questions answered so far.
     */
    public String partial() {
        return partial;
    }

    /** Reads the result lines into the table, scoring the metrics {@code summary} names. */
    private static RunDir read(Path dir, Summary summary) {
        Map<String, Double> metrics = new LinkedHashMap<>();
        summary.metricsOrEmpty().forEach((name, value) -> {
            if (value != null) {
                metrics.put(name, value);
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
                ResultLine node = ResultsJsonl.parse(line, resultsFile + ":" + lineNo);
                String id = node == null || node.id() == null ? "" : node.id();
                if (node == null) {
                    skipped[0]++;
                } else if (node.isFailure()) {
                    if (!rows.answered(id)) {
                        failed.put(id, lineNo); // the run asks again; a later answer clears it
                    }
                } else if (rows.add(lineNo, node)) {
                    failed.remove(id);
                }
                return true;
            });
        }
        return new RunDir(dir, summary, null, metrics, rows.build(), skipped[0], failed);
    }

    public Path dir() {
        return dir;
    }

    /** The summary (for a partial run, its identity and the figures folded from its lines). */
    public Summary summary() {
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
        return summary.method();
    }

    /** The run folder's name, as tables and reports call the run (the method when the folder has none, e.g. "/"). */
    public String name() {
        Path name = dir.toAbsolutePath().normalize().getFileName();
        return name == null ? method() : name.toString();
    }

    /** The dataset the run answered (summary.json's {@code dataset}), or "" when it does not say. */
    public String dataset() {
        return text(summary.dataset());
    }

    /** The dataset file the run read (summary.json's {@code data}), or "" when it does not say. */
    public String data() {
        return text(summary.data());
    }

    /** A text of the summary, or "" when absent. */
    static String text(Object value) {
        return value == null ? "" : value.toString();
    }

    private static OptionalDouble number(Number value) {
        return value == null ? OptionalDouble.empty() : OptionalDouble.of(value.doubleValue());
    }

    /**
     * The same run restricted to the answered questions whose result line has {@code field} = {@code value} (CRAG's
     * {@code question_type}): the summary keeps the run's identity and metric names, and every count and
     * per-question figure is recomputed from those lines. A field the table does not keep is read from the file.
     */
    public RunDir subset(String field, String value) {
        BitSet rows = new BitSet();
        if (!table.hasLabel(field)) {
            throw new IllegalArgumentException("runs are broken down by " + ResultTable.LABELS + ", not by " + field);
        }
        for (int row = 0; row < table.size(); row++) {
            if (value.equals(table.label(field, row))) {
                rows.set(row);
            }
        }
        Summary.Builder s = new Summary.Builder();
        s.method = summary.method();
        s.dataset = summary.dataset();
        s.data = summary.data();
        s.model = summary.model();
        s.llmBaseUrl = summary.llmBaseUrl();
        s.metricsN = summary.metricsN();
        s.retrieval = summary.retrieval();
        s.config = summary.config();
        s.questionsAtOnce = summary.questionsAtOnce();
        s.metrics = summary.metrics();
        s.n = (long) rows.cardinality();
        return new RunDir(dir, s.build(), null, metrics, table.select(rows.stream().toArray()), 0, Map.of());
    }

    /** The question count: the summary's {@code n}, else the answered questions. */
    public int n() {
        OptionalDouble n = number(summary.n());
        return n.isPresent() ? (int) n.getAsDouble() : table.size();
    }

    /** The main metric: the first in the summary, or "" when there is none. */
    public String mainMetric() {
        return metrics.isEmpty() ? "" : metrics.keySet().iterator().next();
    }

    /** The model the run asked (summary.json's {@code model}), or "" when it does not say. */
    public String model() {
        return text(summary.model());
    }

    /**
     * Where the run's documents came from, in a few words: {@code dataset}, {@code none} (closed book), or the index's
     * search ({@code bm25 k=5 wiki-idx}); a page store the agents searched is added ({@code + pages NAME}); "" when the
     * summary does not say.
     */
    public String retrieval() {
        Summary.Retrieval r = summary.retrieval();
        String source = r == null ? "" : text(r.source());
        String out = switch (source) {
            case "index" -> ((r.mode() == null ? "search" : r.mode()) + " k=" + (r.k() == null ? "?" : r.k()) + " "
                    + lastName(text(r.index()))).strip();
            default -> source;
        };
        String pages = summary.config() == null ? "" : text(summary.config().pages());
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
        return number(summary.questionsAtOnce());
    }

    /**
     * The share of the run's samples the response cache served: the summary's {@code cached_share}, else the sum of the
     * result lines' {@code cached_samples} over their {@code samples}; empty for a run written before either existed.
     */
    public OptionalDouble cachedShare() {
        OptionalDouble v = number(summary.cachedShare());
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
    public OptionalDouble perQuestion(String resultField) {
        OptionalDouble v = number(summary.perQuestion(resultField));
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
        OptionalDouble v = number(summary.parseFailures());
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
        OptionalDouble v = number(summary.errors());
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
    public void forEachResult(Consumer<ResultLine> each) {
        forEachRow(null, (row, line) -> each.accept(line));
    }

    /** Receives a row of the table with its line. */
    @FunctionalInterface
    interface RowVisitor {
        void visit(int row, ResultLine line);
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
            ResultLine line = ResultsJsonl.parse(text, file + ":" + lineNo);
            if (line == null || !Objects.equals(line.id(), table.id(row))) {
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

    /**
     * The share of the questions the run answered ({@code eval --shard I/N}, as {@code run.json} records it), or null
     * for a whole run.
     */
    public String shard() {
        RunConfiguration config = summary.config();
        if (config == null && Files.isRegularFile(dir.resolve(RUN_CONFIG))) {
            config = ResultsJson.runConfiguration(dir.resolve(RUN_CONFIG));
        }
        return config == null ? null : config.shard();
    }

    /**
     * The answered questions' rows in the dataset's order: by their lines' {@code position}, rows whose lines do not
     * say after them in file order ({@link #line} reads each).
     */
    public int[] datasetOrder() {
        return table.datasetOrder();
    }

    /** A row's place in the dataset's order (from 0), or -1 when its line does not say. */
    public int position(int row) {
        return table.position(row);
    }

    /** The question id of a row, or null when its line has none. */
    public String id(int row) {
        return table.id(row);
    }

    /**
     * A reader of rows in any order (each line found by its place in the file, not by reading the lines before it);
     * close it when done.
     */
    public Lines lines() {
        return new Lines();
    }

    /** Reads the answered questions' lines by row, in any order ({@link #lines()}). */
    public final class Lines implements AutoCloseable {
        private final LineOffsets offsets = LineOffsets.of(dir.resolve("results.jsonl"));

        private Lines() {
        }

        /** The line of {@code row}, as the table read it. */
        public ResultLine at(int row) {
            Path file = dir.resolve("results.jsonl");
            int lineNo = table.line(row);
            if (lineNo > offsets.lines()) {
                throw changed(file, lineNo);
            }
            ResultLine line = ResultsJsonl.parse(offsets.line(lineNo), file + ":" + lineNo);
            if (line == null || !Objects.equals(line.id(), table.id(row))) {
                throw changed(file, lineNo);
            }
            return line;
        }

        @Override
        public void close() {
            offsets.close();
        }
    }

    /** The failure records of the questions no later line answered (id, question, reason), in file order. */
    public List<ResultLine> failureRecords() {
        return failures(Integer.MAX_VALUE);
    }

    /** The first {@code max} failure records (id, question, reason), read from the file in {@link #failed} order. */
    List<ResultLine> failures(int max) {
        List<Integer> wanted = failed.values().stream().limit(max).toList();
        Map<Integer, ResultLine> byLine = new HashMap<>();
        Set<Integer> lines = new HashSet<>(wanted);
        if (!lines.isEmpty()) {
            Path file = dir.resolve("results.jsonl");
            ResultsJsonl.forEachLine(file, (lineNo, text) -> {
                if (lines.contains(lineNo)) {
                    ResultLine node = ResultsJsonl.parse(text, file + ":" + lineNo);
                    if (node == null || !node.isFailure()) {
                        throw changed(file, lineNo);
                    }
                    byLine.put(lineNo, node);
                }
                return byLine.size() < lines.size();
            });
        }
        List<ResultLine> out = new ArrayList<>();
        for (Integer line : wanted) {
            ResultLine f = byLine.get(line);
            if (f == null) {
                throw changed(dir.resolve("results.jsonl"), line);
            }
            out.add(f);
        }
        return out;
    }
}
