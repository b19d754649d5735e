package dev.veracity.server;

import dev.veracity.eval.run.DocumentSource;
import dev.veracity.http.HttpProblem;
import dev.veracity.http.ServerLog;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.method.Capability;
import dev.veracity.method.MethodAnswer;
import dev.veracity.method.MethodContext;
import dev.veracity.method.QaMethod;
import dev.veracity.qa.Document;
import dev.veracity.qa.QaItem;
import dev.veracity.retrieval.Embedder;
import dev.veracity.retrieval.PageSource;
import dev.veracity.retrieval.Retriever;
import dev.veracity.trace.CallContext;
import dev.veracity.trace.CallRecord;
import dev.veracity.trace.CallStats;
import dev.veracity.trace.RequestTraces;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * One request through its method, as {@code eval} answers a question: the documents (the request's, else the top k of
 * the server's index searched with the question as {@code eval --index} does, none for a closed-book method), the
 * checked options, then {@link QaMethod#answer} with the request's upstream client. The question's call records are
 * collected per request ({@link RequestTraces}) for its usage, per-role calls and critical path.
 */
final class Pipeline {

    /** The run id of every call the server makes; the question id is the request's id. */
    static final String RUN_ID = "serve";

    /** A request ready to answer: everything the method needs, checked before any model call. */
    record Prepared(String requestId, ChatRequest request, QaMethod method, Map<String, String> options, QaItem item,
                    String documentSource, List<String> ignored) {
    }

    /** What the method answered and what it cost. */
    record Outcome(Prepared prepared, MethodAnswer answer, List<CallRecord> calls, CallStats stats, long pipelineNanos) {
    }

    private final DocumentSource index;
    private final Retriever retriever;
    private final Supplier<Embedder> embedder;
    private final PageSource pages;
    private final RequestTraces traces;
    private final ServeMetrics metrics;
    private final ServerLog log;

    /**
     * @param index     documents from the server's index ({@code --index}), or null
     * @param retriever the index's retriever for methods that search, or null
     * @param embedder  the embedder, loaded on first use by a method that needs one, or null
     * @param pages     a page store for methods whose agents act in a Wikipedia, or null
     */
    Pipeline(DocumentSource index, Retriever retriever, Supplier<Embedder> embedder, PageSource pages,
             RequestTraces traces, ServeMetrics metrics, ServerLog log) {
        this.index = index;
        this.retriever = retriever;
        this.embedder = embedder;
        this.pages = pages;
        this.traces = traces;
        this.metrics = metrics;
        this.log = log;
    }

    /** The question's id as methods see it ({@link QaItem#contentId}), not the request's id. */
    static String itemId(String question, List<Document> documents) {
        return QaItem.contentId(question, documents);
    }

    /** Checks options and documents and retrieves; a 400 for what the method cannot answer, before any model call. */
    Prepared prepare(String requestId, ChatRequest r, QaMethod m) {
        Map<String, String> options;
        try {
            options = m.spec().resolve(r.options()).values();
        } catch (IllegalArgumentException e) {
            throw new HttpProblem(400, "invalid_option", ClientText.quote(e.getMessage(), 1000))
                    .withParam("veracity_options");
        }
        try {
            Capability.requireProvided(m.spec()); // a plug-in's need this server cannot meet
        } catch (IllegalArgumentException e) {
            throw new HttpProblem(400, "unsupported_method", e.getMessage()).withParam("model");
        }
        if (m.needs(Capability.RETRIEVER) && retriever == null) {
            throw new HttpProblem(400, "missing_index", "method " + m.name() + " searches an index itself: this server"
                    + " was started without --index").withParam("model");
        }
        if (m.needs(Capability.EMBEDDER) && embedder != null) {
            try {
                embedder.get(); // loaded once (seconds); a server that cannot embed says so before any model call
            } catch (IllegalStateException e) { // the in-process model without the optional embed part
                throw new HttpProblem(400, "missing_embedder", "method " + m.name() + " compares documents by embedding"
                        + " and this server cannot embed: " + ClientText.quote(e.getMessage(), 1000)).withParam("model");
            }
        }
        QaItem item = new QaItem(itemId(r.question(), r.documents()), r.question(), List.of(), List.of(), List.of(), null,
                Map.of(), null);
        List<String> ignored = new ArrayList<>(r.ignored());
        String source;
        if (!m.needs(Capability.DOCUMENTS)) {
            source = "none";
            if (r.documents() != null) {
                ignored.add("documents (" + m.name() + " answers closed-book)");
            }
        } else if (r.documents() != null) {
            source = "request";
            item = item.withDocuments(r.documents());
        } else if (index != null) {
            source = "index";
            item = index.prepare(m, item).item();
        } else if (m.needs(Capability.PAGES) && pages != null) {
            source = "pages";
        } else {
            throw new HttpProblem(400, "missing_documents", "method " + m.name() + " answers from documents: send them"
                    + " in 'documents' (extra_body) or in a system message starting 'Documents:', use a closed-book"
                    + " method (no-rag, cot, truthrl-no-retrieval), or start the server with --index DIR")
                    .withParam("documents");
        }
        return new Prepared(requestId, r, m, options, item, source, ignored);
    }

    /**
     * Runs the method. A failed upstream call is an {@link HttpProblem} (502, 503, 504); a cancelled request (its
     * thread interrupted: deadline, client gone, stop) is an InterruptedException, its calls cancelled with it.
     */
    Outcome answer(Prepared p, LlmClient client) throws InterruptedException {
        QaMethod m = p.method();
        MethodContext ctx = new MethodContext(client, CallContext.of(RUN_ID, p.requestId(), m.name()),
                p.request().dataset(), p.request().multiAnswer(), p.options(), retriever,
                m.needs(Capability.EMBEDDER) && embedder != null ? embedder.get() : null,
                m.needs(Capability.PAGES) ? pages : null);
        long t0 = System.nanoTime();
        traces.begin(p.requestId());
        List<CallRecord> calls = List.of();
        try {
            MethodAnswer answer = m.answer(p.item(), ctx);
            long nanos = System.nanoTime() - t0;
            calls = traces.end(p.requestId());
            if (Thread.currentThread().isInterrupted()) {
                throw new InterruptedException("cancelled");
            }
            return new Outcome(p, answer, calls, CallStats.ofQuestion(calls), nanos);
        } catch (RuntimeException e) {
            calls = traces.end(p.requestId());
            if (UpstreamErrors.cancelled(e)) {
                throw new InterruptedException("cancelled");
            }
            HttpProblem problem = UpstreamErrors.toProblem(e);
            if (problem == null) {
                throw e;
            }
            log.warn("request " + p.requestId() + " (" + m.name() + "): " + problem.status() + " "
                    + UpstreamErrors.forLog(e));
            throw problem;
        } finally {
            metrics.upstreamCalls(m.name(), calls);
        }
    }
}
