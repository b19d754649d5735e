package dev.veracity.llm.openai;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.JsonValue;
import com.openai.core.ObjectMappers;
import com.openai.core.RequestOptions;
import com.openai.errors.OpenAIException;
import com.openai.errors.OpenAIInvalidDataException;
import com.openai.errors.OpenAIIoException;
import com.openai.errors.OpenAIServiceException;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.completions.CompletionChoice;
import com.openai.models.completions.CompletionCreateParams;
import com.openai.models.completions.CompletionUsage;
import dev.veracity.concurrent.JsonBuffers;
import dev.veracity.config.ApiKey;
import dev.veracity.llm.BackendCapabilities;
import dev.veracity.llm.ChatMessage;
import dev.veracity.llm.Completion;
import dev.veracity.llm.ErrorKind;
import dev.veracity.llm.FinishReason;
import dev.veracity.llm.LlmBackend;
import dev.veracity.llm.LlmException;
import dev.veracity.llm.LlmRequest;
import dev.veracity.llm.LlmResponse;
import dev.veracity.llm.TokenIds;
import dev.veracity.llm.TokenLogprob;
import dev.veracity.llm.TokenUsage;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.DoubleConsumer;
import java.util.function.LongConsumer;
import java.util.regex.Pattern;

/**
 * Any OpenAI-compatible server — vLLM, Ollama, the llama.cpp server, SGLang, OpenAI, a gateway — through the
 * official openai-java SDK: chat completions for messages, completions for a raw prompt, n samples in one
 * request, and vendor extras ({@code top_k}, {@code min_p}, ...) passed through as body fields.
 *
 * <p>Why the SDK rather than our own HTTP: it tracks the protocol, types every error with its status and
 * headers (Retry-After), and measured against the simulator its overhead is well inside our budget (see the
 * {@code bench llm} figures in the README). Its own retries are switched off: {@link dev.veracity.llm.client.LlmClient}
 * retries, so that retries are counted, traced and bounded by our concurrency limit.
 *
 * <p>The SDK runs on OkHttp, which re-sends a request once, transparently, when its connection closed before any
 * response (a stale keep-alive connection); such a re-send is not an attempt in our counts and traces.
 *
 * <p>Some servers refuse n &gt; 1 (HTTP 400 naming {@code n}); on the first such refusal this backend answers that
 * call with n single-sample requests and from then on reports {@code nativeN = false} for that model, so the
 * client splits later calls itself, concurrently. A server known to take one sample per request (AReaL's gateway,
 * which answers n &gt; 1 with a 500) is declared so up front ({@link Builder#singleSampleRequests}).
 *
 * <p>{@link Builder#returnTokenIds}: every chat request also asks for vLLM's {@code return_token_ids} and for
 * {@code logprobs}, and each {@link Completion} carries the engine's prompt and response ids ({@link TokenIds}, read
 * from the raw answer: {@code prompt_token_ids} at the top, {@code token_ids} per choice) and logprobs, so training
 * records never re-tokenise. A server that ignores the flag (or sends something other than lists of integers)
 * leaves the completion without ids; the call does not fail for it. The flag is part of {@link #id()}, so the
 * response cache keys samples asked with it apart from samples asked without (a cached sample has ids exactly
 * when it was asked for them). Raw-prompt (completions) requests do not ask for ids.
 */
public final class OpenAiCompatibleBackend implements LlmBackend {

    /** How servers word a refusal of n &gt; 1. */
    private static final Pattern N_REFUSAL = Pattern.compile(
            "(?i)(\\bn\\b\\s*(>|must|should|is not|isn't|only|greater|larger|not supported|unsupported))"
                    + "|((only|support|supports|allowed)[^.]{0,40}\\bn\\s*(=|==)\\s*1\\b)");

    private final OpenAIClient client;
    private final String baseUrl;
    private final String defaultModel;
    private final Map<String, Boolean> refusesN = new ConcurrentHashMap<>();
    private final boolean returnTokenIds;
    private final boolean singleSample;

