package dev.veracity.methods.c3po;

import dev.veracity.llm.Completion;
import dev.veracity.method.Capability;
import dev.veracity.method.MethodAnswer;
import dev.veracity.method.MethodContext;
import dev.veracity.method.MethodSpec;
import dev.veracity.method.QaMethod;
import dev.veracity.qa.QaItem;
import dev.veracity.retrieval.Retriever;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * C-3PO inference, Algorithm 1: the Reasoning Router picks a strategy; [No Retrieval] lets the LLM answer;
 * [Retrieval] q retrieves, the Information Filter keeps documents, the LLM answers with them; [Planning] has the
 * LLM write a roadmap, then the Decision Maker and the filter loop until [LLM], and the LLM answers with the
 * accumulated documents. The state transitions are {@link Transition}'s, the limits {@link Limits}'.
 *
 * <p>Models: the proxy is {@link MethodContext#model model}({@link Agent#PROXY}), the LLM {@link MethodContext#llm()};
 * with one backend configured, one model plays both (C-3PO-ICL when it is a large instruction model). Few-shot
 * examples ({@link FewShot}, option {@code few-shot}): the roadmap and the answer as the authors' test, every prompt
 * when one model plays both (C-3PO-ICL), none on request. Retrieval:
 * {@link MethodContext#retriever()} (an index), else the question's own passages, ranked by BM25 as an index of them
 * built by {@code ./veracity index} ranks ({@link QuestionCorpus}); per-question cache and the next-10 rule in
 * {@link SearchCache}.
 *
 * <p>An output the parsers cannot read is a typed failure in the answer's parse failures, its sample flagged in the
 * cache, and the question goes on with a fallback action (the authors end the branch, which at test time leaves the
 * question unanswered):
 * <ul>
 *   <li>router: {@code [Retrieval] {question}}, the authors' own forced retrieval: the single-pass strategy with the
 *       question as query is standard RAG, the safest of the three when the router's intent is unknown;</li>
 *   <li>filter: keep every retrieved document, which is what the LLM would see without a filter;</li>
 *   <li>Decision Maker: {@code [LLM]}: answer with what has been gathered; it also bounds the loop against a model
 *       that never writes the format.</li>
 * </ul>
 * A forced [LLM] (more than 10 documents, or depth past max depth - 4) still asks the proxy with the authors'
 * forced prompt, as their code does, and answers whatever it says (their code meant to, but assigned the forced
 * action to a local variable only, so a forced [Retrieval] kept retrieving: fixed here).
 *
 * <p>Signals per question: the strategy (shares in the summary, figure 5), the answer's depth and one
 * {@code depth_N} per reachable depth (the distribution, figure 6), proxy and LLM calls, searches, retrieval-filter
 * loops, forced [LLM]s and fallbacks.
 */
public final class C3po implements QaMethod {

    public static final MethodSpec SPEC = new MethodSpec("c3po",
            "C-3PO: a proxy's router, filter and decision maker between the retriever and the LLM (strategies: direct,"
                    + " single pass, roadmap-led multi-step)",
            "C-3PO", "Algorithm 1, sections 4.1-4.2, Appendix B and D", C3poSettings.OPTIONS)
            // it searches; without an index, the question's own passages are its corpus, so the dataset must have some
            .withNeeds(Capability.DOCUMENTS, Agent.PROXY);

    @Override
    public String name() {
        return SPEC.name();
    }

    @Override
    public MethodSpec spec() {
        return SPEC;
    }

    @Override
    public MethodAnswer answer(QaItem item, MethodContext ctx) {
        C3poSettings settings = C3poSettings.of(SPEC.resolve(ctx.options()));
        Agents agents = Agents.of(ctx, settings.sampling());
        SearchCache search = new SearchCache(retriever(item, ctx), settings.limits().pageSize());
        Run run = new Run(item.question(), settings, agents, new Transition(search),
                new C3poPrompts(ctx.dataset(), settings.fewShot().resolve(hasProxy(ctx))));
        String answer = run.solve();
        return new MethodAnswer(answer, List.of(), run.failures, run.signals(search), answer).withDetail(C3poDetail.KEY,
                new C3poDetail(run.strategy == null ? "" : run.strategy.optionName(), run.actions));
    }

    /** Whether a proxy model of its own is bound (else the LLM plays the proxy: C-3PO-ICL). */
    public static boolean hasProxy(MethodContext ctx) {
        return ctx.hasModel(Agent.PROXY);
    }

    /** The index's retriever, else the question's passages; neither is an error before any call. */
    public static Retriever retriever(QaItem item, MethodContext ctx) {
        if (ctx.retriever() != null) {
            return ctx.retriever();
        }
        if (item.documents().isEmpty()) {
            throw new IllegalArgumentException("c3po searches, and question " + item.id() + " has no passages: give it an"
                    + " index (--index DIR, built with ./veracity index)");
        }
        return new QuestionCorpus(item.documents());
    }

    /** One question's walk through Algorithm 1. */
    private static final class Run {
        final String question;
        final C3poSettings settings;
        final Agents agents;
        final Transition transition;
        final C3poPrompts prompts;
        final List<String> failures = new ArrayList<>();
        /** What each agent did, in order, for the report ({@link C3poDetail}). */
        final List<C3poDetail.Action> actions = new ArrayList<>();
        Strategy strategy;
        int answerDepth;
        int loops;
        int forced;
        int fallbacks;
        int documents;

        Run(String question, C3poSettings settings, Agents agents, Transition transition, C3poPrompts prompts) {
            this.question = question;
            this.settings = settings;
            this.agents = agents;
            this.transition = transition;
            this.prompts = prompts;
        }

        String solve() {
            State s = new State.RouterState(question);
            while (true) {
                if (!(s instanceof State.AnswerState) && settings.limits().tooDeep(s.depth() + 1)) {
                    // unreachable under the forced-[LLM] rule for max depth >= 5; kept so no setting can loop
                    s = answerWith(s);
                    fallbacks++;
                    failures.add("c3po: depth " + (s.depth() + 1) + " past max depth; answered with what was gathered");
                }
                switch (s) {
                    case State.RouterState r -> s = transition.route(r, route(r));
                    case State.RoadmapState r -> {
                        String roadmap = agents.call(Agent.ROADMAP, prompts.roadmap(question).text(), 1, r.depth() + 1)
                                .outputs().getFirst().text();
                        act(Agent.ROADMAP, r.depth() + 1, roadmap.strip(), "");
                        s = transition.planned(r, roadmap);
                    }
                    case State.DecisionState d -> s = transition.decide(d, decide(d));
                    case State.FilterState f -> {
                        loops++;
                        s = transition.filtered(f, select(f));
                    }
                    case State.AnswerState a -> {
                        strategy = a.strategy();
                        answerDepth = a.depth() + 2; // the authors' identity node that picks the answer prompt, then the answer
                        documents = a.documents().size();
                        String answer = agents.call(Agent.ANSWER, prompts.answer(question, a.documents()).text(), 1,
                                answerDepth).outputs().getFirst().text();
                        act(Agent.ANSWER, answerDepth, answer.strip(), "with " + documents + " document"
                                + (documents == 1 ? "" : "s"));
                        return answer;
                    }
                }
            }
        }

        private State answerWith(State s) {
            return switch (s) {
                case State.DecisionState d -> new State.AnswerState(question, Strategy.PLANNING, d.documents(), d.depth());
                case State.FilterState f -> new State.AnswerState(question, f.strategy(), f.accumulated(), f.depth());
                default -> new State.AnswerState(question, Strategy.PLANNING, List.of(), s.depth());
            };
        }

        private RouterParser.Route route(State.RouterState r) {
            if (settings.strategy() != null) {
                // the authors' force_action: no router call, the action written for it
                RouterParser.Route forcedRoute = new RouterParser.Route(settings.strategy(),
                        settings.strategy() == Strategy.RETRIEVAL ? question : "");
                act(Agent.ROUTER, r.depth() + 1, forcedRoute.action(), "forced by the strategy option");
                return forcedRoute;
            }
            Agents.Sample sample = agents.call(Agent.ROUTER, prompts.router(question).text(), 1, r.depth() + 1);
            Parsed<RouterParser.Route> p = RouterParser.parse(sample.outputs().getFirst().text());
            if (p.ok()) {
                act(Agent.ROUTER, r.depth() + 1, p.value().action(), "");
                return p.value();
            }
            fail(sample, p.failure(), "[Retrieval] {question}");
            RouterParser.Route fallback = new RouterParser.Route(Strategy.RETRIEVAL, question);
            act(Agent.ROUTER, r.depth() + 1, fallback.action(), "fallback: the output did not parse");
            return fallback;
        }

        private DecisionParser.Decision decide(State.DecisionState d) {
            boolean force = settings.limits().forcesLlm(d);
            Agents.Sample sample = agents.call(Agent.DECISION, prompts.decision(question, d.documents(), d.roadmap(), force).text(),
                    1, d.depth() + 1);
            Parsed<DecisionParser.Decision> p = DecisionParser.parse(sample.outputs().getFirst().text());
            if (force) {
                forced++;
                if (!p.ok()) {
                    failures.add(p.failure().describe() + " (depth " + (d.depth() + 1) + "; [LLM] was forced anyway)");
                }
                act(Agent.DECISION, d.depth() + 1, "[LLM]", "forced (" + d.documents().size() + " documents, depth "
                        + (d.depth() + 1) + ")");
                return new DecisionParser.Decision(p.ok() ? p.value().thought() : "", false, "");
            }
            if (p.ok()) {
                act(Agent.DECISION, d.depth() + 1, p.value().action(), "");
                return p.value();
            }
            fail(sample, p.failure(), "[LLM]");
            act(Agent.DECISION, d.depth() + 1, "[LLM]", "fallback: the output did not parse");
            return new DecisionParser.Decision("", false, "");
        }

        private List<Integer> select(State.FilterState f) {
            Agents.Sample sample = agents.call(Agent.FILTER, prompts.filter(question, f.retrieved(), f.objective()).text(), 1,
                    f.depth() + 1);
            Parsed<FilterParser.Selection> p = FilterParser.parse(sample.outputs().getFirst().text(), f.retrieved().size(),
                    settings.strictIds());
            String of = "of " + f.retrieved().size() + " retrieved for '" + f.query() + "'";
            if (p.ok()) {
                act(Agent.FILTER, f.depth() + 1, p.value().ids().toString(), of);
                return p.value().ids();
            }
            fail(sample, p.failure(), "keep all " + f.retrieved().size() + " retrieved documents");
            List<Integer> all = IntStream.rangeClosed(1, f.retrieved().size()).boxed().toList();
            act(Agent.FILTER, f.depth() + 1, all.toString(), of + "; fallback: the output did not parse");
            return all;
        }

        private void act(Agent agent, int depth, String action, String note) {
            actions.add(new C3poDetail.Action(agent.role(), depth, action, note));
        }

        private void fail(Agents.Sample sample, ParseFailure failure, String fallback) {
            fallbacks++;
            Completion c = sample.outputs().getFirst();
            failures.add(failure.describe() + "; fallback: " + fallback);
            agents.markUnparseable(sample, c, failure);
        }

        Map<String, Double> signals(SearchCache search) {
            Map<String, Double> m = new LinkedHashMap<>();
            for (Strategy st : Strategy.values()) {
                m.put("strategy_" + st.optionName().replace('-', '_'), st == strategy ? 1.0 : 0.0);
            }
            m.put("depth", (double) answerDepth);
            for (int depth : reachableAnswerDepths(settings.limits())) {
                m.put("depth_" + depth, depth == answerDepth ? 1.0 : 0.0);
            }
            m.put("proxy_calls", (double) agents.proxyCalls());
            m.put("llm_calls", (double) agents.llmCalls());
            m.put("searches", (double) search.searches());
            m.put("retrieval_loops", (double) loops);
            m.put("forced_llm", (double) forced);
            m.put("fallbacks", (double) fallbacks);
            m.put("documents", (double) documents);
            return m;
        }
    }

    /**
     * The depths an answer can have: 3 ([No Retrieval]: router, answer prompt, answer), 4 (single pass), and
     * 5, 7, ... for [Planning] (each retrieval-filter loop adds two) up to the forced-[LLM] bound.
     */
    public static List<Integer> reachableAnswerDepths(Limits limits) {
        List<Integer> out = new ArrayList<>(List.of(3, 4));
        for (int d = 5; d <= limits.maxDepth() + 1; d += 2) {
            out.add(d);
        }
        return out;
    }
}
