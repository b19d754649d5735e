package dev.veracity.eval.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs against a baseline on the questions both answered: for each metric, the mean per-question difference with a
 * paired bootstrap interval and p-value ({@link Bootstrap#paired}), and the questions one gets right and the other
 * wrong (for 0/1 metrics), so a reader sees whether a gap is more than noise and where it comes from.
 */
public final class PairedComparison {

    /**
     * One run's difference from the baseline on one metric.
     *
     * @param better questions the run scores higher than the baseline on
     * @param worse  questions it scores lower on
     * @param betterIds the first few of those question ids, for the transcripts
     * @param worseIds  likewise
     */
    public record Difference(String run, String metric, Bootstrap.Paired paired, int better, int worse,
                             List<String> betterIds, List<String> worseIds) {
    }

    private static final int IDS = 5;

    private PairedComparison() {
    }

    public static List<Difference> against(RunDir baseline, List<RunDir> runs, int resamples, long seed) {
        List<Difference> out = new ArrayList<>();
        List<String> metrics = ComparisonTable.metricNames(baseline.summary());
        for (RunDir r : runs) {
            if (r == baseline || r.dir().equals(baseline.dir())) {
                continue;
            }
            for (String metric : metrics) {
                Map<String, Double> base = byId(metric, baseline);
                Map<String, Double> other = byId(metric, r);
                List<Double> diffs = new ArrayList<>();
                List<String> betterIds = new ArrayList<>();
                List<String> worseIds = new ArrayList<>();
                int better = 0;
                int worse = 0;
                for (Map.Entry<String, Double> e : base.entrySet()) {
                    Double v = other.get(e.getKey());
                    if (v == null) {
                        continue;
                    }
                    double d = v - e.getValue();
                    diffs.add(d);
                    if (d > 0) {
                        better++;
                        if (betterIds.size() < IDS) {
                            betterIds.add(e.getKey());
                        }
                    } else if (d < 0) {
                        worse++;
                        if (worseIds.size() < IDS) {
                            worseIds.add(e.getKey());
                        }
                    }
                }
                Bootstrap.Paired p = Bootstrap.paired(diffs.stream().mapToDouble(Double::doubleValue).toArray(),
                        resamples, seed);
                if (p != null) {
                    out.add(new Difference(r.name(), metric, p, better, worse, betterIds, worseIds));
                }
            }
        }
        return out;
    }

    /** The lines {@code compare --baseline} prints under the table. */
    public static String text(RunDir baseline, List<Difference> diffs) {
        StringBuilder sb = new StringBuilder();
        sb.append("Paired differences against ").append(baseline.name())
                .append(" on the questions both answered (run - baseline; 95% paired bootstrap CI; two-sided p):\n");
        for (Difference d : diffs) {
            sb.append(String.format(Locale.ROOT, "  %-24s %-22s %+.3f [%+.3f, %+.3f]  p=%.3f  n=%d  better on %d, worse on %d",
                    d.run(), d.metric(), d.paired().mean(), d.paired().lo(), d.paired().hi(), d.paired().p(), d.paired().n(),
                    d.better(), d.worse()));
            if (!d.betterIds().isEmpty() || !d.worseIds().isEmpty()) {
                sb.append(" (e.g. better: ").append(String.join(", ", d.betterIds())).append("; worse: ")
                        .append(String.join(", ", d.worseIds())).append(')');
            }
            sb.append('\n');
        }
        if (diffs.isEmpty()) {
            sb.append("  (no run shares a question and a metric with the baseline)\n");
        }
        return sb.toString();
    }

    /** Per-question values of a metric keyed by question id, re-scored as the table does; lines without an id left out. */
    static Map<String, Double> byId(String name, RunDir run) {
        NumberColumn scores = run.scores(name);
        ResultTable t = run.table();
        Map<String, Double> out = new LinkedHashMap<>();
        for (int row = 0; row < t.size(); row++) {
            if (t.id(row) != null && scores.has(row)) {
                out.put(t.id(row), scores.get(row));
            }
        }
        return out;
    }
}
