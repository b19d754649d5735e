package dev.veracity.methods.madam;

import dev.veracity.method.MethodContext;
import java.util.Locale;

/**
 * The debate's settings, from method options ({@code --option rounds=2}).
 *
 * @param rounds     T, the most rounds (option {@code rounds}, default 3 as in the paper, Section 5.1)
 * @param aggregator whether an aggregator reconciles the agents (option {@code aggregator}, default true); without
 *                   it the final round's agents' answers are joined (Section 6.1 ablation)
 * @param earlyStop  the authors' early stop (option {@code early-stop}, default true)
 * @param history    what agents see from round 2 (option {@code history}): {@code agents} (default: the other
 *                   agents' previous responses, as the authors' code and the prompt's own wording "responses are
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

    public static final MadamSettings DEFAULT = new MadamSettings(3, true, true, "agents", true, 512);

    public MadamSettings {
        if (rounds < 1) {
            throw new IllegalArgumentException("rounds must be >= 1, was " + rounds);
        }
        if (maxTokens < 1) {
            throw new IllegalArgumentException("max-tokens must be >= 1, was " + maxTokens);
        }
        history = history == null ? "agents" : history.toLowerCase(Locale.ROOT);
        if (!history.equals("agents") && !history.equals("aggregator") && !history.equals("both")) {
            throw new IllegalArgumentException("option history must be agents, aggregator or both, was '" + history + "'");
        }
    }

    public static MadamSettings from(MethodContext ctx) {
        return new MadamSettings(ctx.intOption("rounds", DEFAULT.rounds),
                bool(ctx, "aggregator", DEFAULT.aggregator), bool(ctx, "early-stop", DEFAULT.earlyStop),
                ctx.options().getOrDefault("history", DEFAULT.history), bool(ctx, "shuffle", DEFAULT.shuffle),
                ctx.intOption("max-tokens", DEFAULT.maxTokens));
    }

    static boolean bool(MethodContext ctx, String name, boolean dflt) {
        String v = ctx.options().get(name);
        if (v == null) {
            return dflt;
        }
        return switch (v.strip().toLowerCase(Locale.ROOT)) {
            case "true", "yes", "on", "1" -> true;
            case "false", "no", "off", "0" -> false;
            default -> throw new IllegalArgumentException("option " + name + " must be true or false, was '" + v + "'");
        };
    }

    boolean agentsSeeAgents() {
        return !history.equals("aggregator");
    }

    boolean agentsSeeAggregation() {
        return !history.equals("agents");
    }
}
