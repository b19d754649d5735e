package dev.veracity.langchain4j;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.exception.AuthenticationException;
import dev.langchain4j.exception.InternalServerException;
import dev.langchain4j.exception.InvalidRequestException;
import dev.langchain4j.exception.LangChain4jException;
import dev.langchain4j.exception.RateLimitException;
import dev.langchain4j.exception.RetriableException;
import dev.langchain4j.exception.TimeoutException;
import dev.langchain4j.exception.UnsupportedFeatureException;
import dev.langchain4j.model.ModelProvider;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ChatRequestParameters;
import dev.langchain4j.model.chat.request.ResponseFormatType;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.FinishReason;
import dev.langchain4j.model.output.TokenUsage;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.content.retriever.ContentRetriever;
import dev.langchain4j.rag.query.Query;
import dev.veracity.config.ApiKey;
import dev.veracity.config.Secrets;
import dev.veracity.llm.LlmBackend;
import dev.veracity.llm.LlmCallFailedException;
import dev.veracity.llm.LlmException;
import dev.veracity.llm.cache.CacheMode;
import dev.veracity.llm.cache.ResponseCache;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.llm.client.RetrySettings;
import dev.veracity.llm.langchain4j.LangChain4jBackend;
import dev.veracity.llm.openai.OpenAiCompatibleBackend;
import dev.veracity.method.Capability;
import dev.veracity.method.MethodAnswer;
import dev.veracity.method.Truncation;
import dev.veracity.method.MethodContext;
import dev.veracity.method.QaMethod;
import dev.veracity.methods.Methods;
import dev.veracity.qa.Document;
import dev.veracity.qa.QaItem;
import dev.veracity.retrieval.Embedder;
import dev.veracity.retrieval.LocalEmbedders;
import dev.veracity.retrieval.PageSource;
import dev.veracity.retrieval.Retriever;
import dev.veracity.trace.CallContext;
import dev.veracity.trace.CallRecord;
import dev.veracity.trace.CallStats;
import dev.veracity.trace.RequestTraces;
import dev.veracity.trace.TraceSink;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * A LangChain4j {@link ChatModel} that answers the last user message with a Veracity method: any name
 * {@code veracity methods} lists, or a composition {@code METHOD+march[+abstain]}, as {@code veracity serve} answers
 * a chat completion. The method runs as {@code eval} runs it ({@link QaMethod#answer}, the options checked against its
 * declaration, every model call through one {@link LlmClient}: limits, retries, traces) over any backend: an
 * OpenAI-compatible server ({@link Builder#baseUrl}), llama.cpp or any {@link LlmBackend}, or any LangChain4j
 * {@code ChatModel} ({@link Builder#backend(ChatModel)}). A method that answers from documents gets them from the
 * builder's {@link ContentRetriever} (top k for the question: {@link VeracityContentRetriever} over a Veracity index,
 * or any other); a closed-book method gets none. The response's metadata is a {@link VeracityResponseMetadata}: the
 * method's verdicts (abstention, MARCH's verdict and claims) and what the answer cost.
 *
 * <p>Usable in {@code AiServices} ({@code AiServices.builder(Assistant.class).chatModel(model)}); give the retriever to
 * this model rather than to the service, so the method sees the question, not a prompt the service wrote around it.
 * Tools and JSON response formats are refused ({@link UnsupportedFeatureException}): a method answers in text. The
 * request's sampling settings (temperature, max tokens) are not passed on: each method samples as its paper says,
 * configured by its options ({@link Builder#option}).
 * Everything that can be checked before a question is checked at {@link Builder#build()} (unknown method, bad option,
 * a method that needs documents without a retriever), as an {@link InvalidRequestException} with a one-line reason.
 */
public final class VeracityChatModel implements ChatModel, AutoCloseable {

    /** The run id of every call the model makes; the question id is the request's id. */
    static final String RUN_ID = "langchain4j";

    private final QaMethod method;
    private final Map<String, String> options;
    private final Map<String, Object> typedOptions;
    private final LlmClient client;
    private final RequestTraces traces;
    private final ContentRetriever documents;
    private final Retriever searcher;
    private final Embedder embedder;
    private final PageSource pages;
    private final String dataset;
    private final boolean multiAnswer;

    private VeracityChatModel(Builder b, QaMethod method, Map<String, String> options, LlmBackend backend,
                              Embedder embedder) {
        this.method = method;
        this.options = options;
        this.typedOptions = method.spec().typed(options);
        this.traces = new RequestTraces(b.traces);
        this.client = LlmClient.builder(backend).concurrency(b.concurrency).timeout(b.timeout).retry(b.retry)
                .cache(b.cache, b.cacheMode).traces(traces).closeBackend(b.closeBackend).build();
        this.documents = b.retriever;
        this.searcher = b.retriever instanceof VeracityContentRetriever v ? v.retriever() : null;
        this.embedder = embedder;
        this.pages = b.pages;
        this.dataset = b.dataset;
        this.multiAnswer = b.multiAnswer;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The method's name, e.g. {@code standard-rag+march+abstain}. */
    public String method() {
        return method.name();
    }

    @Override
    public ModelProvider provider() {
        return ModelProvider.OTHER;
    }

    @Override
    public ChatResponse doChat(ChatRequest request) {
        if (request.toolSpecifications() != null && !request.toolSpecifications().isEmpty()) {
            throw new UnsupportedFeatureException("VeracityChatModel (" + method.name() + ") answers in text and calls"
                    + " no tools: give the tools to a service over another model");
        }
        if (request.responseFormat() != null && request.responseFormat().type() == ResponseFormatType.JSON) {
            throw new UnsupportedFeatureException("VeracityChatModel (" + method.name() + ") answers in text, not JSON:"
                    + " return String (or Result<String>) from the service method");
        }
        String question = question(request);
        String requestId = "lc4j-" + UUID.randomUUID();
        List<Document> docs = method.needs(Capability.DOCUMENTS) && documents != null ? retrieve(question) : List.of();
        QaItem item = new QaItem(QaItem.contentId(question, docs), question, docs, List.of(), List.of(), null, Map.of(),
                null);
        MethodContext ctx = new MethodContext(client, CallContext.of(RUN_ID, requestId, method.name()), dataset,
                multiAnswer, options, searcher, embedder, method.needs(Capability.PAGES) ? pages : null);
        traces.begin(requestId);
        List<CallRecord> calls = List.of();
        MethodAnswer answer;
        try {
            answer = method.answer(item, ctx);
        } catch (RuntimeException e) {
            throw translate(e);
        } finally {
            calls = traces.end(requestId);
        }
        CallStats stats = CallStats.ofQuestion(calls);
        Truncation cut = Truncation.of(calls, answer);
        VeracityResponseMetadata metadata = VeracityResponseMetadata.builder()
                .id(requestId)
                .modelName(method.name())
                .tokenUsage(new TokenUsage(Math.toIntExact(Math.min(Integer.MAX_VALUE, stats.usedPromptTokens())),
                        Math.toIntExact(Math.min(Integer.MAX_VALUE, stats.usedCompletionTokens()))))
                .finishReason(cut.answer() ? FinishReason.LENGTH : FinishReason.STOP)
                .method(method.name())
                .upstreamModel(client.backend().defaultModel())
                .answer(answer)
                .documentIds(docs.stream().map(Document::id).toList())
                .calls(stats)
                .options(typedOptions)
                .truncation(cut)
                .ignored(ignored(request))
                .build();
        return ChatResponse.builder().aiMessage(AiMessage.from(answer.prediction())).metadata(metadata).build();
    }

    /** The last user message's text: the question the method answers. */
    private String question(ChatRequest request) {
        List<dev.langchain4j.data.message.ChatMessage> messages = request.messages();
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i) instanceof UserMessage u) {
                if (!u.hasSingleText()) {
                    throw new UnsupportedFeatureException("VeracityChatModel reads a text question: the last user"
                            + " message holds " + u.contents().size() + " parts, not one text");
                }
                if (u.singleText().isBlank()) {
                    throw new InvalidRequestException("the last user message is blank: ask a question");
                }
                return u.singleText();
            }
        }
        throw new InvalidRequestException("no user message: VeracityChatModel answers the last user message's question");
    }

    /**
     * What of the request the method does not use, as {@code serve} says it in {@code veracity.ignored}: the other
     * messages (a chat memory's history, a system message) and sampling parameters.
     */
    private static List<String> ignored(ChatRequest request) {
        List<String> out = new ArrayList<>();
        int others = request.messages().size() - 1;
        if (others > 0) {
            out.add(others + (others == 1 ? " other message" : " other messages")
                    + " (a method answers the last user message alone)");
        }
        ChatRequestParameters p = request.parameters();
        List<String> sampling = new ArrayList<>();
        if (p != null) {
            Map<String, Object> set = new java.util.LinkedHashMap<>();
            set.put("temperature", p.temperature());
            set.put("top_p", p.topP());
            set.put("top_k", p.topK());
            set.put("max_output_tokens", p.maxOutputTokens());
            set.put("frequency_penalty", p.frequencyPenalty());
            set.put("presence_penalty", p.presencePenalty());
            set.put("stop_sequences", p.stopSequences() == null || p.stopSequences().isEmpty() ? null : p.stopSequences());
            set.forEach((name, value) -> {
                if (value != null) {
                    sampling.add(name);
                }
            });
        }
        if (!sampling.isEmpty()) {
            out.add(String.join(", ", sampling) + " (each method samples as its paper says; set its options instead)");
        }
        return out;
    }

    /** The retriever's contents for the question, as documents: ids and titles from the segment's metadata. */
    private List<Document> retrieve(String question) {
        List<Content> found;
        try {
            found = documents.retrieve(Query.from(question));
        } catch (RuntimeException e) {
            throw e instanceof LangChain4jException l ? l
                    : new LangChain4jException("the retriever failed: " + e.getMessage(), e);
        }
        List<Document> out = new ArrayList<>();
        for (Content c : found) {
            TextSegment s = c.textSegment();
            // another retriever may store a number as the id: any value is read as text, never thrown over
            String id = s.metadata() == null ? null : Objects.toString(s.metadata().toMap().get("id"), null);
            String title = s.metadata() == null ? null : Objects.toString(s.metadata().toMap().get("title"), null);
            out.add(Document.of(id == null ? Integer.toString(out.size() + 1) : id, title == null ? "" : title, s.text()));
        }
        return out;
    }

    /** A method's failure as the LangChain4j exception of its kind, with a one-line reason. */
    private RuntimeException translate(RuntimeException e) {
        LlmException llm = null;
        for (Throwable t = e; t != null && llm == null; t = t.getCause() == t ? null : t.getCause()) {
            llm = t instanceof LlmException l ? l : null;
        }
        if (llm == null) {
            return e instanceof IllegalArgumentException ? new InvalidRequestException(method.name() + ": " + e.getMessage(), e)
                    : e instanceof LangChain4jException ? e
                    : new LangChain4jException(method.name() + " failed: " + firstLine(e), e);
        }
        int attempts = llm instanceof LlmCallFailedException f ? f.attempts().size() : 1;
        String message = "the upstream model failed (" + llm.kind().name().toLowerCase(Locale.ROOT).replace('_', ' ')
                + llm.httpStatus().stream().mapToObj(s -> ", HTTP " + s).findFirst().orElse("") + ", " + attempts
                + (attempts == 1 ? " attempt" : " attempts") + "): " + llm.kind().advice();
        String detail = Secrets.redact(String.valueOf(llm.getMessage()).lines().findFirst().orElse(""));
        message = message + " [" + detail + "]";
        return switch (llm.kind()) {
            case RATE_LIMITED -> new RateLimitException(message, e);
            case TIMEOUT -> new TimeoutException(message, e);
            case AUTHENTICATION -> new AuthenticationException(message, e);
            case BAD_REQUEST -> new InvalidRequestException(message, e);
            case UNSUPPORTED -> new UnsupportedFeatureException(message);
            case SERVER_ERROR -> new InternalServerException(message, e);
            case CONNECTION, MALFORMED_RESPONSE, EMPTY_RESPONSE, TRUNCATED -> new RetriableException(message, e);
            case CANCELLED, INTERNAL -> new LangChain4jException(message, e);
        };
    }

    private static String firstLine(Throwable e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return m.lines().findFirst().orElse(m);
    }

    /** Closes the model client, and the backend when this model made it ({@link Builder#baseUrl}, a ChatModel). */
    @Override
    public void close() {
        client.close();
    }

    @Override
    public String toString() {
        return "VeracityChatModel{method=" + method.name() + ", upstream=" + client.backend().id() + "}";
    }

    /**
     * Builds the model; {@link #build()} checks the method, its options and what it needs, and throws an
     * {@link InvalidRequestException} with a one-line reason before any model call.
     */
    public static final class Builder {
        private String methodName;
        private final Map<String, String> options = new LinkedHashMap<>();
        private LlmBackend backend;
        private boolean closeBackend;
        private String baseUrl;
        private String modelName;
        private String apiKey;
        private ContentRetriever retriever;
        private Embedder embedder;
        private PageSource pages;
        private String dataset = "";
        private boolean multiAnswer;
        private int concurrency = 16;
        private Duration timeout = Duration.ofSeconds(120);
        private RetrySettings retry = RetrySettings.DEFAULT;
        private TraceSink traces = TraceSink.NONE;
        private ResponseCache cache = ResponseCache.NONE;
        private CacheMode cacheMode = CacheMode.OFF;

        private Builder() {
        }

        /** The method: a name {@code veracity methods} lists, or {@code METHOD+march[+abstain]}. */
        public Builder method(String method) {
            this.methodName = method;
            return this;
        }

        /** A method option, as {@code eval --option NAME=VALUE} (checked against the method's declaration). */
        public Builder option(String name, String value) {
            this.options.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
            return this;
        }

        /** Method options, as {@link #option} each. */
        public Builder options(Map<String, String> options) {
            options.forEach(this::option);
            return this;
        }

        /** The backend the method's calls go to (an OpenAI-compatible server, llama.cpp, ...); its owner closes it. */
        public Builder backend(LlmBackend backend) {
            this.backend = backend;
            this.closeBackend = false;
            return this;
        }

        /** Any LangChain4j chat model as the backend (through veracity-llm-langchain4j's adapter). */
        public Builder backend(ChatModel model) {
            if (model instanceof VeracityChatModel) {
                throw new InvalidRequestException("a VeracityChatModel cannot be the backend of another: give the"
                        + " model it runs on, and compose methods by name (METHOD+march)");
            }
            this.backend = model == null ? null : LangChain4jBackend.of(model);
            this.closeBackend = true;
            return this;
        }

        /** An OpenAI-compatible server's base URL ({@code http://host:port/v1}), as {@code --llm-base-url}. */
        public Builder baseUrl(String baseUrl) {
            this.baseUrl = baseUrl;
            return this;
        }

        /** The upstream model's name at {@link #baseUrl}, as {@code --model}. */
        public Builder modelName(String modelName) {
            this.modelName = modelName;
            return this;
        }

        /** The API key of {@link #baseUrl}, if it needs one. */
        public Builder apiKey(String apiKey) {
            this.apiKey = apiKey;
            return this;
        }

        /**
         * Where the method's documents come from: the top passages for the question ({@link VeracityContentRetriever}
         * over a Veracity index, or any LangChain4j retriever). A {@link VeracityContentRetriever} also serves methods
         * that search the index themselves.
         */
        public Builder retriever(ContentRetriever retriever) {
            this.retriever = retriever;
            return this;
        }

        /** The embedder of methods that compare documents (Speculative RAG); default the in-process bge-small. */
        public Builder embedder(Embedder embedder) {
            this.embedder = embedder;
            return this;
        }

        /** A Wikipedia of pages for methods whose agents act in one (Reasoning Court's ReAct agents). */
        public Builder pages(PageSource pages) {
            this.pages = pages;
            return this;
        }

        /** The dataset the questions are like, for methods whose prompts differ by dataset ("" by default). */
        public Builder dataset(String dataset) {
            this.dataset = Objects.requireNonNullElse(dataset, "");
            return this;
        }

        /** Ask for every valid answer of an ambiguous question (RAMDocs' "All Correct Answers: [...]"). */
        public Builder multiAnswer(boolean multiAnswer) {
            this.multiAnswer = multiAnswer;
            return this;
        }

        /** Most model calls in flight at once (default 16). */
        public Builder concurrency(int concurrency) {
            this.concurrency = concurrency;
            return this;
        }

        /** The longest one model call may take (default 120 s). */
        public Builder timeout(Duration timeout) {
            this.timeout = timeout;
            return this;
        }

        /** Retries of a failed model call (default {@link RetrySettings#DEFAULT}; {@link RetrySettings#NONE}: none). */
        public Builder retry(RetrySettings retry) {
            this.retry = retry;
            return this;
        }

        /**
         * A response cache for the model's calls ({@code SqliteResponseCache.open(path)}, {@link CacheMode#READ_WRITE}):
         * a question asked again is answered from it, as {@code eval --cache} replays a run. None by default.
         */
        public Builder cache(ResponseCache cache, CacheMode mode) {
            this.cache = Objects.requireNonNull(cache, "cache");
            this.cacheMode = Objects.requireNonNull(mode, "mode");
            return this;
        }

        /** Where every call's trace record also goes (a {@code TraceStore} file, say); none by default. */
        public Builder traces(TraceSink traces) {
            this.traces = Objects.requireNonNull(traces, "traces");
            return this;
        }

        public VeracityChatModel build() {
            if (methodName == null || methodName.isBlank()) {
                throw new InvalidRequestException("name a method: .method(\"standard-rag\"), or METHOD+march[+abstain]"
                        + " (known: " + String.join(", ", Methods.names()) + ")");
            }
            QaMethod m;
            Map<String, String> resolved;
            try {
                m = Methods.byName(methodName);
                resolved = m.spec().resolve(options).values();
                Capability.requireProvided(m.spec());
            } catch (IllegalArgumentException e) {
                throw new InvalidRequestException(e.getMessage(), e);
            }
            if (concurrency < 1) {
                throw new InvalidRequestException("concurrency must be >= 1, was " + concurrency);
            }
            if (timeout == null || timeout.isNegative() || timeout.isZero()) {
                throw new InvalidRequestException("timeout must be positive, was " + timeout);
            }
            if (m.needs(Capability.RETRIEVER) && !(retriever instanceof VeracityContentRetriever)) {
                throw new InvalidRequestException("method " + m.name() + " searches an index itself: give it"
                        + " .retriever(VeracityContentRetriever.builder().index(DIR).build())");
            }
            if (m.needs(Capability.DOCUMENTS) && retriever == null && !(m.needs(Capability.PAGES) && pages != null)) {
                throw new InvalidRequestException("method " + m.name() + " answers from documents: give it"
                        + " .retriever(...) (VeracityContentRetriever over a ./veracity index folder, or any"
                        + " ContentRetriever), or use a closed-book method (no-rag, cot, truthrl-no-retrieval)");
            }
            Embedder e = embedder;
            if (m.needs(Capability.EMBEDDER) && e == null) {
                try {
                    e = LocalEmbedders.bgeSmall();
                } catch (IllegalStateException missing) {
                    throw new InvalidRequestException("method " + m.name() + " compares documents by embedding: give it"
                            + " .embedder(...), or add dev.veracity:veracity-embed-onnx for the in-process bge-small ("
                            + missing.getMessage() + ")", missing);
                }
            }
            return new VeracityChatModel(this, m, resolved, upstream(), e);
        }

        private LlmBackend upstream() {
            if (backend != null && baseUrl != null) {
                throw new InvalidRequestException("give the backend once: .backend(...) or .baseUrl(URL), not both");
            }
            if (backend != null) {
                return backend;
            }
            if (baseUrl == null) {
                throw new InvalidRequestException("give the model the method runs on: .baseUrl(\"http://host:port/v1\")"
                        + " with .modelName(NAME), .backend(LlmBackend) or .backend(ChatModel)");
            }
            try {
                OpenAiCompatibleBackend.Builder b = OpenAiCompatibleBackend.builder().baseUrl(baseUrl);
                if (modelName != null) {
                    b.model(modelName);
                }
                if (apiKey != null) {
                    b.apiKey(ApiKey.of(apiKey));
                }
                closeBackend = true;
                return b.build();
            } catch (IllegalArgumentException | NullPointerException e) {
                throw new InvalidRequestException("bad upstream " + baseUrl + ": " + e.getMessage(), e);
            }
        }
    }
}
