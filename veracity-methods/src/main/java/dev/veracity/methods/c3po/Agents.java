package dev.veracity.methods.c3po;

import dev.veracity.llm.ChatMessage;
import dev.veracity.llm.Completion;
import dev.veracity.llm.LlmRequest;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.method.MethodContext;
import dev.veracity.trace.CallContext;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The calls of one question: each agent's prompt sent to its backend (the proxy for router, filter and Decision
 * Maker; the LLM for roadmap and answer), as the authors send them (system "You are a helpful assistant." and the
 * prompt as the user message), traced with the agent as role and the node's depth as step. Counts the calls per
 * backend. Thread-safe: a rollout's branches call concurrently, each backend's client bounds its own load.
 */
public final class Agents {

    /**
     * What one call returned.
     *
     * @param agent   who was asked
     * @param prompt  the user message
     * @param request the request (to flag an unparseable sample in the cache)
     * @param outputs the samples' texts, in sample order
     */
    public record Sample(Agent agent, String prompt, LlmRequest request, List<Completion> outputs) {

        public List<String> texts() {
            return outputs.stream().map(Completion::text).toList();
        }
    }

    private final LlmClient proxy;
    private final LlmClient llm;
    private final CallContext calls;
    private final Map<Agent, Sampling> sampling;
    private final AtomicInteger proxyCalls = new AtomicInteger();
    private final AtomicInteger llmCalls = new AtomicInteger();

    /**
     * @param sampling how each agent samples (every agent present)
     */
    public Agents(LlmClient proxy, LlmClient llm, CallContext calls, Map<Agent, Sampling> sampling) {
        this.proxy = proxy;
        this.llm = llm;
        this.calls = calls;
        this.sampling = Map.copyOf(sampling);
        for (Agent a : Agent.values()) {
            if (!this.sampling.containsKey(a)) {
                throw new IllegalArgumentException("no sampling settings for " + a);
            }
        }
    }

    /** The method context's models: the proxy is {@link Agent#PROXY}'s (the LLM when none is bound). */
    public static Agents of(MethodContext ctx, Map<Agent, Sampling> sampling) {
        return new Agents(ctx.model(Agent.PROXY), ctx.llm(), ctx.calls(), sampling);
    }

    /** {@code n} samples of {@code agent}'s answer to {@code prompt}, for the node at {@code depth}. */
    public Sample call(Agent agent, String prompt, int n, int depth) {
        Sampling s = sampling.get(agent);
        LlmRequest request = LlmRequest.chat(ChatMessage.system(C3poPrompts.SYSTEM), ChatMessage.user(prompt)).n(n)
                .temperature(s.temperature()).topP(s.topP()).maxTokens(s.maxTokens()).build();
        (agent.proxy() ? proxyCalls : llmCalls).incrementAndGet();
        LlmClient client = client(agent);
        CallContext context = calls.role(agent.role()).step(depth);
        // the router's answer picks a path of one call, of two, or a plan of several: a run's end starts it first
        List<Completion> out = client.call(agent == Agent.ROUTER ? context.branching() : context, request).completions();
        return new Sample(agent, prompt, request, out);
    }

    /** Flags a sample the method could not parse, so the cache asks the model again next time. */
    public void markUnparseable(Sample sample, Completion completion, ParseFailure failure) {
        client(sample.agent()).markUnparseable(sample.request(), completion, failure.describe());
    }

    public LlmClient client(Agent agent) {
        return agent.proxy() ? proxy : llm;
    }

    public int proxyCalls() {
        return proxyCalls.get();
    }

    public int llmCalls() {
        return llmCalls.get();
    }

    /** The messages of a call with this prompt, as sent (for training records). */
    public static List<ChatMessage> messages(String prompt) {
        return List.of(ChatMessage.system(C3poPrompts.SYSTEM), ChatMessage.user(prompt));
    }
}
