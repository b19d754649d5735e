package dev.veracity.eval.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs against a baseline on the questions both answered: for each metric, the mean per-question difference with a
 * paired bootstrap interval, a two-sided p-value by the test that fits the metric ({@link PairedTest}: exact McNemar
 * for a 0/1 metric, the sign-flip permutation test otherwise), and the questions one scores higher and the other lower,
 * so a reader sees whether a gap is more than noise and where it comes from.
 */
public final class PairedComparison {

    /**
     * One run's difference from the baseline on one metric.
     *
     * @param run        the run's name in the table
     * @param metric     the metric
     * @param difference the mean per-question difference (run - baseline) with its 95% paired bootstrap interval and
     *                   the number of questions both answered
     * @param test       the two-sided test of no difference
     * @param better     questions the run scores higher than the baseline on
     * @param worse      questions it scores lower on
     * @param betterIds  the first few of those question ids, for the transcripts
     * @param worseIds   likewise
     */
    public record Difference(String run, String metric, Bootstrap.Interval difference, PairedTest.Result test,
                             int better, int worse, List<String> betterIds, List<String> worseIds) {

        /** Whether the interval leaves out 0. */
        public boolean significant() {
            return difference.lo() > 0 || difference.hi() < 0;
        }
    }

    private static final int IDS = 5;

    private PairedComparison() {
    }

    /** The differences, each run named by its folder ({@link RunDir#name()}). */
    public static List<Difference> against(RunDir baseline, List<RunDir> runs, int resamples, long seed) {
        Map<RunDir, String> names = new LinkedHashMap<>();
        runs.forEach(r -> names.put(r, r.name()));
        return against(baseline, runs, names, resamples, seed);
    }

    /** The differences, each run named as {@code names} says (the comparison table's names). */
    static List<Difference> against(RunDir baseline, List<RunDir> runs, Map<RunDir, String> names, int resamples,
                                    long seed) {
        List<Difference> out = new ArrayList<>();
        List<String> metrics = ComparisonTable.metricNames(baseline.summary());
        ResultTable base = baseline.table();
        int[] order = null; // the baseline's rows in the dataset's order, once for every run
        for (RunDir r : runs) {
            if (r == baseline || r.dir().toAbsolutePath().normalize().equals(baseline.dir().toAbsolutePath().normalize())) {
                continue;
            }
            order = order == null ? base.datasetOrder() : order;
            ResultTable other = r.table();
            for (String metric : metrics) {
                NumberColumn baseScores = baseline.scores(metric);
                NumberColumn runScores = r.scores(metric);
                // joined by id, in the baseline's dataset order: the questions both answered and both scored
                double[] b = new double[order.length];
                double[] v = new double[order.length];
                int n = 0;
                List<String> betterIds = new ArrayList<>();
                List<String> worseIds = new ArrayList<>();
                int better = 0;
                int worse = 0;
                for (int row : order) {
                    int match = baseScores.has(row) ? other.rowOf(base, row) : -1;
                    if (match < 0 || !runScores.has(match)) {
                        continue;
                    }
                    b[n] = baseScores.get(row);
                    v[n] = runScores.get(match);
                    double d = v[n] - b[n];
                    n++;
                    if (d > 0) {
                        better++;
                        if (betterIds.size() < IDS) {
                            betterIds.add(base.id(row));
                        }
                    } else if (d < 0) {
                        worse++;
                        if (worseIds.size() < IDS) {
                            worseIds.add(base.id(row));
                        }
                    }
                }
                if (n == 0) {
                    continue;
                }
                b = java.util.Arrays.copyOf(b, n);
                v = java.util.Arrays.copyOf(v, n);
                double[] diffs = new double[n];
                for (int i = 0; i < n; i++) {
                    diffs[i] = v[i] - b[i];
                }
                out.add(new Difference(names.getOrDefault(r, r.name()), metric, Bootstrap.mean(diffs, resamples, seed),
                        PairedTest.of(b, v, resamples, seed), better, worse, betterIds, worseIds));
            }
        }
        return out;
    }

    /** The line that says what the columns of a difference are. */
    static String explanation() {
        return "run - baseline on the questions both answered; 95% paired bootstrap CI of the mean difference;"
                + " two-sided p: exact McNemar test for 0/1 metrics, sign-flip permutation test otherwise";
    }

    /** The lines {@code compare --baseline} prints under the table, at their full width. */
    public static String text(String baseline, List<Difference> diffs) {
        return text(baseline, diffs, TextTable.UNLIMITED);
    }

    /**
     * The lines {@code compare --baseline} prints under the table, fitted to {@code width}: a table of the differences
     * (the test's name, n and the counts of questions better and worse go first where it is narrow), then the example
     * questions better and worse, wrapped; a list with no question is left out.
     */
    public static String text(String baseline, List<Difference> diffs, int width) {
        StringBuilder sb = new StringBuilder();
        sb.append(TextTable.wrap("Paired differences against " + baseline + " (" + explanation() + "):", width));
        if (diffs.isEmpty()) {
            return sb.append(TextTable.wrap("(no run shares a question and a metric with the baseline)", width, "  ", "  "))
                    .toString();
        }
        TextTable table = new TextTable(List.of(
                TextTable.Column.text("run", 10, 30),
                TextTable.Column.text("metric", 8, 31),
                TextTable.Column.figure("difference"),
                TextTable.Column.figure("95% CI").dropAt(25),
                TextTable.Column.figure("p"),
                TextTable.Column.text("test", 6, 10).dropAt(11),
                TextTable.Column.figure("n").dropAt(20),
                TextTable.Column.figure("better").dropAt(21),
                TextTable.Column.figure("worse").dropAt(21)));
        for (Difference d : diffs) {
            table.row(List.of(d.run(), d.metric(), String.format(Locale.ROOT, "%+.3f", d.difference().mean()),
                    String.format(Locale.ROOT, "[%+.3f, %+.3f]", d.difference().lo(), d.difference().hi()),
                    d.test().display(), d.test().describe(), String.valueOf(d.difference().n()),
                    String.valueOf(d.better()), String.valueOf(d.worse())));
        }
        TextTable.Fitted fitted = table.render(Math.max(1, width - 2));
        fitted.lines().forEach(l -> sb.append("  ").append(l).append('\n'));
        // said of the indented table: the width asked, and the COLUMNS that shows it whole with its indent
        String note = new TextTable.Fitted(fitted.lines(), fitted.dropped(), fitted.shortened(), fitted.natural() + 2)
                .note(width, "with --format csv, json or markdown");
        if (!note.isEmpty()) {
            sb.append(TextTable.wrap(note, width, "  ", "  "));
        }
        for (Difference d : diffs) {
            List<String> examples = new java.util.ArrayList<>();
            if (!d.betterIds().isEmpty()) {
                examples.add("better on " + String.join(", ", d.betterIds()));
            }
            if (!d.worseIds().isEmpty()) {
                examples.add("worse on " + String.join(", ", d.worseIds()));
            }
            if (!examples.isEmpty()) {
                sb.append(TextTable.wrap(d.run() + ", " + d.metric() + ": e.g. " + String.join("; ", examples), width,
                        "  ", "    "));
            }
        }
        return sb.toString();
    }
}
