package dev.veracity.eval.report;

import dev.veracity.eval.run.ResultsFile;

import com.fasterxml.jackson.databind.JsonNode;
import dev.veracity.eval.results.ResultLine;
import dev.veracity.plugin.Registry;
import dev.veracity.eval.results.ResultsJson;
import dev.veracity.eval.results.RunConfiguration;
import dev.veracity.eval.results.Summary;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.samskivert.mustache.Mustache;
import com.samskivert.mustache.Template;
import dev.veracity.trace.CallRecord;
import dev.veracity.trace.TraceStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * A static HTML report of evaluation runs: a comparison table with charts ({@code index.html}), each run's
 * questions ({@code <run>/index.html}) and each question's full agent transcript ({@code <run>/q/<id>.html}).
 *
 * <p>The report opens offline: no page loads a URL outside the report's folder. Each page has its CSS inline; the
 * index, dataset and run pages load the scripts of the report's {@code assets/} folder ({@link ReportAssets}: sortable,
 * filterable tables and interactive charts), written once per report. All run content (questions, predictions,
 * prompts, model outputs, errors) is untrusted and HTML-escaped by the templates (and JSON-escaped in the charts'
 * data, {@link MetricCharts#json}); file names are derived from ids through {@link #safeName}, so no id can escape
 * the output folder.
 */
public final class HtmlReport {

    static {
        System.setProperty("java.awt.headless", "true");
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern UNSAFE = Pattern.compile("[^A-Za-z0-9_-]");
    private static final int MAX_NAME = 80;
    /** Questions (and failures) a run page lists at most: a page of 100,000 questions must still open in a browser. */
    static final int MAX_LISTED = 1000;
    private static final String RESOURCES = "/dev/veracity/eval/report/";
    private static final Mustache.Compiler MUSTACHE = Mustache.compiler().escapeHTML(true).defaultValue("")
            .zeroIsFalse(true).emptyStringIsFalse(true);

    private HtmlReport() {
    }

    /**
     * Writes the report of {@code runDirs} into {@code outDir} (created if needed) and returns the path of its
     * {@code index.html}.
     */
    public static Path write(List<Path> runDirs, Path outDir) {
        return write(runDirs, outDir, null);
    }

    /**
     * Writes the report as {@link #write(List, Path)} does, with one page per dataset whose paired differences are
     * taken from {@code baselineDir} (added to the runs when not among them; null: each dataset's first run).
     */
    public static Path write(List<Path> runDirs, Path outDir, Path baselineDir) {
        return write(runDirs, outDir, baselineDir, note -> { });
    }

    /**
     * Writes the report as {@link #write(List, Path, Path)} does, telling {@code partialRuns} of each run read as
     * partial (an interrupted eval: {@link RunDir#partial()}), which the pages mark too.
     */
    public static Path write(List<Path> runDirs, Path outDir, Path baselineDir, Consumer<String> partialRuns) {
        return write(runDirs, outDir, baselineDir, partialRuns, (done, of) -> { });
    }

    /**
     * Writes the report as {@link #write(List, Path, Path, Consumer)} does, telling {@code steps} how far it has come:
     * (done, of) after the runs are read, after each run's pages, after the dataset pages and after the charts.
     */
    public static Path write(List<Path> runDirs, Path outDir, Path baselineDir, Consumer<String> partialRuns,
                             java.util.function.BiConsumer<Integer, Integer> steps) {
        List<Path> dirs = new ArrayList<>(runDirs);
        if (baselineDir != null && dirs.stream().noneMatch(d -> same(d, baselineDir))) {
            dirs.addFirst(baselineDir);
        }
        List<RunDir> runs = ComparisonTable.load(dirs);
        runs.stream().filter(r -> r.partial() != null).forEach(r -> partialRuns.accept(r.name() + " is a partial run, "
                + r.answered() + " questions answered so far (" + r.partial() + ")"));
        RunDir baseline = baselineDir == null ? null
                : runs.stream().filter(r -> same(r.dir(), baselineDir)).findFirst().orElseThrow();
        int stepsOf = runs.size() + 2;
        steps.accept(0, stepsOf);
        try {
            Files.createDirectories(outDir);
        } catch (IOException e) {
            throw new UncheckedIOException("creating " + outDir + ": " + e.getMessage(), e);
        }
        String css = resource("style.css");
        ReportAssets.copy(outDir, RESOURCES);
        List<String> slugs = new ArrayList<>();
        Set<String> used = new HashSet<>();
        used.add("index");
        used.add(ReportAssets.FOLDER); // the scripts' folder: a run named "assets" gets another folder
        for (RunDir run : runs) {
            slugs.add(unique(safeName(run.name()), used));
        }
        List<DatasetPage.Linked> linked = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            linked.add(new DatasetPage.Linked(runs.get(i), slugs.get(i)));
        }
        // the dataset pages first: a run page writes the transcripts they link besides those it lists
        List<DatasetPage.Plan> plans = DatasetPage.plan(linked, baseline, used, Bootstrap.DEFAULT_RESAMPLES,
                Bootstrap.DEFAULT_SEED);
        Map<String, Set<String>> links = new LinkedHashMap<>();
        plans.forEach(p -> p.links().forEach((slug, ids) -> links.computeIfAbsent(slug, k -> new HashSet<>()).addAll(ids)));
        Map<String, Map<String, String>> files = new LinkedHashMap<>();
        for (int i = 0; i < runs.size(); i++) {
            files.put(slugs.get(i), writeRun(runs.get(i), slugs.get(i), outDir.resolve(slugs.get(i)), css,
                    links.getOrDefault(slugs.get(i), Set.of())));
            steps.accept(i + 1, stepsOf);
        }
        Map<String, String> colours = new LinkedHashMap<>(); // a run's colour on every chart of the report
        for (int i = 0; i < slugs.size(); i++) {
            colours.put(slugs.get(i), RunColours.of(i));
        }
        List<Map<String, Object>> datasets = DatasetPage.writeAll(plans, outDir, css, files, colours);
        steps.accept(runs.size() + 1, stepsOf);
        List<Map<String, Object>> charts = writeCharts(runs, slugs, outDir);
        steps.accept(stepsOf, stepsOf);
        // one chart per dataset and metric: a dataset's metrics never share an axis with another's
        List<MetricCharts.Chart> metricCharts = plans.stream().flatMap(p -> p.charts(colours).stream()).toList();
        List<MetricCharts.Legend> legend = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            legend.add(MetricCharts.Legend.of(slugs.get(i), runs.get(i).method(), colours.get(slugs.get(i))));
        }
        List<String> sizeNotes = plans.stream().filter(p -> !p.sizeNote().isEmpty())
                .map(p -> p.dataset() + ": " + p.sizeNote()).toList();
        List<String> metricNames = new ArrayList<>(new LinkedHashSet<>(runs.stream()
                .flatMap(r -> r.summary().metricsOrEmpty().keySet().stream())
                .toList()));
        List<Map<String, Object>> rows = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            RunDir r = runs.get(i);
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("slug", slugs.get(i));
            row.put("method", r.method());
            row.put("dataset", r.dataset());
            row.put("data", r.data());
            row.put("model", r.model());
            row.put("baseUrl", str(r.summary().llmBaseUrl()));
            row.put("traceRun", str(r.summary().traceRun()));
            row.put("started", str(r.summary().started()));
            row.put("finished", str(r.summary().finished()));
            row.put("wallSeconds", number(r.summary().wallSeconds() == null ? OptionalDouble.empty()
                    : OptionalDouble.of(r.summary().wallSeconds()), 1));
            row.put("dir", r.dir().toString());
            row.put("n", r.n());
            row.put("partial", r.partial());
            row.put("skipped", r.skippedLines());
            row.put("failed", r.failed().isEmpty() ? null : r.failed().size());
            row.put("failedFlag", r.failed().isEmpty() && r.errors() == 0 ? "0" : "1");
            row.put("parseFlag", r.parseFailures() > 0 ? "1" : "0");
            row.put("metrics", metricNames.stream().map(m -> {
                Double v = r.metrics().get(m);
                // a metric the run has but over no question (null in summary.json) is n/a, not blank or 0
                return v != null ? metric(v) : r.summary().metricsOrEmpty().containsKey(m) ? "n/a" : "";
            }).toList());
            row.put("calls", number(r.perQuestion("calls"), 2));
            row.put("samples", orNa(r.perQuestion("samples"), 2));
            row.put("cached", ComparisonTable.percent(r.cachedShare().isPresent() ? r.cachedShare().getAsDouble() : null));
            row.put("retrieval", r.retrieval());
            OptionalDouble prompt = r.perQuestion("prompt_tokens");
            OptionalDouble completion = r.perQuestion("completion_tokens");
            row.put("tokens", prompt.isPresent() || completion.isPresent()
                    ? number(prompt.orElse(0) + completion.orElse(0), 1) : "");
            row.put("tokensDetail", "prompt " + number(prompt, 1) + ", completion " + number(completion, 1));
            row.put("wallMs", number(r.perQuestion("wall_ms"), 1));
            row.put("criticalPathMs", number(r.perQuestion("critical_path_ms"), 1));
            row.put("modelMs", orNa(r.perQuestion("model_ms"), 1));
            OptionalDouble modelMs = r.perQuestion("model_ms");
            row.put("modelSeconds", modelMs.isPresent() ? number(modelMs.getAsDouble() / 1000, 2) : "n/a");
            row.put("atOnce", number(r.questionsAtOnce(), 0));
            row.put("parseFailures", String.valueOf(r.parseFailures()));
            row.put("errors", String.valueOf(r.errors()));
            OptionalDouble wall = r.perQuestion("wall_ms");
            row.put("seconds", wall.isPresent() ? number(wall.getAsDouble() / 1000, 2) : "");
            List<Map<String, Object>> roles = roles(r.summary());
            row.put("roles", roles);
            row.put("hasRoles", !roles.isEmpty());
            List<Map<String, Object>> scenarios = scenarios(r.summary());
            row.put("scenarios", scenarios);
            row.put("hasScenarios", !scenarios.isEmpty());
            row.put("scenarioMetric", r.summary().judgeScenarios() == null ? "" : str(r.summary().judgeScenarios().metric()));
            rows.add(row);
        }
        Map<String, Object> page = new LinkedHashMap<>();
        page.put("css", css);
        page.put("scripts", ReportAssets.scriptTags(0));
        page.put("runCount", String.valueOf(runs.size()));
        page.put("methodNames", runs.stream().map(RunDir::method).distinct().toList());
        page.put("datasetNames", runs.stream().map(RunDir::dataset).distinct().toList());
        page.put("sizeNotes", sizeNotes);
        page.put("metricCharts", DatasetPage.chartViews(metricCharts));
        page.put("hasMetricCharts", !metricCharts.isEmpty());
        page.put("legend", legend);
        page.put("chartData", MetricCharts.json(metricCharts, legend));
        page.put("generated", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        page.put("metricNames", metricNames);
        page.put("runs", rows);
        page.put("datasets", datasets);
        page.put("hasDatasets", !datasets.isEmpty());
        page.put("charts", charts);
        page.put("hasCharts", !charts.isEmpty());
        page.put("anyRoles", rows.stream().anyMatch(r -> Boolean.TRUE.equals(r.get("hasRoles"))));
        page.put("anyScenarios", rows.stream().anyMatch(r -> Boolean.TRUE.equals(r.get("hasScenarios"))));
        Path index = outDir.resolve("index.html");
        render("index.mustache", page, index);
        return index;
    }

    // ---------------------------------------------------------------- charts

    private static List<Map<String, Object>> writeCharts(List<RunDir> runs, List<String> slugs, Path outDir) {
        List<Map<String, Object>> charts = new ArrayList<>();
        if (runs.isEmpty()) {
            return charts;
        }
        // the metrics are the interactive charts (MetricCharts), one per dataset and metric; these PNGs are the
        // cost figures and the papers' figures
        Map<String, List<Double>> calls = new LinkedHashMap<>();
        calls.put("calls (requests) / question", runs.stream()
                .map(r -> value(r.perQuestion("calls"))).toList());
        calls.put("samples / question", runs.stream()
                .map(r -> value(r.perQuestion("samples"))).toList());
        chart(charts, outDir, "calls.png", "Model requests and samples per question", "per question", slugs, calls,
                "bar chart of model requests and the samples they asked for, per question per run");

        Map<String, List<Double>> tokens = new LinkedHashMap<>();
        tokens.put("prompt tokens / question", runs.stream()
                .map(r -> value(r.perQuestion("prompt_tokens"))).toList());
        tokens.put("completion tokens / question", runs.stream()
                .map(r -> value(r.perQuestion("completion_tokens"))).toList());
        chart(charts, outDir, "tokens.png", "Tokens per question", "tokens", slugs, tokens,
                "bar chart of prompt and completion tokens per question per run");

        Map<String, List<Double>> latency = new LinkedHashMap<>();
        latency.put("wall ms / question", runs.stream()
                .map(r -> value(r.perQuestion("wall_ms"))).toList());
        latency.put("critical path ms / question", runs.stream()
                .map(r -> value(r.perQuestion("critical_path_ms"))).toList());
        latency.put("model ms / question", runs.stream()
                .map(r -> value(r.perQuestion("model_ms"))).toList());
        chart(charts, outDir, "latency.png", "Latency per question", "ms", slugs, latency,
                "bar chart of wall, critical-path and model milliseconds per question per run");

        // judged accuracy over parsed verdicts; a run whose judge parsed nothing has no bar
        Map<String, List<Double>> judge = new LinkedHashMap<>();
        judge.put("judge accuracy (%)", runs.stream().map(r -> {
            Summary.Judge j = r.summary().judge();
            boolean parsed = j != null && (j.parsed() == null || j.parsed() > 0);
            return parsed && j.accuracy() != null ? j.accuracy() * 100 : null;
        }).toList());
        chart(charts, outDir, "judge.png", "Judged accuracy per run (%)", "%", slugs, judge,
                "bar chart of the judge's accuracy over parsed verdicts per run");

        // the methods' own signals (mean per question), one group per signal
        List<String> signalNames = new ArrayList<>(new LinkedHashSet<>(runs.stream()
                .flatMap(r -> r.summary().signalsOrEmpty().keySet().stream()).toList()));
        Map<String, List<Double>> signals = new LinkedHashMap<>();
        for (int i = 0; i < runs.size(); i++) {
            Map<String, Double> sig = runs.get(i).summary().signalsOrEmpty();
            signals.put(slugs.get(i), signalNames.stream().map(sig::get).toList());
        }
        chart(charts, outDir, "signals.png", "Method signals (mean per question)", "mean", signalNames, signals,
                "bar chart of each method signal's mean per question per run");
        majorityAtK(charts, runs, outDir);
        return charts;
    }

    /**
     * TruthRL's figure 2: runs of one method on one dataset that differ in the {@code samples} option (majority@k),
     * their accuracy, abstention and hallucination (the {@code truthfulness-answer} extras) against k.
     */
    private static void majorityAtK(List<Map<String, Object>> charts, List<RunDir> runs, Path outDir) {
        Map<String, java.util.TreeMap<Integer, RunDir>> groups = new LinkedHashMap<>();
        for (RunDir r : runs) {
            RunConfiguration config = r.summary().config();
            Object samples = config == null || config.methodOptions() == null ? null : config.methodOptions().get("samples");
            String k = samples == null ? null : String.valueOf(samples);
            if (k == null || !r.summary().metricsOrEmpty().containsKey("truthfulness-answer.accuracy")) {
                continue;
            }
            try {
                groups.computeIfAbsent(r.method() + " on " + r.dataset(), x -> new java.util.TreeMap<>())
                        .put(Integer.parseInt(k), r);
            } catch (NumberFormatException e) {
                // not a count: not a point of the curve
            }
        }
        int n = 0;
        for (Map.Entry<String, java.util.TreeMap<Integer, RunDir>> g : groups.entrySet()) {
            if (g.getValue().size() < 2) {
                continue;
            }
            List<String> ks = g.getValue().keySet().stream().map(k -> "k=" + k).toList();
            Map<String, List<Double>> series = new LinkedHashMap<>();
            for (String part : List.of("accuracy", "abstention", "hallucination")) {
                series.put(part + " (%)", g.getValue().values().stream().map(r -> {
                    Double v = r.summary().metricsOrEmpty().get("truthfulness-answer." + part);
                    return v != null ? v * 100 : null;
                }).toList());
            }
            chart(charts, outDir, "majority-at-k-" + (n++) + ".png", "Majority@k: " + g.getKey(), "%", ks, series,
                    "bar chart of accuracy, abstention and hallucination against the number of samples k (TruthRL figure 2)");
        }
    }

    private static void chart(List<Map<String, Object>> charts, Path outDir, String file, String title, String yTitle,
                              List<String> categories, Map<String, List<Double>> series, String alt) {
        if (Charts.bars(outDir.resolve(file), title, yTitle, categories, series)) {
            charts.add(Map.of("file", file, "alt", alt, "width", Charts.WIDTH, "height", Charts.HEIGHT));
        }
    }

    private static List<String> iterable(java.util.Iterator<String> it) {
        List<String> out = new ArrayList<>();
        it.forEachRemaining(out::add);
        return out;
    }

    private static Double value(OptionalDouble v) {
        return v.isPresent() ? v.getAsDouble() : null;
    }

    // ---------------------------------------------------------------- run pages

    /** Whether two paths name the same folder. */
    static boolean same(Path a, Path b) {
        return a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize());
    }

    /**
     * Writes the run's pages and returns each written question id's transcript file name inside {@code dir/q}. The
     * run page lists the first {@link #MAX_LISTED} questions in the dataset's order ({@link ResultTable#datasetOrder}:
     * the lines are in the order the questions finished), then the failures; transcripts are written for those and
     * for the questions in {@code linked} (the dataset pages' links), so a run of 100,000 questions makes a page
     * that opens and a bounded number of files.
     */
    private static Map<String, String> writeRun(RunDir run, String slug, Path dir, String css, Set<String> linked) {
        Map<String, String> files = new LinkedHashMap<>();
        Path qDir = dir.resolve("q");
        try {
            Files.createDirectories(qDir);
        } catch (IOException e) {
            throw new UncheckedIOException("creating " + qDir + ": " + e.getMessage(), e);
        }
        RunTraces traces = RunTraces.open(run);
        try {
            String main = run.mainMetric();
            Set<String> usedFiles = new HashSet<>();
            int listed = Math.min(MAX_LISTED, run.answered());
            int[] order = run.table().datasetOrder();
            int[] rank = new int[order.length];
            for (int k = 0; k < order.length; k++) {
                rank[order[k]] = k;
            }
            @SuppressWarnings("unchecked")
            Map<String, Object>[] listedRows = new Map[listed];
            BitSet rows = run.table().rowsOf(linked);
            for (int k = 0; k < listed; k++) {
                rows.set(order[k]);
            }
            run.forEachRow(rows, (row, r) -> {
                int place = run.table().position(row);
                int index = place >= 0 ? place + 1 : rank[row] + 1;
                String id = str(r.id());
                String file = unique(safeName(id.isEmpty() ? "q" + index : id), usedFiles) + ".html";
                files.putIfAbsent(id, file);
                List<CallRecord> calls = List.of();
                // A resumed run answers questions in several invocations: each line names the one that answered it.
                String lineRun = str(r.traceRun());
                String questionRun = lineRun.isEmpty() ? traces.run() : lineRun;
                String questionNote = lineRun.isEmpty() ? traces.note()
                        : traces.note().startsWith("No traces.db") ? traces.note() : "";
                if (traces.store() != null && questionNote.isEmpty()) {
                    try {
                        calls = traces.store().calls(questionRun, id);
                        if (calls.isEmpty()) {
                            questionNote = "No traced calls for this question in run " + questionRun + ".";
                        }
                    } catch (RuntimeException e) {
                        questionNote = "Reading the calls of this question failed: " + e.getMessage();
                    }
                }
                if (rank[row] < listed) {
                    Double m = r.metricValue(main);
                    int parseFailures = r.parseFailures() == null ? 0 : r.parseFailures().size();
                    Map<String, Object> q = new LinkedHashMap<>();
                    q.put("index", index);
                    q.put("id", id);
                    q.put("file", file);
                    q.put("question", str(r.question()));
                    q.put("prediction", str(r.prediction()));
                    q.put("gold", String.join("; ", r.goldOrEmpty()));
                    q.put("metric", m != null ? plain(m) : "");
                    q.put("metricValue", m != null ? String.valueOf(m) : "");
                    q.put("metricClass", m != null ? (m >= 0.999 ? "good" : m <= 0 ? "bad" : "partial") : "");
                    q.put("calls", r.calls() != null ? r.calls().toString()
                            : traces.store() != null ? String.valueOf(calls.size()) : "");
                    q.put("parseFailures", String.valueOf(parseFailures));
                    q.put("parseFlag", parseFailures > 0);
                    q.put("score", m == null ? "none" : m >= 0.999 ? "right" : m <= 0 ? "wrong" : "partly");
                    q.put("status", r.error() != null ? "error" : parseFailures > 0 ? "parse failure" : "answered");
                    q.put("error", str(r.error()));
                    listedRows[rank[row]] = q;
                }
                writeQuestion(run, slug, r, id, calls, questionNote, questionRun, css, qDir.resolve(file));
            });
            Map<String, Object> page = new LinkedHashMap<>();
            page.put("css", css);
            page.put("scripts", ReportAssets.scriptTags(1));
            page.put("slug", slug);
            page.put("method", run.method());
            page.put("dataset", run.dataset());
            page.put("model", run.model());
            page.put("n", String.valueOf(run.n()));
            page.put("partial", run.partial());
            page.put("mainMetric", main.isEmpty() ? "metric" : main);
            page.put("mainValue", main.isEmpty() ? "" : metric(run.metrics().get(main)));
            page.put("skipped", run.skippedLines());
            List<String> failed = run.failed();
            List<Map<String, Object>> questions = new ArrayList<>(List.of(listedRows));
            // the failed questions are rows too (the "failed" filter shows them), in the dataset's order among the rest
            for (ResultLine f : run.failures(MAX_LISTED)) {
                Map<String, Object> q = new LinkedHashMap<>();
                q.put("index", f.position() != null ? f.position() + 1 : "");
                q.put("id", str(f.id()));
                q.put("question", str(f.question()));
                q.put("status", "failed");
                q.put("error", "failed: " + str(f.failed()));
                q.put("parseFailures", "0");
                q.put("metricValue", "");
                q.put("score", "none");
                questions.add(q);
            }
            if (questions.stream().anyMatch(q -> "failed".equals(q.get("status")) && q.get("index") instanceof Integer)) {
                questions.sort(java.util.Comparator.comparingInt(q -> q.get("index") instanceof Integer i ? i
                        : Integer.MAX_VALUE));
            }
            page.put("failedCount", String.valueOf(failed.size()));
            page.put("hasFailed", !failed.isEmpty());
            page.put("moreFailed", failed.size() > MAX_LISTED ? String.valueOf(failed.size() - MAX_LISTED) : "");
            page.put("traceNote", traces.note());
            page.put("questions", questions);
            page.put("hasQuestions", !questions.isEmpty());
            page.put("listed", String.valueOf(listed));
            page.put("answered", String.valueOf(run.answered()));
            page.put("moreQuestions", run.answered() > listed ? String.valueOf(run.answered() - listed) : "");
            List<Map<String, Object>> provenance = provenance(run.summary());
            page.put("provenance", provenance);
            page.put("hasProvenance", !provenance.isEmpty());
            render("run.mustache", page, dir.resolve("index.html"));
            return files;
        } finally {
            closeQuietly(traces.store());
        }
    }

    /**
     * A run's trace store as its pages read it: the store (null when absent or unreadable), the trace run its
     * questions are under, and a note saying why transcripts are missing ("" when they are not).
     */
    private record RunTraces(TraceStore store, String run, String note) {

        static RunTraces open(RunDir run) {
            String traceRun = str(run.summary().traceRun());
            if (!Files.isRegularFile(run.traces())) {
                return new RunTraces(null, traceRun,
                        "No traces.db in " + run.dir() + ": transcripts are not available for this run.");
            }
            TraceStore store = null;
            try {
                store = TraceStore.open(run.traces());
                if (traceRun.isEmpty()) {
                    List<String> ids = store.runs();
                    if (ids.size() != 1) {
                        return new RunTraces(store, traceRun, "summary.json names no trace_run and traces.db holds "
                                + ids.size() + " runs: transcripts are not available for this run.");
                    }
                    traceRun = ids.get(0);
                }
                return new RunTraces(store, traceRun, "");
            } catch (RuntimeException e) {
                closeQuietly(store);
                return new RunTraces(null, traceRun, "traces.db could not be read: " + e.getMessage());
            }
        }
    }

    /**
     * How the run was made, as summary.json records it: the build, the configuration (method options, dataset
     * file and checksum, model, documents), the retrieval record, the sampling settings per role. One row per
     * field, nested values as compact JSON.
     */
    /** Reasoning Court's Table 4 per role: calls, samples, wall and model seconds per question of each role of the run. */
    static List<Map<String, Object>> roles(Summary summary) {
        List<Map<String, Object>> out = new ArrayList<>();
        (summary.roles() == null ? Map.<String, Summary.Role>of() : summary.roles()).forEach((role, r) -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("role", role);
            m.put("calls", number(orZero(r.callsPerQuestion()), 2));
            m.put("samples", r.samplesPerQuestion() != null ? number(r.samplesPerQuestion(), 2) : "n/a");
            m.put("seconds", number(orZero(r.secondsPerQuestion()), 2));
            m.put("modelSeconds", r.modelSecondsPerQuestion() != null ? number(r.modelSecondsPerQuestion(), 2) : "n/a");
            out.add(m);
        });
        return out;
    }

    private static double orZero(Double v) {
        return v == null ? 0 : v;
    }

    /** Reasoning Court's Table 3: the judge's accuracy per scenario of its agents' answers. */
    static List<Map<String, Object>> scenarios(Summary summary) {
        List<Map<String, Object>> out = new ArrayList<>();
        Summary.Scenarios js = summary.judgeScenarios();
        if (js == null) {
            return out;
        }
        Map<String, String> names = Map.of("one_correct", "one agent right, another wrong (first scenario)",
                "all_wrong_different", "all wrong, different or empty answers (second scenario)",
                "all_wrong_same", "all wrong with the same answer (third scenario)",
                "all_correct", "all agents right");
        js.byName().forEach((key, s) -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("scenario", names.get(key));
            m.put("cases", s == null ? 0 : (int) s.cases());
            m.put("correct", s == null ? 0 : (int) s.correct());
            m.put("accuracy", s != null && s.accuracy() != null ? metric(s.accuracy()) : "n/a");
            out.add(m);
        });
        return out;
    }

    /** The summary's provenance sections (build, config, retrieval, sampling), one row per field. */
    static List<Map<String, Object>> provenance(Summary summary) {
        List<Map<String, Object>> rows = new ArrayList<>();
        Map<String, Object> sections = new LinkedHashMap<>();
        sections.put("build", summary.build());
        sections.put("config", summary.config());
        sections.put("retrieval", summary.retrieval());
        sections.put("sampling", summary.sampling());
        sections.forEach((section, value) -> {
            if (value == null) {
                return;
            }
            ResultsJson.tree(value).properties().forEach(e -> rows.add(Map.of("section", section, "key", e.getKey(),
                    "value", e.getValue().isValueNode() ? e.getValue().asText() : e.getValue().toString())));
        });
        return rows;
    }

    private static void writeQuestion(RunDir run, String slug, ResultLine r, String id, List<CallRecord> calls,
                                      String traceNote, String traceRun, String css, Path file) {
        Map<String, Object> page = new LinkedHashMap<>();
        page.put("css", css);
        page.put("slug", slug);
        page.put("method", run.method());
        page.put("traceRun", traceRun);
        page.put("id", id);
        page.put("question", str(r.question()));
        page.put("prediction", str(r.prediction()));
        Map<String, List<String>> lists = new LinkedHashMap<>();
        lists.put("answers", r.answers());
        lists.put("gold", r.gold());
        lists.put("wrong", r.wrong());
        lists.forEach((k, v) -> {
            List<String> values = v == null ? List.of() : v;
            page.put(k, values);
            page.put("has" + Character.toUpperCase(k.charAt(0)) + k.substring(1), !values.isEmpty());
        });
        List<Map<String, Object>> metrics = new ArrayList<>();
        r.metricsOrEmpty().forEach((k, v) -> metrics.add(Map.of("name", k,
                "value", v instanceof Number x ? plain(x.doubleValue()) : v == null ? "" : ResultsJson.tree(v).isValueNode()
                        ? ResultsJson.tree(v).asText() : ResultsJson.tree(v).toString())));
        page.put("metrics", metrics);
        String tokens = r.promptTokens() != null || r.completionTokens() != null
                ? str(r.promptTokens()) + " prompt + " + str(r.completionTokens()) + " completion" : "";
        page.put("tokens", tokens);
        page.put("wallMs", str(r.wallMs()));
        page.put("criticalPathMs", str(r.criticalPathMs()));
        page.put("modelMs", r.modelMs() != null ? str(r.modelMs()) : "n/a");
        page.put("samples", r.samples() != null ? str(r.samples())
                + (r.cachedSamples() != null && r.cachedSamples() > 0 ? " (" + r.cachedSamples() + " from the cache)" : "")
                : "n/a");
        page.put("error", str(r.error()));
        List<String> failures = r.parseFailures() == null ? List.of() : r.parseFailures();
        page.put("parseFailures", failures);
        page.put("hasParseFailures", !failures.isEmpty());
        page.put("traceNote", traceNote);
        List<Map<String, Object>> callViews = new ArrayList<>();
        for (int i = 0; i < calls.size(); i++) {
            callViews.add(callView(i + 1, calls.get(i)));
        }
        page.put("callCount", callViews.isEmpty() ? str(r.calls()) : String.valueOf(callViews.size()));
        page.put("calls", callViews);
        page.put("sections", sections(run.method() == null ? "" : run.method(), r, calls)); // a section may compare it
        render("question.mustache", page, file);
    }

    private static final Registry<ReportSectionProvider, QuestionSection> SECTIONS = new Registry<>(
            ReportSectionProvider.class, ReportSectionProvider::sections, QuestionSection::name, "report section");

    /**
     * The question page's sections ({@link QuestionSection}: the built-in ones, then the plug-ins'), as the template
     * shows them; a section that throws is shown as one line saying so instead of its content.
     */
    static List<Map<String, Object>> sections(String method, ResultLine line, List<CallRecord> calls) {
        Map<String, QuestionSection.Section> rendered = new LinkedHashMap<>();
        Set<String> replaced = new java.util.HashSet<>();
        for (QuestionSection section : SECTIONS.byName().values()) {
            java.util.Optional<QuestionSection.Section> shown;
            try {
                shown = section.render(method, line, calls);
                shown.ifPresent(s -> replaced.addAll(section.replaces()));
            } catch (RuntimeException e) {
                shown = java.util.Optional.of(new QuestionSection.Section(section.name(), List.of(), List.of(),
                        List.of("This section could not be shown: " + e)));
            }
            shown.ifPresent(s -> rendered.put(section.name(), s));
        }
        List<Map<String, Object>> out = new ArrayList<>();
        rendered.forEach((name, s) -> {
            if (replaced.contains(name)) {
                return; // a section that rendered shows this one's content in full
            }
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("title", s.title());
            v.put("hasTable", !s.columns().isEmpty());
            v.put("columns", s.columns());
            v.put("rows", s.rows().stream().map(cells -> Map.of("cells", cells)).toList());
            v.put("notes", s.notes());
            v.put("blocks", s.blocks().stream().map(b -> {
                Map<String, Object> bv = new LinkedHashMap<>();
                bv.put("title", b.title());
                bv.put("hasTable", !b.columns().isEmpty());
                bv.put("columns", b.columns());
                bv.put("rows", b.rows().stream().map(cells -> Map.of("cells", cells)).toList());
                bv.put("notes", b.notes());
                return bv;
            }).toList());
            out.add(v);
        });
        return out;
    }

    /** A typed value of a result file as the page shows it: "" for none. */
    private static String str(Object v) {
        return v == null ? "" : v.toString();
    }

    private static Map<String, Object> callView(int index, CallRecord c) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("index", index);
        v.put("role", c.context().role().isEmpty() ? "call" : c.context().role());
        v.put("step", String.valueOf(c.context().step()));
        v.put("latencyMs", ms(c.latencyMicros()));
        v.put("queueMs", ms(c.queueMicros()));
        // what the call used, whether the model or the cache answered; the cache's share in brackets
        v.put("promptTokens", String.valueOf(c.usedPromptTokens()));
        v.put("completionTokens", String.valueOf(c.usedCompletionTokens()));
        v.put("cachedTokens", c.cachedTokens());
        v.put("samples", String.valueOf(c.samples()));
        v.put("cachedSamples", c.cachedSamples());
        v.put("cacheHit", c.cacheHit() ? "yes" : "no");
        v.put("attempts", String.valueOf(c.attempts()));
        v.put("retries", String.valueOf(c.retries()));
        v.put("model", Objects.requireNonNullElse(c.model(), ""));
        v.put("settings", Objects.requireNonNullElse(c.settings(), ""));
        v.put("error", Objects.requireNonNullElse(c.error(), ""));
        List<Map<String, Object>> messages = messages(c.prompt());
        v.put("messages", messages == null ? List.of() : messages);
        v.put("rawPrompt", messages == null ? Objects.requireNonNullElse(c.prompt(), "") : "");
        List<Map<String, Object>> outputs = new ArrayList<>();
        for (int i = 0; i < c.outputs().size(); i++) {
            String finish = i < c.finishReasons().size() ? Objects.requireNonNullElse(c.finishReasons().get(i), "") : "";
            outputs.add(Map.of("index", String.valueOf(i), "text", Objects.requireNonNullElse(c.outputs().get(i), ""),
                    "finish", finish));
        }
        v.put("outputs", outputs);
        v.put("multipleOutputs", outputs.size() > 1);
        return v;
    }

    /** Chat messages of a prompt given as a JSON array of {role, content}, or null for a raw prompt. */
    static List<Map<String, Object>> messages(String prompt) {
        if (prompt == null || !prompt.stripLeading().startsWith("[")) {
            return null;
        }
        JsonNode array;
        try {
            array = JSON.readTree(prompt);
        } catch (IOException e) {
            return null;
        }
        if (array == null || !array.isArray() || array.isEmpty()) {
            return null;
        }
        List<Map<String, Object>> out = new ArrayList<>();
        for (JsonNode m : array) {
            if (!m.isObject() || !m.has("content")) {
                return null;
            }
            String role = text(m.get("role"));
            JsonNode content = m.get("content");
            String textContent;
            if (content.isArray()) {
                List<String> parts = new ArrayList<>();
                for (JsonNode part : content) {
                    parts.add(part.has("text") ? text(part.get("text")) : text(part));
                }
                textContent = String.join("\n", parts);
            } else {
                textContent = text(content);
            }
            out.add(Map.of("role", role.isEmpty() ? "message" : role, "roleClass", safeName(role),
                    "content", textContent));
        }
        return out;
    }

    // ---------------------------------------------------------------- helpers

    /**
     * A file-name-safe form of {@code id}: letters, digits, '_' and '-' only, at most 80 characters, never empty.
     * When characters had to be replaced or cut, a short hash of the original keeps distinct ids apart.
     */
    static String safeName(String id) {
        String s = id == null ? "" : id;
        String clean = UNSAFE.matcher(s).replaceAll("_");
        if (clean.length() > MAX_NAME) {
            clean = clean.substring(0, MAX_NAME);
        }
        if (clean.equals(s) && !clean.isEmpty()) {
            return clean;
        }
        return (clean.isEmpty() ? "x" : clean) + "-" + shortHash(s);
    }

    static String unique(String name, Set<String> used) {
        String candidate = name;
        for (int k = 2; !used.add(candidate.toLowerCase(Locale.ROOT)); k++) {
            candidate = name + "-" + k;
        }
        return candidate;
    }

    private static String shortHash(String s) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String text(JsonNode v) {
        if (v == null || v.isNull() || v.isMissingNode()) {
            return "";
        }
        return v.isValueNode() ? v.asText() : v.toString();
    }

    private static List<String> texts(JsonNode v) {
        if (v == null || v.isNull() || v.isMissingNode()) {
            return List.of();
        }
        if (!v.isArray()) {
            return List.of(text(v));
        }
        List<String> out = new ArrayList<>();
        v.forEach(e -> out.add(text(e)));
        return out;
    }

    /** A run-level metric: a percentage when in [0, 1]. */
    static String metric(Double v) {
        if (v == null || v.isNaN()) {
            return "";
        }
        return v >= 0 && v <= 1 ? String.format(Locale.ROOT, "%.1f%%", v * 100) : plain(v);
    }

    private static String plain(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return String.valueOf((long) v);
        }
        return String.format(Locale.ROOT, "%.3f", v);
    }

    /** A figure, or "n/a" when the run does not have it (written before it existed). */
    private static String orNa(OptionalDouble v, int decimals) {
        return v.isPresent() ? number(v.getAsDouble(), decimals) : "n/a";
    }

    private static String number(OptionalDouble v, int decimals) {
        return v.isPresent() ? number(v.getAsDouble(), decimals) : "";
    }

    private static String number(double v, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    private static String ms(long micros) {
        return String.format(Locale.ROOT, "%.1f", micros / 1000.0);
    }

    private static void closeQuietly(TraceStore store) {
        if (store != null) {
            try {
                store.close();
            } catch (RuntimeException ignored) {
                // a report is read-only: a failing close loses nothing
            }
        }
    }

    private static String resource(String name) {
        try (InputStream in = HtmlReport.class.getResourceAsStream(RESOURCES + name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + RESOURCES + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static final Map<String, Template> TEMPLATES = new java.util.concurrent.ConcurrentHashMap<>();

    static void render(String template, Map<String, Object> data, Path file) {
        Template t = TEMPLATES.computeIfAbsent(template, n -> MUSTACHE.compile(resource(n)));
        try {
            Files.writeString(file, t.execute(data), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("writing " + file + ": " + e.getMessage(), e);
        }
    }
}