    private OpenAiCompatibleBackend(Builder b) {
        this.baseUrl = stripSlash(b.baseUrl);
        this.defaultModel = b.model;
        this.returnTokenIds = b.returnTokenIds;
        this.singleSample = b.singleSample;
        OpenAIOkHttpClient.Builder sdk = OpenAIOkHttpClient.builder()
                .baseUrl(baseUrl)
                // A local server needs no key, but the SDK wants one: send a placeholder that is not a secret.
                .apiKey(b.apiKey == null ? "no-key" : b.apiKey.reveal())
                .maxRetries(0)
                // OkHttp keeps 5 idle connections by default: under 50 concurrent calls, most connections were closed
                // as each call ended and reopened by the next (a thousand TIME_WAIT sockets per 2,500 calls).
                .maxIdleConnections(b.idleConnections)
                .keepAliveDuration(KEEP_ALIVE)
                .timeout(b.defaultTimeout)
                // The SDK's own mapper, its buffers shared across our virtual threads (see JsonBuffers).
                .jsonMapper(JsonBuffers.pooled(ObjectMappers.jsonMapper()));
        b.headers.forEach(sdk::putHeader);
        this.client = sdk.build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Starts, on a daemon thread, one SDK call of each kind against canned responses (no network), so that the
     * SDK's first-use cost (class loading, Kotlin reflection: most of a second) is paid while the caller sets up
     * rather than by its first real calls. Safe to ignore: a failed warm-up changes nothing.
     */
    public static Thread warmUp() {
        return Thread.ofPlatform().daemon().name("openai-sdk-warm-up").start(SdkWarmUp::run);
    }

    @Override
    public String id() {
        return "openai:" + baseUrl + (returnTokenIds ? " +token-ids" : "");
    }

    @Override
    public String defaultModel() {
        return defaultModel;
    }

    public String baseUrl() {
        return baseUrl;
    }

    @Override
    public BackendCapabilities capabilities() {
        boolean nativeN = !singleSample && !refusesN.getOrDefault(defaultModel, false);
        return new BackendCapabilities(true, true, nativeN, true, true, true);
    }

    /** Whether the server has refused n &gt; 1 for this model. */
    public boolean refusesN(String model) {
        return refusesN.getOrDefault(model, false);
    }

    @Override
    public LlmResponse generate(LlmRequest request, Duration timeout) {
        String model = request.model() != null ? request.model() : defaultModel;
        RequestOptions options = RequestOptions.builder().timeout(timeout).build();
        if (request.n() > 1 && (singleSample || refusesN.getOrDefault(model, false))) {
            return oneByOne(request, model, options);
        }
        try {
            return request.isChat() ? chat(request, model, options) : complete(request, model, options);
        } catch (LlmException e) {
            if (request.n() > 1 && e.kind() == ErrorKind.BAD_REQUEST && N_REFUSAL.matcher(e.getMessage()).find()) {
                refusesN.put(model, true);
                return oneByOne(request, model, options);
            }
            throw e;
        }
    }

    /** n single-sample requests, used once a server has refused n &gt; 1. */
    private LlmResponse oneByOne(LlmRequest request, String model, RequestOptions options) {
        List<Completion> out = new ArrayList<>();
        TokenUsage usage = TokenUsage.ZERO;
        String served = model;
        for (int i = 0; i < request.n(); i++) {
            LlmRequest one = request.withSamples(request.firstSampleIndex() + i, 1);
            LlmResponse r = one.isChat() ? chat(one, model, options) : complete(one, model, options);
            out.add(r.first());
            usage = usage.plus(r.usage());
            served = r.model();
        }
        return new LlmResponse(served, out, usage);
    }

    private LlmResponse chat(LlmRequest r, String model, RequestOptions options) {
        ChatCompletionCreateParams.Builder p = ChatCompletionCreateParams.builder().model(model);
        for (ChatMessage m : r.messages()) {
            switch (m.role()) {
                case SYSTEM -> p.addSystemMessage(m.content());
                case USER -> p.addUserMessage(m.content());
                case ASSISTANT -> p.addAssistantMessage(m.content());
            }
        }
        // max_tokens, not max_completion_tokens: every compatible server understands the older name.
        sampling(r, p::n, p::temperature, p::topP, p::maxTokens, p::seed);
        if (!r.stop().isEmpty()) {
            p.stop(ChatCompletionCreateParams.Stop.ofStrings(r.stop()));
        }
        boolean wantLogprobs = r.logprobs() != null || returnTokenIds;
        if (wantLogprobs) {
            p.logprobs(true);
            if (r.logprobs() != null && r.logprobs() > 0) {
                p.topLogprobs(r.logprobs().longValue());
            }
        }
        if (returnTokenIds) {
            p.putAdditionalBodyProperty("return_token_ids", JsonValue.from(true)); // vLLM >= 0.10.2
        }
        extras(r).forEach(p::putAdditionalBodyProperty);

        ChatCompletion resp = call(() -> client.chat().completions().create(p.build(), options));
        return read(() -> {
            List<ChatCompletion.Choice> choices = resp.choices();
            List<String> texts = new ArrayList<>();
            List<FinishReason> reasons = new ArrayList<>();
            List<Optional<List<TokenLogprob>>> logprobs = new ArrayList<>();
            List<Optional<TokenIds>> ids = new ArrayList<>();
            // vLLM's extras are not in the SDK's model: read them from the raw answer's additional properties
            Optional<List<Integer>> promptIds = returnTokenIds
                    ? tokenIds(resp._additionalProperties().get("prompt_token_ids")) : Optional.empty();
            for (ChatCompletion.Choice c : choices) {
                texts.add(c._message().asKnown().flatMap(m -> m.content()).orElse(""));
                reasons.add(FinishReason.fromWire(c._finishReason().asKnown().map(f -> f.asString()).orElse(null)));
                logprobs.add(!wantLogprobs ? Optional.empty() : c.logprobs().flatMap(l -> l.content()).map(
                        list -> list.stream().map(t -> new TokenLogprob(t.token(), t.logprob(), t.topLogprobs().stream()
                                .map(a -> new TokenLogprob.Alternative(a.token(), a.logprob())).toList())).toList()));
                ids.add(promptIds.flatMap(prompt -> tokenIds(c._additionalProperties().get("token_ids"))
                        .map(response -> new TokenIds(prompt, response))));
            }
            return assemble(r, resp._model().asKnown().orElse(model), resp._id().asKnown().orElse(null), texts,
                    reasons, logprobs, ids, resp.usage());
        });
    }

    private LlmResponse complete(LlmRequest r, String model, RequestOptions options) {
        CompletionCreateParams.Builder p = CompletionCreateParams.builder().model(model).prompt(r.prompt());
        sampling(r, p::n, p::temperature, p::topP, p::maxTokens, p::seed);
        if (!r.stop().isEmpty()) {
            p.stop(CompletionCreateParams.Stop.ofStrings(r.stop()));
        }
        if (r.logprobs() != null) {
            p.logprobs(r.logprobs().longValue());
        }
        extras(r).forEach(p::putAdditionalBodyProperty);

        com.openai.models.completions.Completion resp = call(() -> client.completions().create(p.build(), options));
        return read(() -> {
            List<String> texts = new ArrayList<>();
            List<FinishReason> reasons = new ArrayList<>();
            List<Optional<List<TokenLogprob>>> logprobs = new ArrayList<>();
            for (CompletionChoice c : resp.choices()) {
                texts.add(c._text().asKnown().orElse(""));
                reasons.add(FinishReason.fromWire(c._finishReason().asKnown().map(f -> f.asString()).orElse(null)));
                logprobs.add(r.logprobs() == null ? Optional.empty() : c.logprobs().map(OpenAiCompatibleBackend::textLogprobs));
            }
            return assemble(r, resp._model().asKnown().orElse(model), resp._id().asKnown().orElse(null), texts,
                    reasons, logprobs, texts.stream().map(t -> Optional.<TokenIds>empty()).toList(), resp.usage());
        });
    }

    /**
     * Token ids as vLLM sends them: a list of non-negative integers; anything else (absent, null, a server's own
     * shape) is none, so a server that ignores {@code return_token_ids} costs the record its ids, not the call.
     */
    static Optional<List<Integer>> tokenIds(JsonValue v) {
        if (v == null) {
            return Optional.empty();
        }
        com.fasterxml.jackson.databind.JsonNode a = v.convert(com.fasterxml.jackson.databind.JsonNode.class);
        if (a == null || !a.isArray()) {
            return Optional.empty();
        }
        List<Integer> out = new ArrayList<>(a.size());
        for (com.fasterxml.jackson.databind.JsonNode e : a) {
            if (!e.isIntegralNumber() || !e.canConvertToInt() || e.intValue() < 0) {
                return Optional.empty();
            }
            out.add(e.intValue());
        }
        return Optional.of(out);
    }

    /**
     * Sets the sampling fields both endpoints share, through the two SDK builders' setters (they are different
     * types with the same fields). Unset settings are not sent; n only when above 1.
     */
    private static void sampling(LlmRequest r, LongConsumer n, DoubleConsumer temperature, DoubleConsumer topP,
                                 LongConsumer maxTokens, LongConsumer seed) {
        if (r.n() > 1) {
            n.accept(r.n());
        }
        if (r.temperature() != null) {
            temperature.accept(r.temperature());
        }
        if (r.topP() != null) {
            topP.accept(r.topP());
        }
        if (r.maxTokens() != null) {
            maxTokens.accept(r.maxTokens());
        }
        if (r.seed() != null) {
            seed.accept(r.seed());
        }
    }

    private static List<TokenLogprob> textLogprobs(CompletionChoice.Logprobs l) {
        List<String> tokens = l.tokens().orElse(List.of());
        List<Double> lps = l.tokenLogprobs().orElse(List.of());
        List<CompletionChoice.Logprobs.TopLogprob> tops = l.topLogprobs().orElse(List.of());
        List<TokenLogprob> out = new ArrayList<>();
        for (int i = 0; i < tokens.size(); i++) {
            List<TokenLogprob.Alternative> alts = new ArrayList<>();
            if (i < tops.size()) {
                tops.get(i)._additionalProperties().forEach((tok, v) -> v.asNumber()
                        .ifPresent(num -> alts.add(new TokenLogprob.Alternative(tok, ((Number) num).doubleValue()))));
            }
            Double lp = i < lps.size() ? lps.get(i) : null;
            out.add(new TokenLogprob(tokens.get(i), lp == null ? Double.NEGATIVE_INFINITY : lp, alts));
        }
        return out;
    }

    /** Builds the response: checks the choice count and splits usage across samples. */
    private static LlmResponse assemble(LlmRequest r, String model, String responseId, List<String> texts,
                                        List<FinishReason> reasons, List<Optional<List<TokenLogprob>>> logprobs,
                                        List<Optional<TokenIds>> ids, Optional<CompletionUsage> usage) {
        if (texts.size() != r.n()) {
            throw new LlmException(ErrorKind.MALFORMED_RESPONSE, "asked for " + r.n() + " choices, the server returned "
                    + texts.size());
        }
        TokenUsage total = usage.map(u -> TokenUsage.of((int) u.promptTokens(), (int) u.completionTokens()))
                .orElseGet(() -> estimate(r, texts));
        long chars = texts.stream().mapToLong(String::length).sum();
        List<Completion> out = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            TokenUsage share;
            if (texts.size() == 1) {
                share = total;
            } else {
                // Servers report one total for n choices: apportion by length and say it is an estimate.
                int completion = chars == 0 ? total.completionTokens() / texts.size()
                        : (int) Math.round((double) total.completionTokens() * texts.get(i).length() / chars);
                share = new TokenUsage(total.promptTokens(), completion, false);
            }
            out.add(new Completion(r.firstSampleIndex() + i, texts.get(i), reasons.get(i), share, logprobs.get(i),
                    ids.get(i), responseId));
        }
        return new LlmResponse(model, out, total);
    }

