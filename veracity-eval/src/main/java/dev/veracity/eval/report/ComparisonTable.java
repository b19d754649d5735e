package dev.veracity.eval.report;

import dev.veracity.eval.results.ResultLine;
import dev.veracity.eval.results.Summary;
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
 * A comparison of evaluation runs, one table per dataset and one row per run: the run (named by its folder, with as
 * much of its path as tells runs of the same name apart), its method, model and retrieval, each of the run's metrics
 * (those its {@code summary.json} names) with the number of questions it counted and a 95% percentile bootstrap
 * interval over the per-question values of {@code results.jsonl}, the judge's accuracy over its parsed verdicts, then
 * the cost per question: requests ("calls") and the samples they asked for, tokens, the share of samples the response
 * cache served, wall and model seconds, and the parse failures and failed questions. With a baseline it carries each
 * run's paired differences ({@link PairedComparison}), and every format holds them in its one document. Formats:
 * aligned text, CSV, JSON and Markdown.
 *
 * <p>A metric over no question is "n/a", never 0; a judge that parsed no verdict is "n/a (0 of N parsed)". A figure a
 * run written before it existed lacks is "n/a" (blank in CSV, null in JSON), never 0.
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
     * @param run                     the run's name: its folder, with parent folders where runs share a name
     * @param method                  the method
     * @param model                   the model the run asked ("" when its summary does not say)
     * @param retrieval               where its documents came from ({@link RunDir#retrieval()})
     * @param questions               the questions in the run
     * @param metrics                 metric name to cell, for the metrics the run has
     * @param judge                   the judge's cell, or null when the run was not judged
     * @param callsPerQuestion        requests to the model per question (one asks for n samples), or null when unknown
     * @param samplesPerQuestion      samples those requests asked for (Reasoning Court's Table 4 counts these as LLM
     *                                calls), or null
     * @param tokensPerQuestion       prompt + completion tokens used, from the model or the response cache, or null
     * @param cachedShare             the share of samples the response cache served, or null
     * @param wallSecondsPerQuestion  each question's wall time as run (grows with the questions answered at once; a
     *                                cached call takes a lookup's time), or null
     * @param modelSecondsPerQuestion the sum of each question's request latencies, a cached request at the latency it
     *                                had when it was made, or null
     * @param questionsAtOnce         the questions the run answered at once, or null
     * @param parseFailures           parse failures over the run
     * @param failed                  questions that failed after every retry (left out of the scores)
     * @param subset                  for a row of part of a run (CRAG's comparison questions), its label; else null
     */
    public record Row(String run, String method, String model, String retrieval, int questions, Map<String, Cell> metrics,
                      Cell judge, Double callsPerQuestion, Double samplesPerQuestion, Double tokensPerQuestion,
                      Double cachedShare, Double wallSecondsPerQuestion, Double modelSecondsPerQuestion,
                      Integer questionsAtOnce, int parseFailures, int failed, String subset) {
    }

    /** A question that failed after every retry, as the run's failure record gives it. */
    public record Failure(String id, String question, String reason, String kind) {
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

    /** Failed questions listed per run at most (the rest are counted). */
    static final int MAX_FAILURES = 1000;
    /** Failed questions the text and Markdown formats list per run. */
    static final int FAILURES_SHOWN = 10;

    private final List<Table> tables;
    private final int resamples;
    private final long seed;
    /** Per run name, its failed questions (the first {@link #MAX_FAILURES}). */
    private final Map<String, List<Failure>> failures;
    /** The baseline's name, or null without one. */
    private final String baseline;
    private final List<PairedComparison.Difference> paired;
    /** Run name to why it is partial ({@link RunDir#partial()}), for the runs that are. */
    private final Map<String, String> partial;
    /** Run name to its shard ({@link RunDir#shard()}, {@code I/N}), for the runs that answered a share of the questions. */
    private final Map<String, String> shards;

    private ComparisonTable(List<Table> tables, int resamples, long seed, Map<String, List<Failure>> failures,
                            String baseline, List<PairedComparison.Difference> paired, Map<String, String> partial,
                            Map<String, String> shards) {
        this.tables = List.copyOf(tables);
        this.resamples = resamples;
        this.seed = seed;
        this.failures = failures;
        this.baseline = baseline;
        this.paired = List.copyOf(paired);
        this.partial = Map.copyOf(partial);
        this.shards = Map.copyOf(shards);
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
        return of(runs, resamples, seed, null);
    }

    /**
     * The table of the runs with, when {@code baseline} is given, each run's paired differences from it on the
     * questions both answered (the baseline's own row, when it is among the runs, gets none).
     */
    public static ComparisonTable of(List<RunDir> runs, int resamples, long seed, RunDir baseline) {
        if (resamples < 1) {
            throw new IllegalArgumentException("--resamples must be >= 1, got " + resamples);
        }
        List<RunDir> named = new ArrayList<>(runs);
        if (baseline != null && runs.stream().noneMatch(r -> same(r, baseline))) {
            named.add(baseline);
        }
        Map<RunDir, String> names = names(named);
        Map<String, List<RunDir>> byDataset = new LinkedHashMap<>();
        for (RunDir r : runs) {
            byDataset.computeIfAbsent(r.dataset(), k -> new ArrayList<>()).add(r);
        }
        List<Table> tables = new ArrayList<>();
        Map<String, List<Failure>> failures = new LinkedHashMap<>();
        Map<String, String> partial = new LinkedHashMap<>(); // by the row's name, as the notes look it up
        runs.stream().filter(r -> r.partial() != null).forEach(r -> partial.put(names.get(r), r.partial()));
        Map<String, String> shards = new LinkedHashMap<>();
        runs.stream().filter(r -> r.shard() != null).forEach(r -> shards.put(names.get(r), r.shard()));
        byDataset.forEach((dataset, group) -> {
            Set<String> metricNames = new LinkedHashSet<>();
            List<Row> rows = new ArrayList<>();
            boolean judged = false;
            for (RunDir r : group) {
                Row row = row(r, names.get(r), null, resamples, seed);
                metricNames.addAll(row.metrics().keySet());
                judged |= row.judge() != null;
                rows.add(row);
                if (!r.failed().isEmpty()) {
                    failures.put(row.run(), r.failures(MAX_FAILURES).stream().map(f -> new Failure(f.id(),
                            RunDir.text(f.question()), RunDir.text(f.failed()), RunDir.text(f.failedKind()))).toList());
                }
                SUBSETS.forEach((type, label) -> {
                    RunDir part = r.subset("question_type", type);
                    if (part.answered() > 0 && part.answered() < r.answered()) {
                        rows.add(row(part, names.get(r) + " [" + label + "]", label, resamples, seed));
                    }
                });
            }
            tables.add(new Table(dataset, List.copyOf(metricNames), judged, rows));
        });
        List<PairedComparison.Difference> paired = baseline == null ? List.of()
                : PairedComparison.against(baseline, runs, names, resamples, seed);
        String baseName = baseline == null ? null : names.entrySet().stream().filter(e -> same(e.getKey(), baseline))
                .map(Map.Entry::getValue).findFirst().orElse(baseline.name());
        return new ComparisonTable(tables, resamples, seed, failures, baseName, paired, partial, shards);
    }

    private static boolean same(RunDir a, RunDir b) {
        return a == b || a.dir().toAbsolutePath().normalize().equals(b.dir().toAbsolutePath().normalize());
    }

    /**
     * Each run's name: its folder's, or, where runs share it (three runs of one dataset in {@code a/hotpotqa},
     * {@code b/hotpotqa}, ...), as many of its parent folders as tell them apart.
     */
    static Map<RunDir, String> names(List<RunDir> runs) {
        List<Path> paths = runs.stream().map(r -> r.dir().toAbsolutePath().normalize()).toList();
        int[] depth = new int[runs.size()];
        java.util.Arrays.fill(depth, 1);
        for (boolean changed = true; changed; ) {
            changed = false;
            Map<String, List<Integer>> byName = new LinkedHashMap<>();
            for (int i = 0; i < runs.size(); i++) {
                byName.computeIfAbsent(tail(paths.get(i), depth[i], runs.get(i)), k -> new ArrayList<>()).add(i);
            }
            for (List<Integer> same : byName.values()) {
                if (same.size() < 2) {
                    continue;
                }
                for (int i : same) {
                    if (depth[i] < paths.get(i).getNameCount()) {
                        depth[i]++;
                        changed = true;
                    }
                }
            }
        }
        Map<RunDir, String> out = new java.util.IdentityHashMap<>();
        for (int i = 0; i < runs.size(); i++) {
            out.put(runs.get(i), tail(paths.get(i), depth[i], runs.get(i)));
        }
        return out;
    }

    /** The last {@code depth} names of the path, "/"-separated (the run's own name for a root folder). */
    private static String tail(Path p, int depth, RunDir run) {
        int n = p.getNameCount();
        if (n == 0) {
            return run.name();
        }
        return p.subpath(Math.max(0, n - depth), n).toString().replace('\\', '/');
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
            String shard = shards.get(r.run());
            if (shard != null) {
                out.add(r.run() + ": shard " + shard + " of the questions (eval --shard), not the whole run; join the"
                        + " shards with veracity merge");
            }
        }
        return out;
    }

    // ---------------------------------------------------------------- rows

    /** The run's official metrics: the keys of {@code metrics_n}, else the summary's metrics less their extras. */
    static List<String> metricNames(Summary summary) {
        List<String> out = new ArrayList<>();
        if (summary.metricsN() != null) {
            out.addAll(summary.metricsN().keySet());
            return out;
        }
        List<String> keys = new ArrayList<>(summary.metricsOrEmpty().keySet());
        for (String k : keys) {
            boolean extra = keys.stream().anyMatch(p -> !p.equals(k) && k.startsWith(p + "."));
            if (!extra) {
                out.add(k);
            }
        }
        return out;
    }

    private static Row row(RunDir r, String name, String subset, int resamples, long seed) {
        Summary summary = r.summary();
        Map<String, Cell> metrics = new LinkedHashMap<>();
        for (String metricName : metricNames(summary)) {
            double[] values = r.scores(metricName).present();
            if (values.length > 0) {
                metrics.put(metricName, Cell.of(Bootstrap.mean(values, resamples, seed)));
                continue;
            }
            Double v = summary.metricsOrEmpty().get(metricName);
            Long n = summary.metricsN() == null ? null : summary.metricsN().get(metricName);
            if (v != null && !(n != null && n == 0)) {
                // No per-question values to resample: the summary's figure, without an interval.
                metrics.put(metricName, new Cell(v, null, null, n != null ? n.intValue() : null, null));
            } else {
                metrics.put(metricName, Cell.NA);
            }
        }
        OptionalDouble prompt = r.perQuestion("prompt_tokens");
        OptionalDouble completion = r.perQuestion("completion_tokens");
        OptionalDouble wallMs = r.perQuestion("wall_ms");
        OptionalDouble modelMs = r.perQuestion("model_ms");
        OptionalDouble atOnce = r.questionsAtOnce();
        return new Row(name, r.method(), r.model(), r.retrieval(), r.n(), metrics, judge(r, resamples, seed),
                value(r.perQuestion("calls")), value(r.perQuestion("samples")),
                prompt.isPresent() || completion.isPresent() ? prompt.orElse(0) + completion.orElse(0) : null,
                value(r.cachedShare()), wallMs.isPresent() ? wallMs.getAsDouble() / 1000 : null,
                modelMs.isPresent() ? modelMs.getAsDouble() / 1000 : null,
                atOnce.isPresent() ? (int) atOnce.getAsDouble() : null, r.parseFailures(), r.failed().size(), subset);
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
     * One line's value of a metric: re-scored from its prediction (or raw response) and gold answers when the metric is
     * known, its judged outcome when the line stored one ({@link dev.veracity.eval.metrics.LineScores}), else
     * the line's stored value; null when the metric skips the line or the line has none.
     */
    static Double value(Metric metric, String name, ResultLine l) {
        if (metric != null && l.gold() != null && l.prediction() != null) {
            ItemScore s = dev.veracity.eval.metrics.LineScores.of(metric, l); // a judged outcome as the line keeps it
            return s.counted() ? s.score() : null;
        }
        return l.metricValue(name);
    }

    private static Cell judge(RunDir r, int resamples, long seed) {
        ResultTable t = r.table();
        double[] parsed = new double[t.size()]; // the parsed verdicts, 1 or 0, in row order
        int verdicts = 0;
        int judgedLines = 0;
        for (int row = 0; row < t.size(); row++) {
            byte outcome = t.judge(row);
            if (outcome == ResultTable.NOT_JUDGED) {
                continue;
            }
            judgedLines++;
            if (outcome == ResultTable.CORRECT) {
                parsed[verdicts++] = 1.0;
            } else if (outcome == ResultTable.INCORRECT) {
                parsed[verdicts++] = 0.0;
            }
        }
        Summary.Judge j = r.summary().judge();
        if (judgedLines == 0) {
            if (j == null) {
                return null;
            }
            // Only the summary: its accuracy, without an interval.
            int correct = j.correct() == null ? 0 : j.correct().intValue();
            int incorrect = j.incorrect() == null ? 0 : j.incorrect().intValue();
            int of = correct + incorrect + (j.unparseable() == null ? 0 : j.unparseable().intValue());
            return correct + incorrect == 0 || j.accuracy() == null
                    ? new Cell(null, null, null, 0, of)
                    : new Cell(j.accuracy(), null, null, correct + incorrect, of);
        }
        if (verdicts == 0) {
            return new Cell(null, null, null, 0, judgedLines);
        }
        Bootstrap.Interval i = Bootstrap.mean(java.util.Arrays.copyOf(parsed, verdicts), resamples, seed);
        return new Cell(i.mean(), i.lo(), i.hi(), i.n(), judgedLines);
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

    /** The baseline's name, or null when the table has no paired differences. */
    public String baseline() {
        return baseline;
    }

    /** Each run's paired differences from the baseline (empty without one). */
    public List<PairedComparison.Difference> paired() {
        return paired;
    }

    /** Per run name, its failed questions (the first {@link #MAX_FAILURES}); runs without any are left out. */
    public Map<String, List<Failure>> failures() {
        return failures;
    }

    /** What the cost columns count, in one paragraph. */
    public String legend() {
        Set<Integer> atOnce = new java.util.TreeSet<>();
        Set<String> unstated = new java.util.TreeSet<>(); // runs written before they said, or partial without a summary
        tables.forEach(t -> t.rows().forEach(r -> {
            if (r.questionsAtOnce() != null) {
                atOnce.add(r.questionsAtOnce());
            } else {
                unstated.add(r.run());
            }
        }));
        String notSaid = unstated.isEmpty() ? "" : unstated.size() == 1 ? "run " + unstated.iterator().next()
                + " does not say" : unstated.size() + " runs do not say";
        String runs = atOnce.isEmpty() ? (unstated.isEmpty() ? "" : " (not stated by these runs)")
                : atOnce.size() == 1 ? " (" + atOnce.iterator().next() + " at once in "
                + (unstated.isEmpty() ? "these runs)" : "the runs that say; " + notSaid + ")")
                : " (" + atOnce.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(", "))
                + " at once: the runs differ" + (unstated.isEmpty() ? ")" : "; " + notSaid + ")");
        return "calls/q: requests to the model per question (one request asks for n samples); samples/q: the samples"
                + " they asked for, the LLM calls of Reasoning Court's Table 4 (a CoT-SC request of 21 samples is 21);"
                + " tokens/q: prompt + completion tokens used, whether the model or the response cache answered;"
                + " cached: the share of samples the cache served; wall s/q: each question's wall time as run, which"
                + " grows with the questions answered at once" + runs + " and takes a lookup's time for a cached call;"
                + " model s/q: the sum of each question's request latencies, a cached request at the latency it had"
                + " when it was made (the same in a rerun from the cache); it leaves out our client's queueing but not"
                + " the server's, so it grows with the questions at once where the server queues requests it cannot"
                + " serve in parallel.";
    }

    /** The table in a format: one document, with the paired differences and failed questions in it. */
    public String format(Format f) {
        return switch (f) {
            case TEXT -> text();
            case CSV -> csv();
            case JSON -> json();
            case MARKDOWN -> markdown();
        };
    }

    /**
     * Aligned text at its full width, one block per dataset, each under its header line; then what the cost columns
     * count, the paired differences from the baseline, and the failed questions.
     */
    public String text() {
        return text(TextTable.UNLIMITED);
    }

    /**
     * The text fitted to a terminal of {@code width} characters: no line is longer. Columns narrow in this order:
     * samples/q, model s/q, cached, tokens/q and wall s/q go; model and retrieval are abbreviated; retrieval,
     * questions (the metrics carry their n), model, calls/q, parse failures and failed go; the metrics lose their n and
     * then their intervals, all together, after a subset row names its subset shortly; the run's name is abbreviated; the
     * judge and then the metrics go last, rightmost first. A line under each table says what was left out; paragraphs
     * are wrapped.
     */
    public String text(int width) {
        return text(width, true);
    }

    /**
     * The tables alone fitted to {@code width}, each with its line of what was left out and its partial runs, without
     * the headings, the legend, the paired differences and the failures: eval's closing lines.
     */
    public String compact(int width) {
        return text(width, false);
    }

    private String text(int width, boolean whole) {
        StringBuilder out = new StringBuilder();
        for (Table t : tables) {
            if (!out.isEmpty() && whole) {
                out.append('\n');
            }
            if (whole) {
                out.append(TextTable.wrap("Dataset " + (t.dataset().isEmpty() ? "(unnamed)" : t.dataset()) + " - "
                        + method(), width, "", "  "));
            }
            TextTable table = new TextTable(columns(t));
            t.rows().forEach(r -> table.rowOfForms(cellForms(t, r)));
            TextTable.Fitted fitted = table.render(width);
            out.append(fitted.text());
            String note = fitted.note(width, whole ? "with --format csv, json or markdown" : "in veracity compare --format csv");
            if (!note.isEmpty()) {
                out.append(TextTable.wrap(note, width, "", "  "));
            }
            partialNotes(t).forEach(n -> out.append(TextTable.wrap(n, width, "* ", "  ")));
        }
        if (!whole) {
            return out.toString();
        }
        if (!tables.isEmpty()) {
            out.append(TextTable.wrap(legend(), width));
        }
        if (baseline != null) {
            out.append('\n').append(PairedComparison.text(baseline, paired, width));
        }
        if (!failures.isEmpty()) {
            out.append('\n').append(failuresText(width));
        }
        return out.toString();
    }

    /** The text table's columns and the order they narrow in ({@link #text(int)}). */
    private static List<TextTable.Column> columns(Table t) {
        // a method column that only repeats each run's name (the demo's runs are named by method) goes first
        boolean methodIsRun = t.rows().stream().allMatch(r -> r.method() != null
                && (r.run().equals(r.method()) || r.run().startsWith(r.method() + " [")));
        TextTable.Column method = TextTable.Column.text("method", 10, 60);
        List<TextTable.Column> c = new ArrayList<>(List.of(
                TextTable.Column.text("run", 12, 39).cutAt(42),
                methodIsRun ? method.dropAt(1) : method,
                TextTable.Column.text("model", 8, 11).dropAt(14),
                TextTable.Column.text("retrieval", 8, 11).dropAt(12),
                TextTable.Column.figure("questions").dropAt(13)));
        t.metrics().forEach(m -> c.add(TextTable.Column.figure(m).shrinkAt(40).dropAt(46)));
        if (t.judged()) {
            c.add(TextTable.Column.figure("judge").shrinkAt(40).dropAt(45));
        }
        String[] costs = {"calls/q", "samples/q", "tokens/q", "cached", "wall s/q", "model s/q", "parse failures", "failed"};
        int[] dropAt = {15, 5, 10, 8, 11, 6, 16, 18};
        for (int i = 0; i < costs.length; i++) {
            c.add(TextTable.Column.figure(costs[i]).dropAt(dropAt[i]));
        }
        return c;
    }

    /**
     * A row's cells, each with its shorter forms: a subset row's run also as "RUN [type]"; a metric without its n,
     * then its mean alone.
     */
    private static List<List<String>> cellForms(Table t, Row r) {
        List<String> full = cells(t, r);
        List<List<String>> out = new ArrayList<>();
        for (String s : full) {
            out.add(List.of(s));
        }
        if (r.subset() != null) {
            String type = SUBSETS.entrySet().stream().filter(e -> e.getValue().equals(r.subset())).map(Map.Entry::getKey)
                    .findFirst().orElse(r.subset());
            String base = r.run().endsWith(" [" + r.subset() + "]")
                    ? r.run().substring(0, r.run().length() - r.subset().length() - 3) : r.run();
            out.set(0, List.of(r.run(), base + " [" + type + "]"));
        }
        int k = TEXT_COLUMNS + 1;
        for (String m : t.metrics()) {
            Cell cell = r.metrics().get(m);
            if (cell != null) {
                out.set(k, List.of(cell(cell), cellWithoutN(cell), fixedOrNa(cell)));
            }
            k++;
        }
        if (t.judged() && r.judge() != null && r.judge().value() != null) {
            out.set(k, List.of(full.get(k), cellWithoutN(r.judge()), fixedOrNa(r.judge())));
        }
        return out;
    }

    /** "0.512 [0.431, 0.590]": a cell without its n. */
    private static String cellWithoutN(Cell c) {
        if (c.value() == null || c.value().isNaN()) {
            return "n/a";
        }
        return c.lo() != null && c.hi() != null
                ? fixed(c.value(), 3) + " [" + fixed(c.lo(), 3) + ", " + fixed(c.hi(), 3) + "]" : fixed(c.value(), 3);
    }

    private static String fixedOrNa(Cell c) {
        return fixed(c.value(), 3);
    }

    /** The columns the text and Markdown formats align left: run, method, model, retrieval. */
    private static final int TEXT_COLUMNS = 4;

    /** The failed questions, the first {@link #FAILURES_SHOWN} per run, one line each (as the report lists them). */
    private String failuresText(int width) {
        StringBuilder sb = new StringBuilder(TextTable.wrap("Failed questions (every retry failed; left out of the"
                + " scores, asked again by the next eval of the run):", width));
        failures.forEach((run, list) -> {
            int total = failedCount(run);
            sb.append(TextTable.wrap(run + ": " + total + " failed", width, "  ", "    "));
            // one line each, the question and the reason cut to the width
            list.stream().limit(FAILURES_SHOWN).forEach(f -> sb.append(TextTable.fit("    " + f.id() + "  "
                    + oneLine(f.question(), 80) + "  " + (f.kind().isEmpty() ? "" : f.kind() + ": ")
                    + oneLine(f.reason(), 160), width)).append('\n'));
            if (total > FAILURES_SHOWN) {
                sb.append("    ... and ").append(total - FAILURES_SHOWN).append(" more\n");
            }
        });
        return sb.toString();
    }

    private int failedCount(String run) {
        return tables.stream().flatMap(t -> t.rows().stream()).filter(r -> r.subset() == null && r.run().equals(run))
                .mapToInt(Row::failed).findFirst().orElse(failures.getOrDefault(run, List.of()).size());
    }

    private static String oneLine(String s, int max) {
        String one = s.replaceAll("\\s+", " ").strip();
        return one.length() <= max ? one : one.substring(0, max - 3) + "...";
    }

    /** Markdown: per dataset a heading, the header line and a table; then the legend, paired differences, failures. */
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
                out.append(c < TEXT_COLUMNS ? " --- |" : " ---: |");
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
        if (!tables.isEmpty()) {
            out.append('\n').append(md(legend())).append('\n');
        }
        if (baseline != null) {
            out.append("\n### Paired differences against ").append(md(baseline)).append("\n\n_")
                    .append(md(PairedComparison.explanation())).append("_\n\n");
            out.append("| run | metric | difference | 95% CI | p | test | n | better | worse |\n");
            out.append("| --- | --- | ---: | ---: | ---: | --- | ---: | ---: | ---: |\n");
            for (PairedComparison.Difference d : paired) {
                out.append("| ").append(String.join(" | ", List.of(md(d.run()), md(d.metric()),
                        String.format(Locale.ROOT, "%+.3f", d.difference().mean()),
                        String.format(Locale.ROOT, "[%+.3f, %+.3f]", d.difference().lo(), d.difference().hi()),
                        d.test().display(), d.test().describe(), String.valueOf(d.difference().n()),
                        String.valueOf(d.better()), String.valueOf(d.worse())))).append(" |\n");
            }
        }
        if (!failures.isEmpty()) {
            out.append("\n### Failed questions\n\n");
            failures.forEach((run, list) -> {
                out.append("- ").append(md(run)).append(": ").append(failedCount(run)).append(" failed\n");
                list.stream().limit(FAILURES_SHOWN).forEach(f -> out.append("  - ").append(md(f.id())).append(": ")
                        .append(md(oneLine(f.question(), 80))).append(" (").append(md(f.kind().isEmpty() ? ""
                                : f.kind() + ": ")).append(md(oneLine(f.reason(), 160))).append(")\n"));
            });
        }
        return out.toString();
    }

    /**
     * CSV (RFC 4180): one header row and one row per run, every dataset's columns in one table (blank where a run
     * lacks a metric or a figure is n/a); intervals in {@code NAME.lo} / {@code NAME.hi}, counts in {@code NAME.n}.
     * With a baseline, each metric's paired difference from it goes in {@code NAME.diff}, {@code NAME.diff.lo},
     * {@code NAME.diff.hi}, {@code NAME.p}, {@code NAME.p_test}, {@code NAME.better}, {@code NAME.worse} (blank in the
     * baseline's row), so the file stays one table.
     */
    public String csv() {
        Set<String> metrics = new LinkedHashSet<>();
        boolean judged = false;
        for (Table t : tables) {
            metrics.addAll(t.metrics());
            judged |= t.judged();
        }
        Set<String> pairedMetrics = new LinkedHashSet<>();
        paired.forEach(d -> pairedMetrics.add(d.metric()));
        List<String> header = new ArrayList<>(List.of("dataset", "run", "method", "model", "retrieval", "questions"));
        for (String m : metrics) {
            header.addAll(List.of(m, m + ".lo", m + ".hi", m + ".n"));
        }
        if (judged) {
            header.addAll(List.of("judge", "judge.lo", "judge.hi", "judge.parsed", "judge.n"));
        }
        header.addAll(List.of("calls_per_question", "samples_per_question", "tokens_per_question", "cached_share",
                "wall_seconds_per_question", "model_seconds_per_question", "questions_at_once", "parse_failures",
                "failed", "bootstrap_resamples", "bootstrap_seed"));
        if (baseline != null) {
            header.add("baseline");
            for (String m : pairedMetrics) {
                header.addAll(List.of(m + ".diff", m + ".diff.lo", m + ".diff.hi", m + ".p", m + ".p_test",
                        m + ".better", m + ".worse"));
            }
        }
        StringBuilder out = new StringBuilder();
        out.append(String.join(",", header.stream().map(ComparisonTable::csvField).toList())).append("\r\n");
        for (Table t : tables) {
            for (Row r : t.rows()) {
                List<String> f = new ArrayList<>(List.of(t.dataset(), r.run(), r.method(), r.model(), r.retrieval(),
                        String.valueOf(r.questions())));
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
                f.addAll(List.of(raw(r.callsPerQuestion()), raw(r.samplesPerQuestion()), raw(r.tokensPerQuestion()),
                        raw(r.cachedShare()), raw(r.wallSecondsPerQuestion()), raw(r.modelSecondsPerQuestion()),
                        r.questionsAtOnce() == null ? "" : r.questionsAtOnce().toString(),
                        String.valueOf(r.parseFailures()), String.valueOf(r.failed()), String.valueOf(resamples),
                        String.valueOf(seed)));
                if (baseline != null) {
                    f.add(baseline);
                    for (String m : pairedMetrics) {
                        PairedComparison.Difference d = r.subset() != null ? null : paired.stream()
                                .filter(x -> x.run().equals(r.run()) && x.metric().equals(m)).findFirst().orElse(null);
                        f.addAll(d == null ? List.of("", "", "", "", "", "", "")
                                : List.of(raw(d.difference().mean()), raw(d.difference().lo()), raw(d.difference().hi()),
                                        raw(d.test().p()), d.test().test(), String.valueOf(d.better()),
                                        String.valueOf(d.worse())));
                    }
                }
                out.append(String.join(",", f.stream().map(ComparisonTable::csvField).toList())).append("\r\n");
            }
        }
        return out.toString();
    }

    /**
     * JSON: the bootstrap settings, what the cost columns count, per dataset the rows with every cell's value,
     * interval and n and each run's failed questions; with a baseline, {@code paired}: its differences.
     */
    public String json() {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode b = root.putObject("bootstrap");
        b.put("method", "percentile");
        b.put("level", Bootstrap.LEVEL);
        b.put("resamples", resamples);
        b.put("seed", seed);
        root.put("legend", legend());
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
                rn.put("model", r.model());
                rn.put("retrieval", r.retrieval());
                rn.put("questions", r.questions());
                if (partial.containsKey(r.run())) {
                    rn.put("partial", partial.get(r.run()));
                }
                if (shards.containsKey(r.run())) {
                    rn.put("shard", shards.get(r.run()));
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
                put(rn, "samples_per_question", r.samplesPerQuestion());
                put(rn, "tokens_per_question", r.tokensPerQuestion());
                put(rn, "cached_share", r.cachedShare());
                put(rn, "wall_seconds_per_question", r.wallSecondsPerQuestion());
                put(rn, "model_seconds_per_question", r.modelSecondsPerQuestion());
                if (r.questionsAtOnce() == null) {
                    rn.putNull("questions_at_once");
                } else {
                    rn.put("questions_at_once", r.questionsAtOnce());
                }
                rn.put("parse_failures", r.parseFailures());
                rn.put("failed", r.failed());
                if (r.subset() == null && failures.containsKey(r.run())) {
                    ArrayNode fs = rn.putArray("failures");
                    failures.get(r.run()).forEach(f -> fs.addObject().put("id", f.id()).put("question", f.question())
                            .put("reason", f.reason()).put("kind", f.kind()));
                }
            }
        }
        if (baseline != null) {
            ObjectNode p = root.putObject("paired");
            p.put("baseline", baseline);
            p.put("method", PairedComparison.explanation());
            ArrayNode ds = p.putArray("differences");
            for (PairedComparison.Difference d : paired) {
                ObjectNode dn = ds.addObject();
                dn.put("run", d.run());
                dn.put("metric", d.metric());
                put(dn, "difference", d.difference().mean());
                put(dn, "lo", d.difference().lo());
                put(dn, "hi", d.difference().hi());
                dn.put("n", d.difference().n());
                put(dn, "p", d.test().p());
                dn.put("p_display", d.test().display());
                dn.put("test", d.test().test());
                dn.put("exact", d.test().exact());
                dn.put("better", d.better());
                dn.put("worse", d.worse());
                ArrayNode bi = dn.putArray("better_ids");
                d.betterIds().forEach(bi::add);
                ArrayNode wi = dn.putArray("worse_ids");
                d.worseIds().forEach(wi::add);
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
        List<String> h = new ArrayList<>(List.of("run", "method", "model", "retrieval", "questions"));
        h.addAll(t.metrics());
        if (t.judged()) {
            h.add("judge");
        }
        h.addAll(List.of("calls/q", "samples/q", "tokens/q", "cached", "wall s/q", "model s/q", "parse failures",
                "failed"));
        return h;
    }

    private static List<String> cells(Table t, Row r) {
        List<String> c = new ArrayList<>(List.of(r.run(), r.method(), r.model().isEmpty() ? "-" : r.model(),
                r.retrieval().isEmpty() ? "-" : r.retrieval(), String.valueOf(r.questions())));
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
        c.add(fixed(r.samplesPerQuestion(), 2));
        c.add(fixed(r.tokensPerQuestion(), 1));
        c.add(percent(r.cachedShare()));
        c.add(fixed(r.wallSecondsPerQuestion(), 2));
        c.add(fixed(r.modelSecondsPerQuestion(), 2));
        c.add(String.valueOf(r.parseFailures()));
        c.add(String.valueOf(r.failed()));
        return c;
    }

    /** A share as a whole percentage ("37%"), "n/a" when unknown. */
    static String percent(Double share) {
        return share == null || share.isNaN() ? "n/a" : String.format(Locale.ROOT, "%.0f%%", share * 100);
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
