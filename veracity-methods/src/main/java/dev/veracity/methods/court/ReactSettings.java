package dev.veracity.methods.court;

import dev.veracity.method.MethodContext;
import dev.veracity.method.MethodOptions;
import dev.veracity.method.OptionSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * How ReAct agents run, from a method's options: the task (by dataset), the few-shot prompt, the step limit, the
 * output limit per step, the endpoint, ReAct's second call for a turn without an action, and the agents' sampling.
 *
 * <p>Agent diversity. The paper runs two agents at temperature 0 (Section 4.3) and says nothing else that tells them
 * apart; on a deterministic server two such agents write the same trajectory, so the paper's agents can only have
 * differed by the API's own nondeterminism at temperature 0 (batching, floating point, no seed). We send each agent
 * as an independent request (its own sample index in the response cache, so a cached agent 1 is never replayed as
 * agent 2) and make every other source of difference an explicit option: per-agent {@code temperatures}, per-agent
 * {@code seeds}, and the few-shot {@code example-order} (same, rotate: agent i starts at example i, reverse, shuffle
 * by seed). The defaults are the paper's setting; the options used are recorded with every run (method options in
 * run.json, the sampling settings of each agent role in summary.json).
 *
 * @param order the agents' example order
 */
record ReactSettings(Task task, FewShotPrompt prompt, int maxSteps, int maxTokens, boolean completions,
                     boolean actionRetry, double temperature, List<Double> temperatures, List<Long> seeds,
                     FewShotPrompt.Order order) {

    static final OptionSpec TEMPERATURE = OptionSpec.decimal("temperature", 0.0,
            "every agent's sampling temperature (the paper's: 0)");
    static final OptionSpec TEMPERATURES = OptionSpec.decimals("temperatures",
            "per-agent temperatures, e.g. 0,0.7 (overrides temperature for the agents listed)");
    static final OptionSpec SEEDS = OptionSpec.ints("seeds", "per-agent sampling seeds, e.g. 1,2 (none sent by default)");
    static final OptionSpec EXAMPLE_ORDER = OptionSpec.choice("example-order", "same",
            "few-shot example order per agent: same (the paper's), rotate (agent i starts at example i), reverse,"
                    + " shuffle (by seed)", "same", "rotate", "reverse", "shuffle");
    /** RC and its ablations: the Reasoning Enhanced Prompt (Table 5's RC without judge, 70.0, is Table 7's row). */
    static final OptionSpec FEVER_PROMPT = feverPrompt("enhanced");
    /**
     * Table 1's ReAct baselines: ReAct's original prompt. Table 1's ReAct on FEVER (64.8) is Table 7's ReAct Prompt
     * row, not its enhanced one (70.0); ReAct CoT-SC (65.4: CoT-SC only where ReAct gives no answer) and ReAct
     * Self-Refine (66.8) sit on the same 64.8.
     */
    static final OptionSpec FEVER_PROMPT_REACT = feverPrompt("react");
    static final OptionSpec MAX_STEPS = OptionSpec.integer("max-steps", 0,
            "step limit before the forced finish; 0 = the paper's (7 HotpotQA and MuSiQue, 5 FEVER)");
    static final OptionSpec MAX_TOKENS = OptionSpec.integer("max-tokens", 256, "output limit per agent step");
    static final OptionSpec ENDPOINT = OptionSpec.choice("endpoint", "chat",
            "chat (the prompt as one user message) or completions (a raw continuation, as ReAct's)", "chat",
            "completions");
    static final OptionSpec ACTION_RETRY = OptionSpec.bool("action-retry", true,
            "ReAct's second call for a turn without an action: the action alone, stopped at the line's end");

    /** The options every ReAct-based method declares, RC's FEVER prompt by default. */
    static final List<OptionSpec> OPTIONS = options(FEVER_PROMPT);

    /** The options of Table 1's ReAct baselines: ReAct's own FEVER prompt by default. */
    static final List<OptionSpec> BASELINE_OPTIONS = options(FEVER_PROMPT_REACT);

    private static OptionSpec feverPrompt(String byDefault) {
        return OptionSpec.choice("fever-prompt", byDefault,
                "FEVER few-shot prompt (Table 7): enhanced (RC's Reasoning Enhanced Prompt) or react (ReAct's)",
                "enhanced", "react");
    }

    private static List<OptionSpec> options(OptionSpec feverPrompt) {
        return List.of(TEMPERATURE, TEMPERATURES, SEEDS, EXAMPLE_ORDER, feverPrompt, MAX_STEPS, MAX_TOKENS, ENDPOINT,
                ACTION_RETRY);
    }

    /** {@code first} options, then the ReAct ones (RC's FEVER prompt by default), then {@code last}. */
    static List<OptionSpec> with(List<OptionSpec> first, List<OptionSpec> last) {
        return concat(first, OPTIONS, last);
    }

    /** As {@link #with}, for Table 1's ReAct baselines: ReAct's own FEVER prompt by default. */
    static List<OptionSpec> baselineWith(List<OptionSpec> first, List<OptionSpec> last) {
        return concat(first, BASELINE_OPTIONS, last);
    }

    private static List<OptionSpec> concat(List<OptionSpec> first, List<OptionSpec> react, List<OptionSpec> last) {
        List<OptionSpec> all = new ArrayList<>(first);
        all.addAll(react);
        all.addAll(last);
        return List.copyOf(all);
    }

    static ReactSettings from(MethodOptions o, MethodContext ctx) {
        Task task = Task.of(ctx.dataset());
        int steps = o.intValue("max-steps");
        if (steps < 0 || o.intValue("max-tokens") < 1) {
            throw new IllegalArgumentException("options max-steps must be >= 0 and max-tokens >= 1");
        }
        for (double t : o.numbers("temperatures")) {
            if (t < 0) {
                throw new IllegalArgumentException("option temperatures must be >= 0, was " + o.string("temperatures"));
            }
        }
        if (o.doubleValue("temperature") < 0) {
            throw new IllegalArgumentException("option temperature must be >= 0, was " + o.string("temperature"));
        }
        return new ReactSettings(task, FewShotPrompt.of(task.agentPrompt(o.string("fever-prompt")), task.label),
                steps == 0 ? task.maxSteps : steps, o.intValue("max-tokens"), o.string("endpoint").equals("completions"),
                o.bool("action-retry"), o.doubleValue("temperature"), o.numbers("temperatures"), o.longs("seeds"),
                FewShotPrompt.Order.valueOf(o.string("example-order").toUpperCase(java.util.Locale.ROOT)));
    }

    /** Agent {@code k}'s temperature (from 1): its entry in {@code temperatures}, else {@code temperature}. */
    double temperature(int k) {
        return k <= temperatures.size() ? temperatures.get(k - 1) : temperature;
    }

    /** Agent {@code k}'s seed, or null when none is set for it. */
    Long seed(int k) {
        return k <= seeds.size() ? seeds.get(k - 1) : null;
    }
}
