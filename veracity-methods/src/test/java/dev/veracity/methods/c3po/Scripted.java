package dev.veracity.methods.c3po;

import dev.veracity.llm.LlmRequest;
import dev.veracity.llm.ScriptedBackend;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.method.MethodContext;
import dev.veracity.retrieval.Passage;
import dev.veracity.retrieval.Retriever;
import dev.veracity.trace.CallContext;
import dev.veracity.trace.InMemoryTraces;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Test fixtures: a proxy and an LLM scripted by prompt (each recognised by its instruction's opening), a retriever
 * that ranks passages named after the query and records every search, and the method context that joins them.
 */
final class Scripted {

    static final String ROUTER = "You are an intelligent assistant tasked with evaluating";
    static final String FILTER = "You are an intelligent assistant tasked with analyzing the retrieved documents";
    static final String DECISION = "You are an intelligent assistant tasked with determining the next appropriate action";
    static final String FORCED = "You are an intelligent assistant assigned to analyze useful information";
    static final String ROADMAP = "You are an expert assistant tasked with analyzing the following question";
    static final String ANSWER_DOCS = "You are a knowledgeable assistant.";
    static final String ANSWER_NO_DOCS = "Based on your knowledge, answer the question:";

    /** What a scripted model sees: the user message (the system message is the authors' fixed one). */
    static String user(LlmRequest r) {
        return r.messages().getLast().content();
    }

    static String kind(LlmRequest r) {
        String p = user(r);
        for (String k : List.of(ROUTER, FILTER, DECISION, FORCED, ROADMAP, ANSWER_DOCS)) {
            if (p.startsWith(k)) {
                return switch (k) {
                    case ROUTER -> "router";
                    case FILTER -> "filter";
                    case DECISION -> "decision";
                    case FORCED -> "forced";
                    case ROADMAP -> "roadmap";
                    default -> "answer";
                };
            }
        }
        return p.contains(ANSWER_NO_DOCS) ? "answer" : "unknown";
    }

    /** A backend that answers {@code script(kind, request, sample)}. */
    static ScriptedBackend backend(TriFunction script) {
        return ScriptedBackend.perSample((r, i) -> script.apply(kind(r), r, i));
    }

    @FunctionalInterface
    interface TriFunction {
        String apply(String kind, LlmRequest request, int sample);
    }

    /** Passages "{query} #i" (title "T{i} {query}"), at most {@code corpus} per query; records each (query, k). */
    static final class Search implements Retriever {
        final List<String> searches = Collections.synchronizedList(new ArrayList<>());
        final int corpus;
        volatile String failOn;

        Search(int corpus) {
            this.corpus = corpus;
        }

        @Override
        public List<Passage> search(String query, int k) {
            searches.add(query + "|" + k);
            if (query.equals(failOn)) {
                throw new IllegalStateException("retriever down for " + query);
            }
            List<Passage> out = new ArrayList<>();
            for (int i = 1; i <= Math.min(k, corpus); i++) {
                out.add(new Passage(query + "-" + i, "T" + i + " " + query, query + " #" + i, 1.0 / i));
            }
            return out;
        }
    }

    static MethodContext context(ScriptedBackend proxy, ScriptedBackend llm, Retriever retriever, String dataset,
                                 Map<String, String> options, InMemoryTraces traces) {
        LlmClient p = LlmClient.builder(proxy).concurrency(8).traces(traces).build();
        LlmClient l = LlmClient.builder(llm).concurrency(8).traces(traces).build();
        return new MethodContext(l, CallContext.of("run", "q1", "c3po"), dataset, false, options, retriever, null)
                .withModel(Agent.PROXY, p);
    }

    private Scripted() {
    }
}