    /** A server without a usage block: about four characters a token, marked inexact. */
    private static TokenUsage estimate(LlmRequest r, List<String> texts) {
        int prompt = Math.max(1, r.promptText().length() / 4);
        int completion = texts.stream().mapToInt(t -> (t.length() + 3) / 4).sum();
        return new TokenUsage(prompt, completion, false);
    }

    private static Map<String, JsonValue> extras(LlmRequest r) {
        Map<String, JsonValue> out = new java.util.TreeMap<>();
        if (r.topK() != null) {
            out.put("top_k", JsonValue.from(r.topK()));
        }
        r.extras().forEach((k, v) -> out.put(k, JsonValue.from(v)));
        return out;
    }

    private <T> T call(java.util.function.Supplier<T> call) {
        try {
            return call.get();
        } catch (OpenAIServiceException e) {
            int status = e.statusCode();
            throw new LlmException(ErrorKind.forHttpStatus(status), "HTTP " + status + " from " + baseUrl + ": "
                    + serverMessage(e), status, RetryAfter.parse(e.headers().values("retry-after-ms"),
                    e.headers().values("retry-after")).orElse(null), e);
        } catch (OpenAIIoException e) {
            if (isTimeout(e)) {
                throw new LlmException(ErrorKind.TIMEOUT, "no answer from " + baseUrl + " within the timeout", e);
            }
            throw new LlmException(ErrorKind.CONNECTION, "connection to " + baseUrl + " failed: " + rootMessage(e), e);
        } catch (OpenAIInvalidDataException e) {
            throw new LlmException(ErrorKind.MALFORMED_RESPONSE, "unreadable answer from " + baseUrl + ": "
                    + rootMessage(e), e);
        } catch (OpenAIException e) {
            throw new LlmException(ErrorKind.MALFORMED_RESPONSE, "call to " + baseUrl + " failed: " + rootMessage(e), e);
        }
    }

