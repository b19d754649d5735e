package dev.veracity.methods.c3po.rollout;

import dev.veracity.concurrent.Parallel;
import dev.veracity.llm.LlmException;
import dev.veracity.method.MethodContext;
import dev.veracity.methods.c3po.Agent;
import dev.veracity.methods.c3po.Agents;
import dev.veracity.methods.c3po.C3po;
import dev.veracity.methods.c3po.C3poPrompts;
import dev.veracity.methods.c3po.C3poSettings;
import dev.veracity.methods.c3po.DecisionParser;
import dev.veracity.methods.c3po.FilterParser;
import dev.veracity.methods.c3po.Limits;
import dev.veracity.methods.c3po.Parsed;
import dev.veracity.methods.c3po.RouterParser;
import dev.veracity.methods.c3po.SearchCache;
import dev.veracity.methods.c3po.State;
import dev.veracity.methods.c3po.Strategy;
import dev.veracity.methods.c3po.Transition;
import dev.veracity.qa.QaItem;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Builds one question's tree (section 5.1). The first level is deterministic: the router's three actions are
 * written for it ({@code [No Retrieval]}, {@code [Retrieval] {question}} as the authors' forced retrieval writes it,
 * {@code [Planning]}). Below, every node samples K(t) actions of the next agent (eq. 1-2) in one call, identical
 * samples are one child, and each action's state follows by the deterministic transition (eq. 3, Appendix B.2).
 * Leaves are the LLM's answers, scored by the {@link LeafReward}; a branch that cannot go on (an output that does not
 * parse, a node past the max depth, a failed call or search, the call budget) ends in a failure leaf with reward 0.
 * Then {@link Credit} gives every node eq. 5's credit.
 *
 * <p>Independent branches run concurrently on virtual threads; each backend's client bounds its own load, and the
 * question's {@link SearchCache} (and the response cache) share identical searches and calls between branches.
 */
public final class Rollout {

    private final RolloutSettings settings;
    private final LeafReward reward;

