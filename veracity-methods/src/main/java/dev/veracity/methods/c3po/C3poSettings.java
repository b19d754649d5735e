package dev.veracity.methods.c3po;

import dev.veracity.method.MethodOptions;
import dev.veracity.method.OptionSpec;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code c3po} method's options, resolved. Defaults are the authors' test settings ({@code arguments.py} with
 * {@code --test True}): greedy proxy, one sample per step, max depth 15, 10 passages per retrieval, at most 10
 * documents before [LLM] is forced, out-of-range filter ids dropped; the roadmap at temperature 0.3 and the answer
 * at 0; the roadmap and the answer with the authors' randomly drawn few-shot examples (seed 42), and the proxy's
 * prompts too when one model plays both (C-3PO-ICL, section 6.7).
 *
 * @param strategy null for {@code auto} (the router decides); else the strategy forced for every question (Table 3)
 * @param fewShot  which prompts carry few-shot examples ({@link FewShot.Mode#AUTO} until the run knows its backends)
 */
public record C3poSettings(Strategy strategy, Limits limits, Map<Agent, Sampling> sampling, boolean strictIds,
                           FewShot fewShot) {

    static final List<OptionSpec> OPTIONS = List.of(
            OptionSpec.choice("strategy", "auto", "auto: the Reasoning Router decides; or force one strategy for every"
                    + " question (Table 3's ablation; a forced retrieval queries the question, as the authors' force_action)",
                    "auto", "no-retrieval", "retrieval", "planning"),
            OptionSpec.integer("max-depth", 15, "deepest tree node (the authors' test: 15); [LLM] is forced past max-depth - 4"),
            OptionSpec.integer("max-documents", 10, "more accumulated documents than this force [LLM] (the authors' 10)"),
            OptionSpec.integer("top-k", SearchCache.PAGE_SIZE, "passages per retrieval; re-issuing a query fetches the next"
                    + " top-k (the authors' 10)"),
            OptionSpec.decimal("proxy-temperature", 0.0, "the proxy's sampling temperature (the authors' test: 0)"),
            OptionSpec.integer("proxy-max-tokens", 2048, "new tokens per proxy output (the authors' 2048)"),
            OptionSpec.decimal("roadmap-temperature", 0.3, "the LLM's roadmap temperature (the authors' plan_temperature 0.3)"),
            OptionSpec.decimal("answer-temperature", 0.0, "the LLM's answer temperature (the authors' 0)"),
            OptionSpec.integer("llm-max-tokens", 1024, "new tokens per LLM output (the authors' 1024)"),
            OptionSpec.bool("strict-ids", false, "refuse a filter output with an id outside 1..n (the authors' data"
                    + " collection) instead of dropping the id (their test)"),
            OptionSpec.choice("few-shot", "auto", "which prompts carry the authors' randomly drawn few-shot examples:"
                    + " llm (the roadmap and the answer, as their test), all (the proxy's agents too: C-3PO-ICL, section"
                    + " 6.7), none (zero-shot), auto (all when no proxy backend is configured, else llm)",
                    "auto", "none", "llm", "all"),
            OptionSpec.integer("few-shot-seed", (int) FewShot.AUTHORS_SEED, "seed of the few-shot draw (the authors' 42);"
                    + " a prompt's examples depend on the seed, the agent and the prompt"));

    public C3poSettings {
        sampling = Map.copyOf(sampling);
    }

    /** The authors' test settings. */
    public static C3poSettings defaults() {
        return new C3poSettings(null, Limits.TEST, sampling(Sampling.PROXY_TEST, Sampling.ROADMAP, Sampling.ANSWER), false,
                FewShot.AUTO);
    }

    static C3poSettings of(MethodOptions o) {
        String s = o.string("strategy");
        Limits limits = new Limits(o.intValue("max-depth"), o.intValue("max-documents"), o.intValue("top-k"));
        int proxyTokens = o.intValue("proxy-max-tokens");
        int llmTokens = o.intValue("llm-max-tokens");
        Sampling proxy = new Sampling(o.doubleValue("proxy-temperature"), 1.0, proxyTokens);
        Sampling roadmap = new Sampling(o.doubleValue("roadmap-temperature"), 1.0, llmTokens);
        Sampling answer = new Sampling(o.doubleValue("answer-temperature"), 1.0, llmTokens);
        return new C3poSettings(s.equals("auto") ? null : Strategy.ofOption(s), limits,
                sampling(proxy, roadmap, answer), o.bool("strict-ids"),
                new FewShot(FewShot.Mode.of(o.string("few-shot")), o.intValue("few-shot-seed")));
    }

    /** One sampling for the proxy's three agents, one for the roadmap, one for the answer. */
    public static Map<Agent, Sampling> sampling(Sampling proxy, Sampling roadmap, Sampling answer) {
        Map<Agent, Sampling> m = new EnumMap<>(Agent.class);
        m.put(Agent.ROUTER, proxy);
        m.put(Agent.FILTER, proxy);
        m.put(Agent.DECISION, proxy);
        m.put(Agent.ROADMAP, roadmap);
        m.put(Agent.ANSWER, answer);
        return m;
    }
}