    /** Reads fields of a parsed response; the SDK parses lazily, so a wrong shape surfaces here. */
    private <T> T read(java.util.function.Supplier<T> reader) {
        try {
            return reader.get();
        } catch (OpenAIException e) {
            throw new LlmException(ErrorKind.MALFORMED_RESPONSE, "answer from " + baseUrl
                    + " does not have the OpenAI shape: " + rootMessage(e), e);
        }
    }

    private static String serverMessage(OpenAIServiceException e) {
        String msg = e.getMessage();
        return msg == null ? "(no message)" : msg.length() > 500 ? msg.substring(0, 500) + "..." : msg;
    }

    private static boolean isTimeout(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SocketTimeoutException
                    || (t instanceof InterruptedIOException && String.valueOf(t.getMessage()).contains("timeout"))) {
                return true;
            }
        }
        return false;
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        // one line: Jackson appends the parser's location ("\n at [Source: ...]"), which says nothing to a user
        String m = t instanceof com.fasterxml.jackson.core.JacksonException j ? j.getOriginalMessage() : t.getMessage();
        return t.getClass().getSimpleName() + (m == null ? "" : ": " + m.strip().lines().findFirst().orElse(""));
    }

    private static String stripSlash(String url) {
        Objects.requireNonNull(url, "baseUrl");
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    @Override
    public void close() {
        client.close();
    }

    /** Idle connections kept by default: more than the calls at once of most runs, few enough to be cheap. */
    public static final int DEFAULT_IDLE_CONNECTIONS = 256;

    /**
     * How long an unused connection stays open: OkHttp's default. A server that closes idle connections sooner (vLLM's
     * uvicorn after 5 s) costs a new connection, not a failed call: OkHttp checks a pooled connection before use.
     */
    private static final Duration KEEP_ALIVE = Duration.ofMinutes(5);

    /** Builds a backend; the base URL is the server's {@code /v1} root. */
    public static final class Builder {
        private String baseUrl = "http://127.0.0.1:8000/v1";
        private String model = "default";
        private ApiKey apiKey;
        private Duration defaultTimeout = Duration.ofSeconds(120);
        private final Map<String, String> headers = new java.util.LinkedHashMap<>();
        private boolean returnTokenIds;
        private boolean singleSample;
        private int idleConnections = DEFAULT_IDLE_CONNECTIONS;

        private Builder() {
        }

        /**
         * Connections kept open between calls for the next ones (default {@value #DEFAULT_IDLE_CONNECTIONS}; each is
         * closed after {@code KEEP_ALIVE} unused). Give at least the calls made at once to this backend, or the
         * connections of a burst are closed as its calls end and opened again by the next.
         */
        public Builder idleConnections(int idleConnections) {
            if (idleConnections < 1) {
                throw new IllegalArgumentException("idle connections must be at least 1, got " + idleConnections);
            }
            this.idleConnections = idleConnections;
            return this;
        }

        /**
         * Ask for the engine's token ids ({@code return_token_ids}, vLLM &gt;= 0.10.2) and logprobs with every chat
         * request, for training records that keep them (default false).
         */
        public Builder returnTokenIds(boolean returnTokenIds) {
            this.returnTokenIds = returnTokenIds;
            return this;
        }

        /** The server takes one sample per request (AReaL's gateway): n samples are always n requests (default false). */
        public Builder singleSampleRequests(boolean singleSample) {
            this.singleSample = singleSample;
            return this;
        }

        public Builder baseUrl(String baseUrl) {
            this.baseUrl = baseUrl;
            return this;
        }

        public Builder model(String model) {
            this.model = model;
            return this;
        }

        public Builder apiKey(ApiKey apiKey) {
            this.apiKey = apiKey;
            return this;
        }

        /** Timeout for calls made without one (the client always passes its own). */
        public Builder defaultTimeout(Duration timeout) {
            this.defaultTimeout = timeout;
            return this;
        }

        /** An extra header on every request (a gateway's routing header, say). */
        public Builder header(String name, String value) {
            headers.put(name, value);
            return this;
        }

        public OpenAiCompatibleBackend build() {
            return new OpenAiCompatibleBackend(this);
        }
    }
}
