package dev.veracity.methods.madam;

import dev.veracity.method.MethodContext;
import dev.veracity.method.MethodOptions;
import dev.veracity.method.MethodSpec;
import dev.veracity.method.OptionSpec;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The debate's settings, from method options ({@code --option rounds=2}) declared in {@link #OPTIONS}, the one
 * place their names, types and defaults are written.
 *
 * @param rounds     T, the most rounds (option {@code rounds}, default 3 as in the paper, Section 5.1)
 * @param aggregator whether an aggregator reconciles the agents (option {@code aggregator}, default true); without
 *                   it the final round's agents' answers are joined (Section 6.1 ablation)
 * @param earlyStop  the authors' early stop (option {@code early-stop}, default true)
 * @param history    what agents see from round 2 (option {@code history}): {@code others} (default; alias
 *                   {@code agents}: the other agents' previous responses, as the authors' code and the prompt's own wording "responses are
 *                   from other agents"), {@code aggregator} (the previous aggregation, as Section 4's
 *                   r_i = L_i(q, d_i, y, e) reads) or {@code both}
 * @param shuffle    shuffle the agents' responses before the aggregator (Section 4, against position bias;
 *                   deterministic per question and round; option {@code shuffle}, default true)
 * @param maxTokens  per generation (option {@code max-tokens}, default 512). The authors stop at 128 new tokens,
 *                   which cuts step-by-step explanations and long aggregations mid-sentence, and a cut
 *                   aggregation loses its explanation, or with a model that reasons first, its answer; the paper's
 *                   own Table 2 reports about 1,547 output tokens per question (roughly 200 per call). 512 leaves
 *                   room for a full explanation at little cost since generation stops at the end of the answer.
 */
public record MadamSettings(int rounds, boolean aggregator, boolean earlyStop, String history, boolean shuffle,
                            int maxTokens) {

    /** The options of {@code madam-rag}, with their defaults. */
    public static final List<OptionSpec> OPTIONS = List.of(
            OptionSpec.integer("rounds", 3, "T, the most debate rounds (Section 5.1)"),
            OptionSpec.bool("aggregator", true, "an aggregator reconciles the agents (false: answers joined, Section 6.1)"),
            OptionSpec.bool("early-stop", true, "the authors' early stop when answers no longer change"),
            OptionSpec.choice("history", "others", "what agents see from round 2: the others' responses, the"
                    + " previous aggregation, or both", "others", "aggregator", "both").withAlias("agents", "others"),
            OptionSpec.bool("shuffle", true, "shuffle the agents' responses before the aggregator (Section 4)"),
            OptionSpec.integer("max-tokens", 512, "output limit per generation"));

    public static final MadamSettings DEFAULT = of(new MethodSpec("madam-rag", "", "", "", OPTIONS).resolve(Map.of()));

    public MadamSettings {
        if (rounds < 1) {
            throw new IllegalArgumentException("rounds must be >= 1, was " + rounds);
        }
        if (maxTokens < 1) {
            throw new IllegalArgumentException("max-tokens must be >= 1, was " + maxTokens);
        }
        history = history == null ? "others" : history.toLowerCase(Locale.ROOT);
        if (history.equals("agents")) {
            history = "others";
        }
        if (!history.equals("others") && !history.equals("aggregator") && !history.equals("both")) {
            throw new IllegalArgumentException("option history must be others, aggregator or both, was '" + history + "'");
        }
    }

    /** The settings of a context's options (resolved against {@link MadamRag#SPEC}; an unknown or bad one is an error). */
    public static MadamSettings from(MethodContext ctx) {
        return of(MadamRag.SPEC.resolve(ctx.options()));
    }

    static MadamSettings of(MethodOptions o) {
        return new MadamSettings(o.intValue("rounds"), o.bool("aggregator"), o.bool("early-stop"), o.string("history"),
                o.bool("shuffle"), o.intValue("max-tokens"));
    }

    boolean agentsSeeAgents() {
        return !history.equals("aggregator");
    }

    boolean agentsSeeAggregation() {
        return !history.equals("others");
    }
}
