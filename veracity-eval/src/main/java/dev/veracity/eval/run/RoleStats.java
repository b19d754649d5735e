package dev.veracity.eval.run;

import dev.veracity.eval.results.ResultLine;
import dev.veracity.eval.results.Summary;
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

    private RoleStats() {
    }

    /**
     * A result line's {@code roles}: {@code {"agent-1": {"calls": 3, "samples": 3, "seconds": 1.25,
     * "model_seconds": 1.2}, ...}}, roles sorted; {@code model_seconds} is absent for a role one of whose calls came from a
     * cache entry stored without its latency.
     */
    public static Map<String, ResultLine.Role> ofQuestion(List<CallRecord> calls) {
        Map<String, List<CallRecord>> byRole = new TreeMap<>();
        for (CallRecord c : calls) {
            String role = c.context().role().isEmpty() ? "-" : c.context().role();
            byRole.computeIfAbsent(role, k -> new ArrayList<>()).add(c);
        }
        Map<String, ResultLine.Role> o = new java.util.LinkedHashMap<>();
        byRole.forEach((role, list) -> {
            long start = list.stream().mapToLong(CallRecord::submittedMicros).min().orElse(0);
            long end = list.stream().mapToLong(CallRecord::endedMicros).max().orElse(0);
            long model = 0;
            boolean known = true;
            for (CallRecord c : list) {
                OptionalLong m = c.modelMicros();
                known &= m.isPresent();
                model += m.orElse(0);
            }
            o.put(role, new ResultLine.Role((long) list.size(), (long) list.stream().mapToInt(CallRecord::samples).sum(),
                    Math.round((end - start) / 1e3) / 1e3, known ? Math.round(model / 1e3) / 1e3 : null));
        });
        return o;
    }

    /**
     * summary.json's {@code roles}: per role, calls, samples, seconds and model seconds per question averaged over
     * every line (a question without a call in that role counts zero, so the roles' calls add up to the run's calls per
     * question); samples and model seconds over the lines that record them for every role (a line written before they
     * were, or with a cached call whose latency is unknown, has none), absent when none does.
     */
    public static Map<String, Summary.Role> ofRun(List<ResultLine> lines) {
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

        void add(ResultLine line) {
            lines++;
            Map<String, ResultLine.Role> roles = line.roles() == null ? Map.of() : line.roles();
            boolean withSamples = roles.values().stream().allMatch(r -> r.samples() != null);
            boolean withModel = roles.values().stream().allMatch(r -> r.modelSeconds() != null);
            sampled += withSamples ? 1 : 0;
            modelled += withModel ? 1 : 0;
            roles.forEach((role, r) -> {
                double[] s = sums.computeIfAbsent(role, k -> new double[4]);
                s[0] += r.calls() == null ? 0 : r.calls();
                s[1] += r.seconds() == null ? 0 : r.seconds();
                if (withSamples) {
                    s[2] += r.samples();
                }
                if (withModel) {
                    s[3] += r.modelSeconds();
                }
            });
        }

        Map<String, Summary.Role> result() {
            Map<String, Summary.Role> o = new java.util.LinkedHashMap<>();
            if (lines == 0) {
                return o;
            }
            sums.forEach((role, s) -> o.put(role, new Summary.Role(s[0] / lines, sampled > 0 ? s[2] / sampled : null,
                    s[1] / lines, modelled > 0 ? s[3] / modelled : null)));
            return o;
        }
    }
}
