package dev.veracity.rl.records;

import dev.veracity.eval.report.TextTable;
import dev.veracity.method.AgentRecord;
import dev.veracity.rl.advantage.GrpoAdvantages;
import dev.veracity.rl.advantage.GrpoFlavor;
import dev.veracity.rl.advantage.StdScaling;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a trainer would learn from a set of agent records, per role: the reward distribution, the share of GRPO groups
 * (one group per question and role, as rLLM keys {@code task_id:name}) whose rewards are all equal (zero advantage:
 * no learning signal), and the spread of the GRPO advantages each trainer flavor would compute.
 */
public final class RecordsInspection {

    /** One role's figures. */
    public record RoleStats(String role, int records, int withReward, double mean, double min, double max,
                            Map<String, Integer> histogram, int groups, int zeroVarianceGroups,
                            Map<String, Double> advantageSpread) {

        public double zeroVarianceShare() {
            return groups == 0 ? 0 : (double) zeroVarianceGroups / groups;
        }
    }

    private RecordsInspection() {
    }

    public static List<RoleStats> of(List<AgentRecord> records) {
        Map<String, List<AgentRecord>> byRole = new TreeMap<>();
        records.forEach(r -> byRole.computeIfAbsent(r.role(), k -> new ArrayList<>()).add(r));
        List<RoleStats> out = new ArrayList<>();
        byRole.forEach((role, rs) -> {
            List<AgentRecord> rewarded = rs.stream().filter(r -> r.reward() != null).toList();
            double mean = rewarded.stream().mapToDouble(AgentRecord::reward).average().orElse(Double.NaN);
            double min = rewarded.stream().mapToDouble(AgentRecord::reward).min().orElse(Double.NaN);
            double max = rewarded.stream().mapToDouble(AgentRecord::reward).max().orElse(Double.NaN);
            Map<String, Integer> histogram = new TreeMap<>();
            rewarded.forEach(r -> histogram.merge(String.format(Locale.ROOT, "%.2f", r.reward()), 1, Integer::sum));
            Map<String, List<Double>> groups = new LinkedHashMap<>();
            rewarded.forEach(r -> groups.computeIfAbsent(r.questionId(), k -> new ArrayList<>()).add(r.reward()));
            int zero = 0;
            for (List<Double> g : groups.values()) {
                if (g.stream().distinct().count() == 1) {
                    zero++;
                }
            }
            List<GrpoAdvantages.Sample> samples = new ArrayList<>();
            rewarded.forEach(r -> samples.add(new GrpoAdvantages.Sample(r.questionId(), r.reward())));
            Map<String, Double> spread = new LinkedHashMap<>();
            for (GrpoFlavor f : GrpoFlavor.values()) {
                try {
                    double[] a = GrpoAdvantages.compute(samples, f, StdScaling.GROUP);
                    spread.put(f.name().toLowerCase(Locale.ROOT), stdev(a));
                } catch (IllegalArgumentException e) {
                    spread.put(f.name().toLowerCase(Locale.ROOT), Double.NaN); // e.g. OpenRLHF refuses groups of one
                }
            }
            out.add(new RoleStats(role, rs.size(), rewarded.size(), mean, min, max, histogram, groups.size(), zero, spread));
        });
        return out;
    }

    private static double stdev(double[] a) {
        if (a.length == 0) {
            return Double.NaN;
        }
        double m = 0;
        for (double x : a) {
            m += x;
        }
        m /= a.length;
        double s = 0;
        for (double x : a) {
            s += (x - m) * (x - m);
        }
        return Math.sqrt(s / a.length);
    }

    /** The text {@code veracity rl inspect} prints, every column shown. */
    public static String text(List<RoleStats> stats) {
        return text(stats, TextTable.UNLIMITED);
    }

    /**
     * The text {@code veracity rl inspect} prints at a terminal of {@code width} columns: a table of the roles (the
     * minimum, maximum and record counts go first when it is narrow), each role's rewards, and what a group is.
     */
    public static String text(List<RoleStats> stats, int width) {
        TextTable t = new TextTable(List.of(TextTable.Column.text("role", 10, 4), TextTable.Column.figure("records").dropAt(2),
                TextTable.Column.figure("rewarded").dropAt(2), TextTable.Column.figure("mean"),
                TextTable.Column.figure("min").dropAt(1), TextTable.Column.figure("max").dropAt(1),
                TextTable.Column.figure("groups").dropAt(3), TextTable.Column.figure("no signal"),
                TextTable.Column.text("advantage std (verl / trl / openrlhf)", 12, 1).wrapped(12)));
        for (RoleStats s : stats) {
            t.row(List.of(s.role(), Integer.toString(s.records()), Integer.toString(s.withReward()), f3(s.mean()),
                    f3(s.min()), f3(s.max()), Integer.toString(s.groups()),
                    String.format(Locale.ROOT, "%.1f%%", 100 * s.zeroVarianceShare()),
                    String.join(" / ", s.advantageSpread().values().stream().map(RecordsInspection::f3).toList())));
        }
        TextTable.Fitted fitted = t.render(width);
        StringBuilder sb = new StringBuilder(fitted.text());
        String note = fitted.note(width, null);
        if (!note.isEmpty()) {
            sb.append(TextTable.wrap(note, width));
        }
        for (RoleStats s : stats) {
            sb.append(TextTable.wrap("rewards of " + s.role() + ": " + s.histogram(), width, "", "  "));
        }
        sb.append(TextTable.wrap("A group is one question's records of one role; \"no signal\" is the share whose"
                + " rewards are all equal, which GRPO turns into zero advantage.", width));
        return sb.toString();
    }

    private static String f3(double v) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%.3f", v);
    }
}
