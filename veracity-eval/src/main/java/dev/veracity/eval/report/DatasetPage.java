package dev.veracity.eval.report;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * One page per dataset of a report ({@code dataset-<name>.html}): the methods run on it as rows with their official
 * metrics and 95% bootstrap intervals and their calls, tokens and seconds per question; each run's paired difference
 * from a baseline run; the main metric against seconds and tokens per question (C-3PO's figure 3); and the questions
 * the runs disagree on, each run's cell linking to its transcript.
 */
final class DatasetPage {

    /** Disagreement rows shown at most: a page of 100,000 questions must still open in a browser. */
    static final int MAX_DISAGREEMENTS = 300;

    /**
     * One run as the pages link it.
     *
     * @param run  the loaded run
     * @param slug its folder in the report
     */
    record Linked(RunDir run, String slug) {
    }

    private DatasetPage() {
    }

    /**
     * Works out the page of each dataset among {@code runs}, before any page is written: the run pages then write
     * the transcripts these pages link ({@link Plan#links}). {@code baseline} is the run the paired differences are
     * taken from on its dataset; the other datasets use their first run.
     */
    static List<Plan> plan(List<Linked> runs, RunDir baseline, Set<String> usedNames, int resamples, long seed) {
        Map<String, List<Linked>> byDataset = new LinkedHashMap<>();
        for (Linked l : runs) {
            byDataset.computeIfAbsent(l.run().dataset(), k -> new ArrayList<>()).add(l);
        }
        List<Plan> plans = new ArrayList<>();
        for (Map.Entry<String, List<Linked>> e : byDataset.entrySet()) {
            String name = HtmlReport.unique("dataset-" + HtmlReport.safeName(e.getKey().isEmpty() ? "unnamed" : e.getKey()),
                    usedNames);
            plans.add(new Plan(e.getKey(), e.getValue(), baseline, name, resamples, seed));
        }
        return plans;
    }

    /**
     * Writes the pages and returns, per page, what the index links: dataset, file, run count. {@code files} maps a
     * run's slug to its question ids' transcript files inside {@code slug/q/}.
     */
    static List<Map<String, Object>> writeAll(List<Plan> plans, Path outDir, String css,
                                              Map<String, Map<String, String>> files, Map<String, String> colours) {
        List<Map<String, Object>> pages = new ArrayList<>();
        for (Plan p : plans) {
            p.write(outDir, css, files, colours);
            pages.add(Map.of("dataset", p.dataset.isEmpty() ? "(unnamed)" : p.dataset, "file", p.name + ".html",
                    "runs", p.group.size()));
        }
        return pages;
    }

    /** One dataset's page, worked out: its table, paired differences and disagreements, and the ids it links. */
    static final class Plan {

        private final String dataset;
        private final List<Linked> group;
        private final String name;
        private final Linked base;
        private final ComparisonTable.Table table;
        private final String legend;
        private final String main;
        private final List<Paired> paired = new ArrayList<>();
        private final Disagreements disagreements;

        private Plan(String dataset, List<Linked> group, RunDir baseline, String name, int resamples, long seed) {
            this.dataset = dataset;
            this.group = group;
            this.name = name;
            Linked b = group.getFirst();
            for (Linked l : group) {
                if (baseline != null && HtmlReport.same(l.run().dir(), baseline.dir())) {
                    b = l;
                }
            }
            this.base = b;
            ComparisonTable compared = ComparisonTable.of(group.stream().map(Linked::run).toList(), resamples, seed);
            this.table = compared.tables().getFirst();
            this.legend = compared.legend();
            this.main = base.run().mainMetric();
            for (Linked l : group) {
                if (l != base) {
                    PairedComparison.against(base.run(), List.of(l.run()), Map.of(l.run(), l.slug()), resamples, seed)
                            .forEach(d -> paired.add(new Paired(l, d)));
                }
            }
            this.disagreements = disagreements(main, group);
        }

        /** The dataset's metric charts, one per metric, each run in its colour by slug ({@code colours}). */
        List<MetricCharts.Chart> charts(Map<String, String> colours) {
            List<String> slugs = group.stream().map(Linked::slug).toList();
            return MetricCharts.of(dataset, table, slugs, slugs.stream().map(colours::get).toList());
        }

        /** What {@link #sizeNote} says of this dataset's runs: "" when they answered the same questions. */
        String sizeNote() {
            return DatasetPage.sizeNote(group);
        }

        /** The dataset's name as pages show it. */
        String dataset() {
            return dataset.isEmpty() ? "(unnamed)" : dataset;
        }

        /** The question ids of each run (by slug) whose transcripts this page links. */
        Map<String, Set<String>> links() {
            Map<String, Set<String>> out = new LinkedHashMap<>();
            for (Paired p : paired) {
                for (List<String> ids : List.of(p.d().betterIds(), p.d().worseIds())) {
                    out.computeIfAbsent(p.run().slug(), k -> new LinkedHashSet<>()).addAll(ids);
                    out.computeIfAbsent(base.slug(), k -> new LinkedHashSet<>()).addAll(ids);
                }
            }
            for (Disagreement row : disagreements.rows()) {
                for (int i = 0; i < group.size(); i++) {
                    if (row.values()[i] != null) {
                        out.computeIfAbsent(group.get(i).slug(), k -> new LinkedHashSet<>()).add(row.id());
                    }
                }
            }
            return out;
        }

        private void write(Path outDir, String css, Map<String, Map<String, String>> files,
                           Map<String, String> colours) {
            Map<String, Object> page = new LinkedHashMap<>();
            page.put("css", css);
            page.put("scripts", ReportAssets.scriptTags(0));
            page.put("sizeNote", sizeNote());
            List<MetricCharts.Chart> metricCharts = charts(colours);
            page.put("metricCharts", chartViews(metricCharts));
            page.put("hasMetricCharts", !metricCharts.isEmpty());
            List<MetricCharts.Legend> legend = group.stream().map(l -> MetricCharts.Legend.of(l.slug(),
                    l.run().method(), colours.get(l.slug()))).toList();
            page.put("legend", legend);
            page.put("chartData", MetricCharts.json(metricCharts, legend));
            page.put("dataset", dataset.isEmpty() ? "(unnamed)" : dataset);
            page.put("runCount", String.valueOf(group.size()));
            page.put("metricNames", table.metrics());
            page.put("judged", table.judged());
            page.put("rows", rows(table, group));
            page.put("methodNames", group.stream().map(l -> l.run().method()).distinct().toList());
            page.put("intervals", legend);
            page.put("baseline", base.slug());
            page.put("mainMetric", main.isEmpty() ? "metric" : main);

            List<Map<String, Object>> pairedRows = paired.stream().map(p -> pairedRow(p, base, files)).toList();
            page.put("paired", pairedRows);
            page.put("hasPaired", !pairedRows.isEmpty());

            List<Map<String, Object>> charts = new ArrayList<>();
            Map<String, double[]> bySeconds = new LinkedHashMap<>();
            Map<String, double[]> byTokens = new LinkedHashMap<>();
            // model seconds (what the runs' calls took: the same in a rerun from the cache, and free of our client's
            // queueing though not of the server's) when every run has them, else wall seconds as run (runs written
            // before model seconds existed)
            boolean model = table.rows().stream().filter(r -> r.subset() == null)
                    .allMatch(r -> r.modelSecondsPerQuestion() != null);
            int k = 0;
            for (ComparisonTable.Row row : table.rows()) {
                if (k < group.size() && row.subset() == null) {
                    ComparisonTable.Cell c = row.metrics().get(main);
                    double y = c == null || c.value() == null ? Double.NaN : c.value();
                    String label = group.get(k).slug() + " (" + row.method() + ")";
                    bySeconds.put(label, new double[] {orNaN(model ? row.modelSecondsPerQuestion()
                            : row.wallSecondsPerQuestion()), y});
                    byTokens.put(label, new double[] {orNaN(row.tokensPerQuestion()), y});
                    k++;
                }
            }
            String seconds = model ? "model seconds" : "wall seconds (as run)";
            page.put("secondsKind", seconds);
            scatter(charts, outDir, name + "-seconds.png", main + " against " + seconds + " per question",
                    seconds + " / question", main, bySeconds);
            scatter(charts, outDir, name + "-tokens.png", main + " against tokens per question", "tokens / question",
                    main, byTokens);
            page.put("charts", charts);
            page.put("hasCharts", !charts.isEmpty());

            List<Map<String, Object>> shown = disagreements.rows().stream().map(d -> disagreementRow(d, group, files))
                    .toList();
            page.put("runs", group.stream().map(l -> Map.of("slug", l.slug(), "method", l.run().method())).toList());
            page.put("disagreements", shown);
            page.put("hasDisagreements", !shown.isEmpty());
            page.put("disagreementCount", String.valueOf(disagreements.total()));
            page.put("shownDisagreements", String.valueOf(shown.size()));
            page.put("moreDisagreements", disagreements.total() > shown.size()
                    ? String.valueOf(disagreements.total() - shown.size()) : "");
            page.put("multipleRuns", group.size() > 1);
            HtmlReport.render("dataset.mustache", page, outDir.resolve(name + ".html"));
        }
    }

    /**
     * A plain sentence when the runs did not answer the same questions (different counts, or different question sets),
     * so that a reader does not compare their figures as if they were over the same questions; "" when they did.
     */
    static String sizeNote(List<Linked> runs) {
        if (runs.size() < 2) {
            return "";
        }
        // the question sets compared by id through each table's index, with no set of ids held (ids are unique in a run)
        ResultTable first = runs.getFirst().run().table();
        int[] idCounts = new int[runs.size()];
        for (int i = 0; i < runs.size(); i++) {
            ResultTable t = runs.get(i).run().table();
            for (int row = 0; row < t.size(); row++) {
                idCounts[i] += t.hasId(row) ? 1 : 0;
            }
        }
        int common = 0;
        for (int row = 0; row < first.size(); row++) {
            boolean all = first.hasId(row);
            for (int i = 1; i < runs.size() && all; i++) {
                all = runs.get(i).run().table().rowOf(first, row) >= 0;
            }
            common += all ? 1 : 0;
        }
        int commonIds = common;
        boolean sameSets = java.util.Arrays.stream(idCounts).allMatch(c -> c == commonIds);
        boolean sameCounts = runs.stream().map(l -> l.run().answered()).distinct().count() == 1;
        if (sameSets && sameCounts) {
            return "";
        }
        StringBuilder sb = new StringBuilder(sameCounts
                ? "These runs answered different questions (" + runs.getFirst().run().answered() + " each"
                : "These runs are of different sizes (");
        if (!sameCounts) {
            for (int i = 0; i < runs.size(); i++) {
                sb.append(i == 0 ? "" : ", ").append(runs.get(i).slug()).append(": ").append(runs.get(i).run().answered());
            }
            sb.append(" questions");
        }
        sb.append("; ").append(common).append(" answered by all): their figures are not over the same questions,"
                + " so compare them with care; the paired differences count only the questions both runs answered.");
        return sb.toString();
    }

    /** The metric charts as the page lays them out: a box per chart, tall enough for one bar per run. */
    static List<Map<String, Object>> chartViews(List<MetricCharts.Chart> charts) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (int i = 0; i < charts.size(); i++) {
            MetricCharts.Chart c = charts.get(i);
            out.add(Map.of("index", i, "title", c.dataset() + ": " + c.metric(), "height", 70 + 26 * c.bars().size()));
        }
        return out;
    }

    /** The comparison table's rows; a run's own row links to its page, a subset row (CRAG's comparison) does not. */
    private static List<Map<String, Object>> rows(ComparisonTable.Table table, List<Linked> group) {
        List<Map<String, Object>> out = new ArrayList<>();
        int k = 0;
        for (ComparisonTable.Row row : table.rows()) {
            Map<String, Object> m = new LinkedHashMap<>();
            boolean own = k < group.size() && row.subset() == null;
            m.put("slug", own ? group.get(k++).slug() : "");
            m.put("sub", !own);
            m.put("parseFlag", row.parseFailures() > 0 ? "1" : "0");
            m.put("failedFlag", row.failed() > 0 ? "1" : "0");
            m.put("run", row.run());
            m.put("method", row.method());
            m.put("model", row.model().isEmpty() ? "-" : row.model());
            m.put("retrieval", row.retrieval().isEmpty() ? "-" : row.retrieval());
            m.put("questions", String.valueOf(row.questions()));
            m.put("metrics", table.metrics().stream().map(n -> {
                ComparisonTable.Cell c = row.metrics().get(n);
                return c == null ? "-" : ComparisonTable.cell(c);
            }).toList());
            m.put("judge", row.judge() == null ? "-" : ComparisonTable.cell(row.judge()));
            m.put("calls", ComparisonTable.fixed(row.callsPerQuestion(), 2));
            m.put("samples", ComparisonTable.fixed(row.samplesPerQuestion(), 2));
            m.put("tokens", ComparisonTable.fixed(row.tokensPerQuestion(), 1));
            m.put("cached", ComparisonTable.percent(row.cachedShare()));
            m.put("wallSeconds", ComparisonTable.fixed(row.wallSecondsPerQuestion(), 2));
            m.put("modelSeconds", ComparisonTable.fixed(row.modelSecondsPerQuestion(), 2));
            m.put("parseFailures", String.valueOf(row.parseFailures()));
            m.put("failed", String.valueOf(row.failed()));
            out.add(m);
        }
        return out;
    }

    /** A run's paired difference from the page's baseline on one metric. */
    private record Paired(Linked run, PairedComparison.Difference d) {
    }

    /** A paired difference as the page shows it, with links to the questions behind it. */
    private static Map<String, Object> pairedRow(Paired p, Linked base, Map<String, Map<String, String>> files) {
        PairedComparison.Difference d = p.d();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("slug", p.run().slug());
        m.put("metric", d.metric());
        m.put("diff", String.format(Locale.ROOT, "%+.3f", d.difference().mean()));
        m.put("interval", String.format(Locale.ROOT, "[%+.3f, %+.3f]", d.difference().lo(), d.difference().hi()));
        m.put("p", d.test().display());
        m.put("test", d.test().describe());
        m.put("significant", d.significant());
        m.put("n", String.valueOf(d.difference().n()));
        m.put("better", String.valueOf(d.better()));
        m.put("worse", String.valueOf(d.worse()));
        m.put("betterIds", links(d.betterIds(), p.run(), base, files));
        m.put("worseIds", links(d.worseIds(), p.run(), base, files));
        m.put("noExamples", d.betterIds().isEmpty() && d.worseIds().isEmpty()); // "none", never an empty cell
        return m;
    }

    private static List<Map<String, Object>> links(List<String> ids, Linked run, Linked base,
                                                   Map<String, Map<String, String>> files) {
        return ids.stream().map(id -> Map.<String, Object>of("id", id, "run", href(run, id, files),
                "base", href(base, id, files))).toList();
    }

    /** A question the runs disagree on: its text and each run's value (null where the run has none). */
    private record Disagreement(String id, String question, Double[] values) {
    }

    /** The disagreements shown (at most {@link #MAX_DISAGREEMENTS}) and how many there are. */
    private record Disagreements(List<Disagreement> rows, int total) {
    }

    /**
     * The questions on which the runs that answered them do not all score the same on the main metric (for a 0/1
     * metric: some got it right and some wrong), in the dataset's order (of the first run that has each). Only the
     * questions shown are read back from the files, for their text.
     */
    private static Disagreements disagreements(String main, List<Linked> group) {
        if (group.size() < 2) {
            return new Disagreements(List.of(), 0);
        }
        // every run's questions in turn, each in its dataset order, a question once (at the first run that has it);
        // the runs' values joined by id through their tables' indexes, with no map of ids held
        List<NumberColumn> values = new ArrayList<>();
        for (Linked l : group) {
            values.add(l.run().scores(main));
        }
        List<String> shown = new ArrayList<>();
        int total = 0;
        for (int i = 0; i < group.size(); i++) {
            ResultTable t = group.get(i).run().table();
            for (int row : t.datasetOrder()) {
                if (!t.hasId(row) || seenBefore(group, i, t, row)) {
                    continue;
                }
                double lo = Double.POSITIVE_INFINITY;
                double hi = Double.NEGATIVE_INFINITY;
                int scored = 0;
                for (int j = 0; j < group.size(); j++) {
                    int match = group.get(j).run().table().rowOf(t, row);
                    if (match >= 0 && values.get(j).has(match)) {
                        double x = values.get(j).get(match);
                        lo = Math.min(lo, x);
                        hi = Math.max(hi, x);
                        scored++;
                    }
                }
                if (scored < 2 || lo == hi) {
                    continue;
                }
                total++;
                if (shown.size() < MAX_DISAGREEMENTS) {
                    shown.add(t.id(row));
                }
            }
        }
        Map<String, String> questions = questions(group, new HashSet<>(shown));
        List<Disagreement> rows = new ArrayList<>();
        for (String id : shown) {
            Double[] v = new Double[group.size()];
            for (int i = 0; i < group.size(); i++) {
                int row = group.get(i).run().table().rowOf(id);
                v[i] = row >= 0 ? values.get(i).orNull(row) : null;
            }
            rows.add(new Disagreement(id, questions.getOrDefault(id, ""), v));
        }
        return new Disagreements(rows, total);
    }

    /** Whether a run before the {@code i}th answered the question at {@code row} of {@code t}. */
    private static boolean seenBefore(List<Linked> group, int i, ResultTable t, int row) {
        for (int j = 0; j < i; j++) {
            if (group.get(j).run().table().rowOf(t, row) >= 0) {
                return true;
            }
        }
        return false;
    }

    /** The question text of each of {@code ids}, from the first run that answered it. */
    private static Map<String, String> questions(List<Linked> group, Set<String> ids) {
        Map<String, String> out = new HashMap<>();
        for (Linked l : group) {
            l.run().forEachRow(l.run().table().rowsOf(ids),
                    (row, line) -> out.putIfAbsent(l.run().table().id(row), RunDir.text(line.question())));
        }
        return out;
    }

    /** A disagreement as the page shows it: each run's value linking to its transcript. */
    private static Map<String, Object> disagreementRow(Disagreement d, List<Linked> group,
                                                       Map<String, Map<String, String>> files) {
        List<Map<String, Object>> cells = new ArrayList<>();
        for (int i = 0; i < group.size(); i++) {
            Double x = d.values()[i];
            String href = x == null ? null : href(group.get(i), d.id(), files);
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("value", x == null ? "-" : x == Math.rint(x) ? String.valueOf(x.longValue())
                    : String.format(Locale.ROOT, "%.2f", x));
            c.put("href", href == null ? "" : href);
            c.put("cls", x == null ? "" : x >= 0.999 ? "good" : x <= 0 ? "bad" : "partial");
            cells.add(c);
        }
        return Map.of("id", d.id(), "question", d.question(), "cells", cells);
    }

    /** The transcript page of question {@code id} in {@code run}, relative to the report folder, or null. */
    private static String href(Linked run, String id, Map<String, Map<String, String>> files) {
        String file = files.getOrDefault(run.slug(), Map.of()).get(id);
        return file == null ? null : run.slug() + "/q/" + file;
    }

    private static void scatter(List<Map<String, Object>> charts, Path outDir, String file, String title, String x,
                                String y, Map<String, double[]> points) {
        if (Charts.scatter(outDir.resolve(file), title, x, y, points)) {
            charts.add(Map.of("file", file, "alt", "scatter of " + title + ", one point per run",
                    "width", Charts.WIDTH, "height", Charts.HEIGHT));
        }
    }

    private static double orNaN(Double v) {
        return v == null ? Double.NaN : v;
    }
}
