package dev.veracity.methods.c3po;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * Which prompts carry the authors' few-shot examples ({@link FewShotExamples}), and the seed of their random draw.
 * The authors' code draws examples at random for every prompt it builds: the LLM's roadmap always, its answer (with
 * documents) when {@code llm_query_few_shot} is on (their inference script), and the proxy's router, filter and
 * Decision Maker when {@code few_shot} is on: their data collection with Qwen2-72B-Instruct as the proxy, which is
 * C-3PO-ICL ("C-3PO-ICL showcases the framework's effectiveness through few-shot learning", section 6.7); their
 * trained proxy is asked zero-shot.
 *
 * <p>Their draw follows Python's global generator seeded once per run ({@code --seed}, 42), so it depends on the order
 * in which a batch builds its prompts. Ours is a function of the seed, the agent and the prompt without examples:
 * the same question in the same state gets the same examples whatever the concurrency, a rerun sends the same
 * prompts (and hits the response cache), and another seed draws others.
 *
 * @param mode which prompts carry examples
 * @param seed the draw's seed (the authors' default 42)
 */
public record FewShot(Mode mode, long seed) {

    /** The authors' {@code --seed} default. */
    public static final long AUTHORS_SEED = 42;

    /** Zero-shot everywhere. */
    public static final FewShot NONE = new FewShot(Mode.NONE, AUTHORS_SEED);

    /** The default: {@link Mode#AUTO} with the authors' seed. */
    public static final FewShot AUTO = new FewShot(Mode.AUTO, AUTHORS_SEED);

    /** Which prompts carry examples. */
    public enum Mode {
        /** {@link #ALL} when one model plays the proxy and the LLM (no proxy backend: C-3PO-ICL), else {@link #LLM}. */
        AUTO,
        /** Every prompt zero-shot. */
        NONE,
        /** The LLM's roadmap and answer prompts (the authors' test with their trained proxy). */
        LLM,
        /** The proxy's router, filter and Decision Maker prompts too (C-3PO-ICL; the authors' data collection). */
        ALL;

        /** The option's name: auto, none, llm or all. */
        public String optionName() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Mode of(String name) {
            for (Mode m : values()) {
                if (m.optionName().equals(name)) {
                    return m;
                }
            }
            throw new IllegalArgumentException("unknown few-shot mode '" + name + "'; one of auto, none, llm, all");
        }
    }

    public FewShot {
        if (mode == null) {
            throw new IllegalArgumentException("a few-shot mode");
        }
    }

    /** This setting with {@link Mode#AUTO} decided: {@link Mode#ALL} when no proxy backend is configured. */
    public FewShot resolve(boolean proxyConfigured) {
        return mode != Mode.AUTO ? this : new FewShot(proxyConfigured ? Mode.LLM : Mode.ALL, seed);
    }

    /** The agents whose prompts carry examples ({@link Mode#AUTO} must be resolved first). */
    public Set<Agent> agents() {
        return switch (mode) {
            case NONE -> EnumSet.noneOf(Agent.class);
            case LLM -> EnumSet.of(Agent.ROADMAP, Agent.ANSWER);
            case ALL -> EnumSet.allOf(Agent.class);
            case AUTO -> throw new IllegalStateException("few-shot mode auto is decided by resolve(proxyConfigured)");
        };
    }

    /** How it reads in a run's log: the mode and the seed. */
    public String describe() {
        return mode == Mode.NONE ? "none" : mode.optionName() + " (seed " + seed + ")";
    }
}
