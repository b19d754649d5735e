package dev.veracity.llm.openai;

import dev.veracity.config.ApiKey;
import dev.veracity.llm.BackendCapabilities;
import dev.veracity.llm.Completion;
import dev.veracity.llm.ErrorKind;
import dev.veracity.llm.LlmBackend;
import dev.veracity.llm.LlmException;
import dev.veracity.llm.LlmRequest;
import dev.veracity.llm.LlmResponse;
import dev.veracity.llm.TokenIds;
import dev.veracity.llm.TokenUsage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Any OpenAI-compatible server — vLLM, Ollama, the llama.cpp server, SGLang, OpenAI, a gateway — over its HTTP
 * protocol: chat completions for messages, completions for a raw prompt, n samples in one request, and vendor extras
 * ({@code top_k}, {@code min_p}, ...) passed through as body fields.
 *
 * <p>Why our own few hundred lines of protocol ({@link WireRequests}, {@link WireResponses}, {@link JsonPost}) on the
 * JDK's HTTP client and Jackson rather than the openai-java SDK that this backend used before: under {@code bench
 * serve} the SDK's request building and typed parsing, and its OkHttp transport, were the largest costs on the server's
 * own path; without them {@code madam-rag}'s p99 overhead went from 5.6-6.4 ms to 2.3-3.9 ms (medians of rounds),
 * under its 5 ms target (figures in veracity-server's README).
 * The SDK stays the reference: a test writes the same requests with both and reads a corpus of servers' answers with
 * both ({@code WireConformanceTest}), and openai-java is one of the real clients the server is tested with.
 * Retries are not ours here: {@link dev.veracity.llm.client.LlmClient} retries, so that retries are counted, traced
 * and bounded by our concurrency limit.
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

    private final JsonPost post;
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
        this.post = new JsonPost(baseUrl, b.apiKey, b.headers, b.defaultTimeout);
    }

    public static Builder builder() {
        return new Builder();
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
        if (request.n() > 1 && (singleSample || refusesN.getOrDefault(model, false))) {
            return oneByOne(request, model, timeout);
        }
        try {
            return request.isChat() ? chat(request, model, timeout) : complete(request, model, timeout);
        } catch (LlmException e) {
            if (request.n() > 1 && e.kind() == ErrorKind.BAD_REQUEST && N_REFUSAL.matcher(e.getMessage()).find()) {
                refusesN.put(model, true);
                return oneByOne(request, model, timeout);
            }
            throw e;
        }
    }

    /** n single-sample requests, used once a server has refused n &gt; 1. */
    private LlmResponse oneByOne(LlmRequest request, String model, Duration timeout) {
        List<Completion> out = new ArrayList<>();
        TokenUsage usage = TokenUsage.ZERO;
        String served = model;
        for (int i = 0; i < request.n(); i++) {
            LlmRequest one = request.withSamples(request.firstSampleIndex() + i, 1);
            LlmResponse r = one.isChat() ? chat(one, model, timeout) : complete(one, model, timeout);
            out.add(r.first());
            usage = usage.plus(r.usage());
            served = r.model();
        }
        return new LlmResponse(served, out, usage);
    }

    private LlmResponse chat(LlmRequest r, String model, Duration timeout) {
        boolean wantLogprobs = r.logprobs() != null || returnTokenIds;
        byte[] body = post.post("/chat/completions", WireRequests.chat(r, model, wantLogprobs, returnTokenIds), timeout);
        return read(r, model, () -> WireResponses.chat(body, wantLogprobs, returnTokenIds));
    }

    private LlmResponse complete(LlmRequest r, String model, Duration timeout) {
        byte[] body = post.post("/completions", WireRequests.completion(r, model), timeout);
        return read(r, model, () -> WireResponses.completion(body, r.logprobs() != null));
    }

    private interface Reader {
        WireResponses.Answer read() throws WireResponses.Malformed;
    }

    /** Reads an answer into a response, or fails with {@code MALFORMED_RESPONSE} saying what is wrong with it. */
    private LlmResponse read(LlmRequest r, String model, Reader reader) {
        WireResponses.Answer a;
        try {
            a = reader.read();
        } catch (WireResponses.Malformed e) {
            throw new LlmException(ErrorKind.MALFORMED_RESPONSE, (e.unreadable() ? "unreadable answer from "
                    : "answer from ") + post.baseUrl() + (e.unreadable() ? ": " : " does not have the OpenAI shape: ")
                    + e.getMessage());
        }
        return assemble(r, a.model() == null ? model : a.model(), a);
    }

    /** Builds the response: checks the choice count and splits usage across samples. */
    private static LlmResponse assemble(LlmRequest r, String model, WireResponses.Answer answer) {
        List<WireResponses.Choice> choices = answer.choices();
        if (choices.size() != r.n()) {
            throw new LlmException(ErrorKind.MALFORMED_RESPONSE, "asked for " + r.n() + " choices, the server returned "
                    + choices.size());
        }
        List<String> texts = answer.texts();
        TokenUsage total = answer.usage().map(u -> TokenUsage.of(u.prompt(), u.completion()))
                .orElseGet(() -> estimate(r, texts));
        long chars = texts.stream().mapToLong(String::length).sum();
        List<Completion> out = new ArrayList<>();
        for (int i = 0; i < choices.size(); i++) {
            WireResponses.Choice c = choices.get(i);
            TokenUsage share;
            if (choices.size() == 1) {
                share = total;
            } else {
                // Servers report one total for n choices: apportion by length and say it is an estimate.
                int completion = chars == 0 ? total.completionTokens() / choices.size()
                        : (int) Math.round((double) total.completionTokens() * c.text().length() / chars);
                share = new TokenUsage(total.promptTokens(), completion, false);
            }
            out.add(new Completion(r.firstSampleIndex() + i, c.text(), c.reason(), share, c.logprobs(), c.tokenIds(),
                    answer.id()));
        }
        return new LlmResponse(model, out, total);
    }

    /** A server without a usage block: about four characters a token, marked inexact. */
    private static TokenUsage estimate(LlmRequest r, List<String> texts) {
        int prompt = Math.max(1, r.promptText().length() / 4);
        int completion = texts.stream().mapToInt(t -> (t.length() + 3) / 4).sum();
        return new TokenUsage(prompt, completion, false);
    }

    private static String stripSlash(String url) {
        Objects.requireNonNull(url, "baseUrl");
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    @Override
    public void close() {
        post.close();
    }

    /** Builds a backend; the base URL is the server's {@code /v1} root. */
    public static final class Builder {
        private String baseUrl = "http://127.0.0.1:8000/v1";
        private String model = "default";
        private ApiKey apiKey;
        private Duration defaultTimeout = Duration.ofSeconds(120);
        private final Map<String, String> headers = new java.util.LinkedHashMap<>();
        private boolean returnTokenIds;
        private boolean singleSample;

        private Builder() {
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

        /** An extra header on every request (a gateway's routing header, say); not one the HTTP client sets. */
        public Builder header(String name, String value) {
            headers.put(JsonPost.checkHeader(name), Objects.requireNonNull(value, "header value"));
            return this;
        }

        public OpenAiCompatibleBackend build() {
            return new OpenAiCompatibleBackend(this);
        }
    }
}
