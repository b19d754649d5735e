package dev.veracity.methods.court;

import dev.veracity.concurrent.Parallel;
import dev.veracity.method.MethodContext;
import dev.veracity.qa.QaItem;
import dev.veracity.retrieval.PageSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/** Runs N ReAct agents on a question concurrently (Section 3.1: "the agents run concurrently") and sums them up. */
final class Agents {

    private Agents() {
    }

    /** Agents 1..n, each on a virtual thread; their calls are bounded by the client's concurrency limit. */
    static List<Trajectory> run(int n, ReactSettings settings, QaItem item, PageSource pages, MethodContext ctx) {
        List<Integer> numbers = IntStream.rangeClosed(1, n).boxed().toList();
        return Parallel.map(numbers, k -> new ReactAgent(k, settings).run(item, pages, ctx));
    }

    /** Every step without a usable action, as a parse failure line. */
    static List<String> failures(List<Trajectory> trajectories) {
        List<String> out = new ArrayList<>();
        for (Trajectory t : trajectories) {
            for (Step s : t.steps()) {
                if (s.failure() != null) {
                    out.add(t.agent() + " step " + s.index() + ": " + s.failure().description() + " ("
                            + s.failure().name() + ") in '" + abbreviate(s.action()) + "'");
                }
            }
        }
        return out;
    }

    /**
     * Per question: agents stopped at their step limit ({@code forced_finishes}), steps without a usable action
     * ({@code action_failures}), steps that repeated the step before's action ({@code repeated_actions}), steps and
     * ReAct second calls ({@code steps}, {@code action_retries}), and whether the answering agents agreed.
     */
    static Map<String, Double> signals(List<Trajectory> ts) {
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("forced_finishes", (double) ts.stream().filter(Trajectory::forced).count());
        m.put("action_failures", (double) ts.stream().mapToLong(t -> t.steps().stream().filter(s -> s.failure() != null)
                .count()).sum());
        m.put("repeated_actions", (double) ts.stream().mapToInt(Trajectory::repeats).sum());
        m.put("steps", (double) ts.stream().mapToInt(t -> t.steps().size()).sum());
        m.put("action_retries", (double) ts.stream().mapToLong(t -> t.steps().stream().filter(s -> s.calls() > 1).count())
                .sum());
        if (ts.size() > 1) {
            m.put("agents_agree", Votes.of(ts.stream().map(Trajectory::answer).toList()).unanimous()
                    && ts.stream().noneMatch(t -> t.answer().isBlank()) ? 1.0 : 0.0);
        }
        return m;
    }

    static List<Candidate> candidates(List<Trajectory> ts) {
        return ts.stream().map(Trajectory::candidate).toList();
    }

    static String abbreviate(String s) {
        String t = s.strip().replace('\n', ' ');
        return t.length() <= 200 ? t : t.substring(0, 200) + "...";
    }
}
