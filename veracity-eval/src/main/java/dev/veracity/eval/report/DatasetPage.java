package dev.veracity.eval.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
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
     * One run as the page links it.
     *
     * @param run   the loaded run
     * @param slug  its folder in the report
     * @param files question id to the file of its transcript page, inside {@code slug/q/}
     */
    record Linked(RunDir run, String slug, Map<String, String> files) {
    }

    private DatasetPage() {
    }

    /**
     * Writes the page of each dataset among {@code runs} and returns, per page, what the index links: dataset,
     * file, run count. {@code baseline} is the run the paired differences are taken from on its dataset; the other
     * datasets use their first run.
     */
    static List<Map<String, Object>> writeAll(List<Linked> runs, RunDir baseline, Path outDir, String css,
                                              Set<String> usedNames, int resamples, long seed) {
        Map<String, List<Linked>> byDataset = new LinkedHashMap<>();
        for (Linked l : runs) {
            byDataset.computeIfAbsent(l.run().text("dataset"), k -> new ArrayList<>()).add(l);
        }
        List<Map<String, Object>> pages = new ArrayList<>();
        for (Map.Entry<String, List<Linked>> e : byDataset.entrySet()) {
            String name = HtmlReport.unique("dataset-" + HtmlReport.safeName(e.getKey().isEmpty() ? "unnamed" : e.getKey()),
                    usedNames);
            write(e.getKey(), e.getValue(), baseline, outDir, name, css, resamples, seed);
            pages.add(Map.of("dataset", e.getKey().isEmpty() ? "(unnamed)" : e.getKey(), "file", name + ".html",
                    "runs", e.getValue().size()));
        }
        return pages;
    }

    private static void write(String dataset, List<Linked> group, RunDir baseline, Path outDir, String name,
                              String css, int resamples, long seed) {
        Linked base = group.getFirst();
        for (Linked l : group) {
            if (baseline != null && HtmlReport.same(l.run().dir(), baseline.dir())) {
                base = l;
            }
        }
        List<RunDir> runs = group.stream().map(Linked::run).toList();
        ComparisonTable.Table table = ComparisonTable.of(runs, resamples, seed).tables().getFirst();
        String main = base.run().mainMetric();

        Map<String, Object> page = new LinkedHashMap<>();
        page.put("css", css);
        page.put("dataset", dataset.isEmpty() ? "(unnamed)" : dataset);
        page.put("runCount", String.valueOf(group.size()));
        page.put("metricNames", table.metrics());
        page.put("judged", table.judged());
        page.put("rows", rows(table, group));
        page.put("baseline", base.slug());
        page.put("mainMetric", main.isEmpty() ? "metric" : main);

        List<Map<String, Object>> paired = paired(base, group, resamples, seed);
        page.put("paired", paired);
        page.put("hasPaired", !paired.isEmpty());

        List<Map<String, Object>> charts = new ArrayList<>();
        Map<String, double[]> bySeconds = new LinkedHashMap<>();
        Map<String, double[]> byTokens = new LinkedHashMap<>();
        int k = 0;
        for (ComparisonTable.Row row : table.rows()) {
            if (k < group.size() && row.run().equals(group.get(k).run().name())) {
                ComparisonTable.Cell c = row.metrics().get(main);
                double y = c == null || c.value() == null ? Double.NaN : c.value();
                String label = group.get(k).slug() + " (" + row.method() + ")";
                bySeconds.put(label, new double[] {orNaN(row.secondsPerQuestion()), y});
                byTokens.put(label, new double[] {orNaN(row.tokensPerQuestion()), y});
                k++;
            }
        }
        scatter(charts, outDir, name + "-seconds.png", main + " against seconds per question", "seconds / question",
                main, bySeconds);
        scatter(charts, outDir, name + "-tokens.png", main + " against tokens per question", "tokens / question",
                main, byTokens);
        page.put("charts", charts);
        page.put("hasCharts", !charts.isEmpty());

        Disagreements d = disagreements(main, group);
        page.put("runs", group.stream().map(l -> Map.of("slug", l.slug(), "method", l.run().method())).toList());
        page.put("disagreements", d.rows());
        page.put("hasDisagreements", !d.rows().isEmpty());
        page.put("disagreementCount", String.valueOf(d.total()));
        page.put("shownDisagreements", String.valueOf(d.rows().size()));
        page.put("moreDisagreements", d.total() > d.rows().size() ? String.valueOf(d.total() - d.rows().size()) : "");
        page.put("multipleRuns", group.size() > 1);
        HtmlReport.render("dataset.mustache", page, outDir.resolve(name + ".html"));
    }

    /** The comparison table's rows; a run's own row links to its page, a subset row (CRAG's comparison) does not. */
    private static List<Map<String, Object>> rows(ComparisonTable.Table table, List<Linked> group) {
        List<Map<String, Object>> out = new ArrayList<>();
        int k = 0;
        for (ComparisonTable.Row row : table.rows()) {
            Map<String, Object> m = new LinkedHashMap<>();
            boolean own = k < group.size() && row.run().equals(group.get(k).run().name());
            m.put("slug", own ? group.get(k++).slug() : "");
            m.put("run", row.run());
            m.put("method", row.method());
            m.put("questions", String.valueOf(row.questions()));
            m.put("metrics", table.metrics().stream().map(n -> {
                ComparisonTable.Cell c = row.metrics().get(n);
                return c == null ? "-" : ComparisonTable.cell(c);
            }).toList());
            m.put("judge", row.judge() == null ? "-" : ComparisonTable.cell(row.judge()));
            m.put("calls", ComparisonTable.fixed(row.callsPerQuestion(), 2));
            m.put("tokens", ComparisonTable.fixed(row.tokensPerQuestion(), 1));
            m.put("seconds", ComparisonTable.fixed(row.secondsPerQuestion(), 2));
            m.put("parseFailures", String.valueOf(row.parseFailures()));
            out.add(m);
        }
        return out;
    }

    /** Each other run's paired difference from the baseline, per metric, with links to the questions behind it. */
    private static List<Map<String, Object>> paired(Linked base, List<Linked> group, int resamples, long seed) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Linked l : group) {
            if (l == base) {
                continue;
            }
            for (PairedComparison.Difference d : PairedComparison.against(base.run(), List.of(l.run()), resamples, seed)) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("slug", l.slug());
                m.put("metric", d.metric());
                m.put("diff", String.format(Locale.ROOT, "%+.3f", d.paired().mean()));
                m.put("interval", String.format(Locale.ROOT, "[%+.3f, %+.3f]", d.paired().lo(), d.paired().hi()));
                m.put("p", String.format(Locale.ROOT, "%.3f", d.paired().p()));
                m.put("significant", d.paired().lo() > 0 || d.paired().hi() < 0);
                m.put("n", String.valueOf(d.paired().n()));
                m.put("better", String.valueOf(d.better()));
                m.put("worse", String.valueOf(d.worse()));
                m.put("betterIds", links(d.betterIds(), l, base));
                m.put("worseIds", links(d.worseIds(), l, base));
                out.add(m);
            }
        }
        return out;
    }

    private static List<Map<String, Object>> links(List<String> ids, Linked run, Linked base) {
        return ids.stream().map(id -> Map.<String, Object>of("id", id, "run", href(run, id), "base", href(base, id)))
                .toList();
    }

    private record Disagreements(List<Map<String, Object>> rows, int total) {
    }

    /**
     * The questions on which the runs that answered them do not all score the same on the main metric (for a 0/1
     * metric: some got it right and some wrong), in the order the runs first list them.
     */
    private static Disagreements disagreements(String main, List<Linked> group) {
        List<Map<String, Double>> values = new ArrayList<>();
        Map<String, String> questions = new LinkedHashMap<>();
        Set<String> ids = new LinkedHashSet<>();
        for (Linked l : group) {
            values.add(PairedComparison.byId(main, l.run().results()));
            for (JsonNode r : l.run().results()) {
                String id = r.path("id").asText(null);
                if (id != null) {
                    ids.add(id);
                    questions.putIfAbsent(id, r.path("question").asText(""));
                }
            }
        }
        List<Map<String, Object>> rows = new ArrayList<>();
        int total = 0;
        if (group.size() < 2) {
            return new Disagreements(rows, 0);
        }
        for (String id : ids) {
            double lo = Double.POSITIVE_INFINITY;
            double hi = Double.NEGATIVE_INFINITY;
            int scored = 0;
            for (Map<String, Double> v : values) {
                Double x = v.get(id);
                if (x != null) {
                    lo = Math.min(lo, x);
                    hi = Math.max(hi, x);
                    scored++;
                }
            }
            if (scored < 2 || lo == hi) {
                continue;
            }
            total++;
            if (rows.size() >= MAX_DISAGREEMENTS) {
                continue;
            }
            List<Map<String, Object>> cells = new ArrayList<>();
            for (int i = 0; i < group.size(); i++) {
                Double x = values.get(i).get(id);
                String href = x == null ? null : href(group.get(i), id);
                Map<String, Object> c = new LinkedHashMap<>();
                c.put("value", x == null ? "-" : x == Math.rint(x) ? String.valueOf(x.longValue())
                        : String.format(Locale.ROOT, "%.2f", x));
                c.put("href", href == null ? "" : href);
                c.put("cls", x == null ? "" : x >= 0.999 ? "good" : x <= 0 ? "bad" : "partial");
                cells.add(c);
            }
            rows.add(Map.of("id", id, "question", questions.getOrDefault(id, ""), "cells", cells));
        }
        return new Disagreements(rows, total);
    }

    /** The transcript page of question {@code id} in {@code run}, relative to the report folder, or null. */
    private static String href(Linked run, String id) {
        String file = run.files().get(id);
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
