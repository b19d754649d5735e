package dev.veracity.eval.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.trace.CallRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * Calls, samples and time per question by agent role, from the trace records' {@code CallContext.role} (Reasoning
 * Court's Table 4 compares methods by LLM calls and seconds per question; per role it shows where they go). Calls are
 * requests; samples the completions they asked for, which are Table 4's LLM calls (a CoT-SC request of 21 samples
 * is 21). A role's seconds are the span from its first call's submission to its last call's end, so concurrent agents
 * each count their own trajectory's time and the question's wall time is not their sum; they are this run's, in which
 * a call the response cache answers takes a lookup's time. A role's model seconds sum its calls' model latencies
 * ({@link CallRecord#modelMicros()}, as the question's {@code model_ms}): a cached call at the latency its request had
 * when it was made, so they are the same in a rerun from the cache.
 */
public final class RoleStats {

    private static final ObjectMapper JSON = new ObjectMapper();

    private RoleStats() {
    }

    /**
     * A result line's {@code roles}: {@code {"agent-1": {"calls": 3, "samples": 3, "seconds": 1.25,
     * "model_seconds": 1.2}, ...}}, roles sorted; {@code model_seconds} is absent for a role one of whose calls came from a
     * cache entry stored without its latency.
     */
    public static ObjectNode ofQuestion(List<CallRecord> calls) {
        Map<String, List<CallRecord>> byRole = new TreeMap<>();
        for (CallRecord c : calls) {
            String role = c.context().role().isEmpty() ? "-" : c.context().role();
            byRole.computeIfAbsent(role, k -> new ArrayList<>()).add(c);
        }
        ObjectNode o = JSON.createObjectNode();
        byRole.forEach((role, list) -> {
            long start = list.stream().mapToLong(CallRecord::submittedMicros).min().orElse(0);
            long end = list.stream().mapToLong(CallRecord::endedMicros).max().orElse(0);
            ObjectNode r = o.putObject(role);
            r.put("calls", list.size());
            r.put("samples", list.stream().mapToInt(CallRecord::samples).sum());
            r.put("seconds", Math.round((end - start) / 1e3) / 1e3);
            long model = 0;
            boolean known = true;
            for (CallRecord c : list) {
                OptionalLong m = c.modelMicros();
                known &= m.isPresent();
                model += m.orElse(0);
            }
            if (known) {
                r.put("model_seconds", Math.round(model / 1e3) / 1e3);
            }
        });
        return o;
    }

    /**
     * summary.json's {@code roles}: per role, calls, samples, seconds and model seconds per question averaged over
     * every line (a question without a call in that role counts zero, so the roles' calls add up to the run's calls per
     * question); samples and model seconds over the lines that record them for every role (a line written before they
     * were, or with a cached call whose latency is unknown, has none), absent when none does.
     */
    public static ObjectNode ofRun(List<JsonNode> lines) {
        RunTally t = new RunTally();
        lines.forEach(t::add);
        return t.result();
    }

    /** {@link #ofRun} folded one result line at a time: constant memory over a file of any length. */
    static final class RunTally {
        private final Map<String, double[]> sums = new TreeMap<>();
        private long lines;
        /** Lines whose roles record their samples. */
        private long sampled;
        /** Lines whose roles record their model seconds. */
        private long modelled;

        void add(JsonNode line) {
            lines++;
            boolean withSamples = line.path("roles").properties().stream()
                    .allMatch(e -> e.getValue().path("samples").isNumber());
            boolean withModel = line.path("roles").properties().stream()
                    .allMatch(e -> e.getValue().path("model_seconds").isNumber());
            sampled += withSamples ? 1 : 0;
            modelled += withModel ? 1 : 0;
            line.path("roles").properties().forEach(e -> {
                double[] s = sums.computeIfAbsent(e.getKey(), k -> new double[4]);
                s[0] += e.getValue().path("calls").asDouble();
                s[1] += e.getValue().path("seconds").asDouble();
                if (withSamples) {
                    s[2] += e.getValue().path("samples").asDouble();
                }
                if (withModel) {
                    s[3] += e.getValue().path("model_seconds").asDouble();
                }
            });
        }

        ObjectNode result() {
            ObjectNode o = JSON.createObjectNode();
            if (lines == 0) {
                return o;
            }
            sums.forEach((role, s) -> {
                ObjectNode r = o.putObject(role);
                r.put("calls_per_question", s[0] / lines);
                if (sampled > 0) {
                    r.put("samples_per_question", s[2] / sampled);
                }
                r.put("seconds_per_question", s[1] / lines);
                if (modelled > 0) {
                    r.put("model_seconds_per_question", s[3] / modelled);
                }
            });
            return o;
        }
    }
}
