package dev.veracity.cli;

import dev.veracity.retrieval.SearchIndex;
import dev.veracity.config.VeracityConfig;
import dev.veracity.eval.run.DocumentSource;
import dev.veracity.method.Capability;
import dev.veracity.method.MethodAnswer;
import dev.veracity.method.MethodContext;
import dev.veracity.method.QaMethod;
import dev.veracity.methods.Methods;
import dev.veracity.qa.Document;
import dev.veracity.qa.QaItem;
import dev.veracity.retrieval.Retriever;
import dev.veracity.trace.CallContext;
import dev.veracity.trace.CallRecord;
import dev.veracity.trace.InMemoryTraces;
import dev.veracity.trace.TraceSink;
import dev.veracity.trace.TraceStore;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ./veracity ask}: one question through any method, to try it before a benchmark. Documents come from a JSONL
 * file ({@code --docs}, as {@code verify} reads them) or an index ({@code --index}, top {@code --k}); closed-book
 * methods get none. Prints the answer, every call per role (step, prompt head, output) and calls, tokens, time.
 */
@Command(name = "ask", mixinStandardHelpOptions = true,
        description = "Answer one question with a method and print the answer and every model call, role by role.")
final class AskCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "QUESTION", description = "The question.")
    String question;

    @Option(names = "--method", required = true, paramLabel = "NAME", description = "Method: ${COMPLETION-CANDIDATES}.",
            completionCandidates = EvalCommand.MethodNames.class)
    String method;

    @Option(names = "--docs", paramLabel = "FILE",
            description = "JSONL, one document per line: {\"text\": ..., \"id\": ..., \"title\": ...} (id and title optional).")
    Path docs;




    @Option(names = "--multi-answer", description = "Ask for every valid answer (MADAM-RAG's \"All Correct Answers\" prompts).")
    boolean multiAnswer;

    @Option(names = "--option", paramLabel = "KEY=VALUE", description = "Method option, e.g. --option k=21.")
    Map<String, String> options = new LinkedHashMap<>();

    @Option(names = "--head", defaultValue = "300", paramLabel = "CHARS", description = "Characters of each prompt shown (default ${DEFAULT-VALUE}).")
    int head;

    @Mixin
    RetrievalOptions retrieval;

    @Mixin
    ModelOptions model;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        QaMethod m = Methods.byName(method);
        // checked against the method's declaration before any work
        Map<String, String> resolved = m.spec().resolve(options).values();
        Capability.requireProvided(m.spec()); // a plug-in's need no runner here meets
        if (docs != null && retrieval.given()) {
            throw new IllegalArgumentException("give documents with --docs or --index, not both");
        }
        retrieval.validate();
        dev.veracity.retrieval.PageSource pageStore = retrieval.openPages(m); // a bad --pages stops here
        if (m.needs(Capability.DOCUMENTS) && docs == null && !retrieval.given() && pageStore == null) {
            throw new IllegalArgumentException("method " + method + " needs documents: pass --docs FILE (JSONL) or --index DIR"
                    + " [--k N --search-mode bm25|dense|hybrid], or use a closed-book method (no-rag, cot, cot-sc)");
        }
        if (m.needs(Capability.RETRIEVER) && !retrieval.given()) {
            throw new IllegalArgumentException("method " + method + " searches: pass --index DIR");
        }
        List<Document> given = docs == null ? List.of() : VerifyCommand.readDocuments(docs);
        PrintWriter out = spec.commandLine().getOut();
        VeracityConfig cfg = model.resolve();
        InMemoryTraces calls = new InMemoryTraces();
        String run = "ask-" + Instant.now();
        dev.veracity.retrieval.Embedder embedder = retrieval.embedder(m);
        long t0 = System.nanoTime();
        MethodAnswer answer;
        try (SearchIndex searchIndex = retrieval.open();
             dev.veracity.retrieval.PageSource pagesOpen = pageStore;
             TraceStore store = TraceStore.open(cfg.traceFile());
             Stack stack = new Stack(cfg, TraceSink.all(store, calls))) {
            Retriever retriever = retrieval.retriever(searchIndex, embedder);
            QaItem item = new QaItem("ask", question, given, List.of(), List.of(), null, Map.of(), null);
            DocumentSource source = retrieval.source(searchIndex, retriever);
            DocumentSource.Prepared prepared = source.prepare(m, item);
            List<Document> shown = prepared.item().documents();
            out.printf(Locale.ROOT, "documents (%s): %d%n", source.kind(m).equals("dataset") ? "--docs" : source.kind(m),
                    shown.size());
            for (Document d : shown) {
                String score = d.label("score");
                out.printf(Locale.ROOT, "  [%s]%s %s%n", d.id(), score == null ? "" : " " + score,
                        VerifyCommand.cut(d.titled(), 110));
            }
            MethodContext ctx = new MethodContext(stack.client, CallContext.of(run, "ask", m.name()), "", multiAnswer,
                    resolved, retriever, embedder, pagesOpen);
            answer = m.answer(prepared.item(), ctx);
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        List<CallRecord> made = calls.all();
        out.println();
        out.println("transcript:");
        for (CallRecord r : made) {
            out.printf(Locale.ROOT, "--- %s #%d (%s%d+%d tokens, %.2f s%s)%n", r.context().role(), r.context().step(),
                    r.samples() > 1 ? r.samples() + " samples, " : "", r.usedPromptTokens(), r.usedCompletionTokens(),
                    r.latencyMicros() / 1e6, r.cacheHit() ? ", cached" : r.cachedSamples() > 0 ? ", partly cached" : "");
            out.println("prompt: " + headOf(r.prompt(), head));
            for (int i = 0; i < r.outputs().size(); i++) {
                out.println((r.outputs().size() > 1 ? "output " + (i + 1) + ": " : "output: ") + r.outputs().get(i).strip());
            }
            if (r.failed()) {
                out.println("error: " + r.error());
            }
        }
        out.println();
        out.println("answer: " + answer.prediction());
        if (!answer.answers().isEmpty()) {
            out.println("answers: " + answer.answers());
        }
        answer.parseFailures().forEach(p -> out.println("parse failure: " + p));
        // calls are requests; tokens those the method used, whether the model or the response cache answered
        dev.veracity.trace.CallStats stats = dev.veracity.trace.CallStats.ofQuestion(made);
        out.printf(Locale.ROOT, "calls %d (samples %d), tokens %d (prompt %d, completion %d%s), %.2f s, trace run %s%n",
                stats.calls(), stats.samples(), stats.usedTokens(), stats.usedPromptTokens(), stats.usedCompletionTokens(),
                stats.cachedSamples() > 0 ? "; " + (stats.cachedPromptTokens() + stats.cachedCompletionTokens())
                        + " from the cache" : "", seconds, run);
        out.flush();
        return 0;
    }

    private static String headOf(String prompt, int n) {
        String t = prompt == null ? "" : prompt.strip();
        return t.length() <= n ? t : t.substring(0, n) + " ... (" + (t.length() - n) + " more characters)";
    }
}