    public Rollout(RolloutSettings settings, LeafReward reward) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.reward = Objects.requireNonNull(reward, "reward");
    }

    /**
     * The credited tree of one question. The context gives the backends (proxy: {@code client("proxy")}), the
     * retriever (else the question's passages), the dataset (prompts' notes, MuSiQue's depth) and the trace context.
     */
    public Tree run(QaItem item, MethodContext ctx) {
        long t0 = System.nanoTime();
        Limits limits = settings.limits(item, ctx.dataset());
        SearchCache search = new SearchCache(C3po.retriever(item, ctx), limits.pageSize());
        Agents agents = Agents.of(ctx, C3poSettings.sampling(settings.proxy(), settings.roadmap(), settings.answer()));
        Build b = new Build(item, limits, agents, new Transition(search),
                new C3poPrompts(ctx.dataset(), settings.fewShot().resolve(C3po.hasProxy(ctx))));
        Node root = Node.root(item.question());
        b.expandRoot(root);
        Credit.assign(root);
        return new Tree(item.id(), item.question(), item.goldForms(), limits.maxDepth(), root, agents.proxyCalls(),
                agents.llmCalls(), search.searches(), b.truncated.get(), System.nanoTime() - t0);
    }

    /** One tree under construction. */
    private final class Build {
        final QaItem item;
        final String question;
        final Limits limits;
        final Agents agents;
        final Transition transition;
        final C3poPrompts prompts;
        final AtomicInteger calls = new AtomicInteger();
        final AtomicBoolean truncated = new AtomicBoolean();

        Build(QaItem item, Limits limits, Agents agents, Transition transition, C3poPrompts prompts) {
            this.item = item;
            this.question = item.question();
            this.limits = limits;
            this.agents = agents;
            this.transition = transition;
            this.prompts = prompts;
        }

        void expandRoot(Node root) {
            State.RouterState start = new State.RouterState(question);
            C3poPrompts.Prompt prompt = prompts.router(question);
            if (settings.tree()) {
                for (Strategy s : Strategy.values()) {
                    RouterParser.Route route = new RouterParser.Route(s, s == Strategy.RETRIEVAL ? question : "");
                    Node n = root.child(Agent.ROUTER, 1, prompt, route.action(), route.action(), true);
                    transit(n, () -> transition.route(start, route));
                }
            } else {
                sample(root, Agent.ROUTER, prompt, 1, out -> {
                    Parsed<RouterParser.Route> p = RouterParser.parse(out);
                    return p.ok() ? new Step(p.value().action(), () -> transition.route(start, p.value()))
                            : Step.failed(p.failure().describe());
                });
            }
            expandChildren(root);
        }

        void expand(Node node) {
            State s = node.next;
            int depth = node.depth + 1;
            switch (s) {
                case State.AnswerState a -> answer(node, a);
                case State.RoadmapState r -> sample(node, Agent.ROADMAP, prompts.roadmap(question),
                        settings.branching(depth), out -> new Step(out, () -> transition.planned(r, out)));
                case State.DecisionState d -> {
                    boolean forced = limits.forcesLlm(d);
                    sample(node, Agent.DECISION, prompts.decision(question, d.documents(), d.roadmap(), forced),
                            settings.branching(depth), out -> {
                                Parsed<DecisionParser.Decision> p = DecisionParser.parse(out);
                                if (!p.ok()) {
                                    return Step.failed(p.failure().describe());
                                }
                                DecisionParser.Decision decision = forced
                                        ? new DecisionParser.Decision(p.value().thought(), false, "") : p.value();
                                return new Step(decision.action(), () -> transition.decide(d, decision));
                            });
                }
                case State.FilterState f -> sample(node, Agent.FILTER, prompts.filter(question, f.retrieved(), f.objective()),
                        settings.branching(depth), out -> {
                            Parsed<FilterParser.Selection> p = FilterParser.parse(out, f.retrieved().size(), true);
                            return p.ok() ? new Step(p.value().action(), () -> transition.filtered(f, p.value().ids()))
                                    : Step.failed(p.failure().describe());
                        });
                case State.RouterState r -> throw new IllegalStateException("the router acts at the root only");
            }
            expandChildren(node);
        }

        private void expandChildren(Node node) {
            List<Node> open = node.children().stream().filter(c -> c.next != null).toList();
            Parallel.map(open, c -> {
                expand(c);
                return c;
            });
        }

        /** What one sampled output becomes: its action and the transition to the next state, or a parse failure. */
        private record Step(String action, java.util.function.Supplier<State> next, String failure) {
            Step(String action, java.util.function.Supplier<State> next) {
                this(action, next, null);
            }

            static Step failed(String failure) {
                return new Step(null, null, failure);
            }
        }

        /** One call of {@code n} samples; each distinct output a child (an action, or a parse-failure leaf). */
        private void sample(Node node, Agent agent, C3poPrompts.Prompt prompt, int n, Function<String, Step> read) {
            int depth = node.depth + 1;
            Agents.Sample sample = call(node, agent, prompt, n, depth);
            if (sample == null) {
                return;
            }
            for (var same : byText(sample).entrySet()) {
                String out = same.getKey();
                Step step = read.apply(out);
                Node child = node.child(agent, depth, prompt, out, step.action(), false);
                child.samples.addAll(same.getValue());
                if (step.failure() != null) {
                    child.fail(Node.FailureKind.PARSE, step.failure());
                } else {
                    transit(child, step.next());
                }
            }
        }

        /** Sets the child's next state, or ends its branch (past the max depth, or the search failed). */
        private void transit(Node child, java.util.function.Supplier<State> next) {
            if (limits.tooDeep(child.depth)) {
                child.fail(Node.FailureKind.MAX_DEPTH, "depth " + child.depth + " > max depth " + limits.maxDepth());
                return;
            }
            try {
                child.next = next.get();
            } catch (RuntimeException e) {
                child.fail(Node.FailureKind.RETRIEVAL, "retrieval failed: " + e.getMessage());
            }
        }

        private void answer(Node node, State.AnswerState a) {
            int depth = a.depth() + 2; // the authors' answer-prompt node (no call) sits between, as in C3po
            C3poPrompts.Prompt prompt = prompts.answer(question, a.documents());
            Agents.Sample sample = call(node, Agent.ANSWER, prompt, 1, depth);
            if (sample == null) {
                return;
            }
            for (var same : byText(sample).entrySet()) {
                Node leaf = node.child(Agent.ANSWER, depth, prompt, same.getKey(), same.getKey(), false);
                leaf.samples.addAll(same.getValue());
                leaf.answered(reward.score(question, same.getKey(), item.goldForms()));
            }
        }

        /** The call's completions grouped by text, in order of first appearance: each group is one child. */
        private static java.util.Map<String, List<dev.veracity.llm.Completion>> byText(Agents.Sample sample) {
            java.util.Map<String, List<dev.veracity.llm.Completion>> out = new java.util.LinkedHashMap<>();
            sample.outputs().forEach(c -> out.computeIfAbsent(c.text(), t -> new java.util.ArrayList<>()).add(c));
            return out;
        }

        /** The call, within the budget; a failure or an exhausted budget becomes a failure leaf under {@code node}. */
        private Agents.Sample call(Node node, Agent agent, C3poPrompts.Prompt prompt, int n, int depth) {
            if (calls.incrementAndGet() > settings.maxCalls()) {
                truncated.set(true);
                node.child(agent, depth, prompt, null, null, false).fail(Node.FailureKind.BUDGET,
                        "call budget of " + settings.maxCalls() + " spent");
                return null;
            }
            try {
                return agents.call(agent, prompt.text(), n, depth);
            } catch (LlmException e) {
                node.child(agent, depth, prompt, null, null, false).fail(Node.FailureKind.CALL,
                        "call failed: " + e.getMessage());
                return null;
            }
        }
    }

    /** The settings this rollout runs with. */
    public RolloutSettings settings() {
        return settings;
    }
}
