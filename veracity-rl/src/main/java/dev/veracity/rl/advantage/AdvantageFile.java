package dev.veracity.rl.advantage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.rl.jsonl.AtomicJsonlWriter;
import dev.veracity.rl.jsonl.BadInputException;
import dev.veracity.rl.jsonl.JsonlRows;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The file door of {@code veracity rl advantages}: reads every row (a bad one is a {@link BadInputException} naming
 * the file and line, and nothing is written), computes, then writes each row with its advantages added, in input
 * order, to a temporary file moved in place at the end. Only the numbers are held in memory; the rows are read again
 * to be written.
 * <ul>
 *   <li>GRPO: rows {@code {"group": string|number, "reward": number}} (TRL also takes {@code "reward": null}) get
 *       {@code "advantage"};</li>
 *   <li>GAE: rows {@code {"rewards": [numbers], "values": [numbers]}} (per token, equal lengths) get
 *       {@code "advantages"} and {@code "returns"}.</li>
 * </ul>
 */
public final class AdvantageFile {

    /** What a GRPO run saw: rows, groups, and groups whose rewards are all equal (no learning signal). */
    public record GrpoSummary(long rows, long groups, long zeroVarianceGroups) {
    }

    /** What a GAE run saw: rows and tokens. */
    public record GaeSummary(long rows, long tokens) {
    }

    private AdvantageFile() {
    }

    public static GrpoSummary grpo(Path in, Path out, GrpoFlavor flavor, StdScaling scaling) {
        List<GrpoAdvantages.Sample> samples = new ArrayList<>();
        List<Long> lines = new ArrayList<>();
        JsonlRows.forEach(in, (line, row) -> {
            samples.add(sample(in, line, row));
            lines.add(line);
        });
        double[] adv;
        try {
            adv = GrpoAdvantages.compute(samples, flavor, scaling);
        } catch (GrpoAdvantages.Problem p) {
            throw samples.isEmpty() ? new BadInputException(in + ": " + p.getMessage())
                    : BadInputException.at(in, lines.get(p.index()), p.getMessage());
        }
        int[] i = {0};
        try (AtomicJsonlWriter w = new AtomicJsonlWriter(out)) {
            JsonlRows.forEach(in, (line, row) -> w.write(row.deepCopy().put("advantage", adv[i[0]++])));
            w.commit();
        }
        return new GrpoSummary(samples.size(), samples.stream().map(GrpoAdvantages.Sample::group).distinct().count(),
                zeroVarianceGroups(samples));
    }

    public static GaeSummary gae(Path in, Path out, double gamma, double lambda, Whitening whitening) {
        Gae.checkFactor("--gamma", gamma);
        Gae.checkFactor("--lambda", lambda);
        List<Gae.Result> results = new ArrayList<>();
        JsonlRows.forEach(in, (line, row) -> {
            try {
                results.add(Gae.compute(numbers(row, "rewards"), numbers(row, "values"), gamma, lambda));
            } catch (IllegalArgumentException e) {
                throw BadInputException.at(in, line, e.getMessage());
            }
        });
        List<double[]> advantages;
        try {
            advantages = whitening.apply(results.stream().map(Gae.Result::advantages).toList());
        } catch (IllegalArgumentException e) {
            throw new BadInputException(in + ": " + e.getMessage());
        }
        int[] i = {0};
        long[] tokens = {0};
        try (AtomicJsonlWriter w = new AtomicJsonlWriter(out)) {
            JsonlRows.forEach(in, (line, row) -> {
                ObjectNode o = row.deepCopy();
                array(o.putArray("advantages"), advantages.get(i[0]));
                array(o.putArray("returns"), results.get(i[0]).returns());
                tokens[0] += advantages.get(i[0]).length;
                i[0]++;
                w.write(o);
            });
            w.commit();
        }
        return new GaeSummary(results.size(), tokens[0]);
    }

    private static GrpoAdvantages.Sample sample(Path in, long line, ObjectNode row) {
        JsonNode group = row.get("group");
        if (group == null) {
            throw BadInputException.at(in, line, "missing \"group\"");
        }
        if (!group.isTextual() && !group.isNumber()) {
            throw BadInputException.at(in, line, "\"group\" must be a string or a number");
        }
        JsonNode reward = row.get("reward");
        if (reward == null) {
            throw BadInputException.at(in, line, "missing \"reward\"");
        }
        if (reward.isNull()) {
            return new GrpoAdvantages.Sample(group.asText(), null);
        }
        if (!reward.isNumber() || !Double.isFinite(reward.doubleValue())) {
            throw BadInputException.at(in, line, "\"reward\" must be a number");
        }
        return new GrpoAdvantages.Sample(group.asText(), reward.doubleValue());
    }

    private static double[] numbers(ObjectNode row, String field) {
        JsonNode n = row.get(field);
        if (n == null) {
            throw new IllegalArgumentException("missing \"" + field + "\"");
        }
        if (!n.isArray()) {
            throw new IllegalArgumentException("\"" + field + "\" must be a list of numbers");
        }
        double[] out = new double[n.size()];
        for (int k = 0; k < out.length; k++) {
            JsonNode e = n.get(k);
            if (!e.isNumber() || !Double.isFinite(e.doubleValue())) {
                throw new IllegalArgumentException("\"" + field + "\" item " + (k + 1) + " must be a number");
            }
            out[k] = e.doubleValue();
        }
        return out;
    }

    private static void array(ArrayNode a, double[] values) {
        for (double v : values) {
            a.add(v);
        }
    }

    /** Groups whose scored rewards are all equal: every advantage 0, nothing to learn from. */
    private static long zeroVarianceGroups(List<GrpoAdvantages.Sample> samples) {
        Map<String, Set<Double>> distinct = new LinkedHashMap<>();
        for (GrpoAdvantages.Sample s : samples) {
            Set<Double> set = distinct.computeIfAbsent(s.group(), g -> new HashSet<>());
            if (s.reward() != null) {
                set.add(s.reward());
            }
        }
        return distinct.values().stream().filter(set -> set.size() <= 1).count();
    }
}
