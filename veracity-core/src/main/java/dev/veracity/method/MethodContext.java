package dev.veracity.method;

import dev.veracity.llm.client.LlmClient;
import dev.veracity.retrieval.Embedder;
import dev.veracity.retrieval.PageSource;
import dev.veracity.retrieval.Retriever;
import dev.veracity.trace.CallContext;
import java.util.Map;
import java.util.Objects;

/**
 * What a method needs besides the question: the model client, where its calls belong in the traces, and the
 * task's shape.
 *
 * @param llm         the model client (limits, retries, cache, traces)
 * @param calls       run, question and method of this answer; methods add role and step per call
 * @param dataset     the dataset's name (hotpotqa, fever, ramdocs, ...) for methods whose prompts differ by
 *                    dataset, as the papers' do; "" when unknown
 * @param multiAnswer the dataset expects every valid answer of an ambiguous question (RAMDocs, AmbigDocs,
 *                    FaithEval as MADAM-RAG runs them), in the "All Correct Answers: [...]" format
 * @param options     method settings from the command line ({@code --option k=21}), by name
 * @param retriever   a retriever for methods that search (C-3PO, Reasoning Court), or null
 * @param embedder    an embedder for methods that compare documents (Speculative RAG), or null
 * @param pages       a Wikipedia of pages by title for methods whose agents act in one (Reasoning Court's ReAct
 *                    agents, {@code --pages DIR}), or null: such methods then read the question's own paragraphs
 * @param models      the models bound to the {@link ModelRole}s the method declares, for methods whose agents run
 *                    on different models (C-3PO's {@code proxy}: a small model beside the large LLM); read them with
 *                    {@link #model(ModelRole)}, which gives {@link #llm} for a role not bound
 */
public record MethodContext(LlmClient llm, CallContext calls, String dataset, boolean multiAnswer,
                            Map<String, String> options, Retriever retriever, Embedder embedder, PageSource pages,
                            Map<ModelRole, LlmClient> models) {

    /** A context with one model. */
    public MethodContext(LlmClient llm, CallContext calls, String dataset, boolean multiAnswer,
                         Map<String, String> options, Retriever retriever, Embedder embedder, PageSource pages) {
        this(llm, calls, dataset, multiAnswer, options, retriever, embedder, pages, Map.of());
    }

    /** A context without a page store and with one model. */
    public MethodContext(LlmClient llm, CallContext calls, String dataset, boolean multiAnswer,
                         Map<String, String> options, Retriever retriever, Embedder embedder) {
        this(llm, calls, dataset, multiAnswer, options, retriever, embedder, null, Map.of());
    }

    /** A context without retrieval tools. */
    public MethodContext(LlmClient llm, CallContext calls, String dataset, boolean multiAnswer,
                         Map<String, String> options) {
        this(llm, calls, dataset, multiAnswer, options, null, null, null, Map.of());
    }

    /** The retriever; an error that says how to supply one when the method needs it and there is none. */
    public Retriever requireRetriever() {
        if (retriever == null) {
            throw new IllegalStateException("this method searches: give it an index (--index DIR) or a retriever");
        }
        return retriever;
    }

    /** The embedder; an error when the method needs one and there is none. */
    public Embedder requireEmbedder() {
        if (embedder == null) {
            throw new IllegalStateException("this method compares documents by embedding: give it an embedder");
        }
        return embedder;
    }

    public MethodContext {
        Objects.requireNonNull(llm, "llm");
        Objects.requireNonNull(calls, "calls");
        dataset = Objects.requireNonNullElse(dataset, "");
        options = options == null ? Map.of() : Map.copyOf(options);
        models = models == null ? Map.of() : Map.copyOf(models);
    }

    /**
     * The model of the role, or {@link #llm} when none is bound to it: a method asks for its roles' models and runs on
     * one model when the front end sets up only one.
     */
    public LlmClient model(ModelRole role) {
        return models.getOrDefault(role, llm);
    }

    /** Whether a model of its own is bound to the role (else the role runs on {@link #llm}). */
    public boolean hasModel(ModelRole role) {
        return models.containsKey(role);
    }

    /** This context with a model bound to the role (replacing the role's one). */
    public MethodContext withModel(ModelRole role, LlmClient client) {
        Map<ModelRole, LlmClient> m = new java.util.HashMap<>(models);
        m.put(Objects.requireNonNull(role, "role"), Objects.requireNonNull(client, "client"));
        return new MethodContext(llm, calls, dataset, multiAnswer, options, retriever, embedder, pages, m);
    }

    /**
     * This context with every model client, the default and the named ones, replaced by {@code f} of it (a composite
     * method hands its part a view of each, e.g. {@link LlmClient#resampled}).
     */
    public MethodContext withEveryClient(java.util.function.UnaryOperator<LlmClient> f) {
        Map<ModelRole, LlmClient> m = new java.util.LinkedHashMap<>();
        models.forEach((role, c) -> m.put(role, f.apply(c)));
        return new MethodContext(f.apply(llm), calls, dataset, multiAnswer, options, retriever, embedder, pages, m);
    }

    /** This context with another set of options (a composite method hands its parts their own). */
    public MethodContext withOptions(Map<String, String> newOptions) {
        return new MethodContext(llm, calls, dataset, multiAnswer, newOptions, retriever, embedder, pages, models);
    }

    /** The calls of one agent role. */
    public CallContext role(String role, int step) {
        return calls.role(role).step(step);
    }

    /** An integer option, or its default; a malformed value is an error that names the option. */
    public int intOption(String name, int defaultValue) {
        String v = options.get(name);
        if (v == null) {
            return defaultValue;
        }
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("option " + name + " must be an integer, was '" + v + "'");
        }
    }

    /** A decimal option, or its default. */
    public double doubleOption(String name, double defaultValue) {
        String v = options.get(name);
        if (v == null) {
            return defaultValue;
        }
        try {
            return Double.parseDouble(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("option " + name + " must be a number, was '" + v + "'");
        }
    }
}
