package dev.veracity.llm;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What to ask a model: chat messages or a raw prompt, and the sampling settings.
 *
 * <p>Unset settings ({@code null}) are left to the server's defaults and are not sent. {@code extras} are
 * provider-specific body fields (vLLM's {@code top_k}, {@code min_p}, {@code repetition_penalty}, ...) passed
 * through unchanged; {@code topK} is sent as the vendor extra {@code top_k} by OpenAI-compatible backends.
 *
 * <p>{@code firstSampleIndex} numbers the samples this request asks for: samples
 * {@code firstSampleIndex .. firstSampleIndex + n - 1}. Two calls that want independent samples of the same
 * prompt (three Checker samples sent as three calls, say) give different indices; the response cache keys each
 * sample by its index, which is what makes unseeded sampling reproducible on a rerun.
 *
 * <p>{@code acceptEmpty} says whether an empty text is an answer. By default it is not: an empty or whitespace-only
 * completion is a server fault that the client retries ({@link ErrorKind#EMPTY_RESPONSE}). A caller whose prompt can
 * rightly be answered with nothing sets it: a ReAct step whose model writes its stop sequence first, or ReAct's second
 * call for an action ended by the line's end, is a turn without an action, as ReAct's code treats it. Such an empty
 * completion is returned at once, without retries, and never cached (the cache holds no empty text). It is not a
 * sampling setting: it is neither sent to the model nor part of the cache key.
 *
 * @param model            model id, or null for the backend's default
 * @param messages         chat messages (empty for a raw-prompt request)
 * @param prompt           raw prompt (null for a chat request)
 * @param n                number of samples, &gt;= 1
 * @param firstSampleIndex index of the first sample, &gt;= 0
 * @param temperature      sampling temperature
 * @param topP             nucleus sampling mass
 * @param topK             top-k sampling (a vendor extra for OpenAI-compatible servers)
 * @param maxTokens        output token limit
 * @param stop             stop sequences (empty for none)
 * @param seed             sampling seed
 * @param logprobs         null: no logprobs; 0: the chosen tokens' logprobs; k &gt; 0: also the top k alternatives
 * @param extras           provider-specific fields passed through (sorted by key)
 * @param acceptEmpty      an empty text is an answer, returned without retries (never cached), not a server fault
 */
public record LlmRequest(String model, List<ChatMessage> messages, String prompt, int n, int firstSampleIndex,
                         Double temperature, Double topP, Integer topK, Integer maxTokens, List<String> stop,
                         Long seed, Integer logprobs, Map<String, Object> extras, boolean acceptEmpty) {

    public LlmRequest {
        messages = messages == null ? List.of() : List.copyOf(messages);
        stop = stop == null ? List.of() : List.copyOf(stop);
        extras = extras == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(extras));
        if ((prompt == null) == messages.isEmpty()) {
            throw new IllegalArgumentException("a request holds either chat messages or a raw prompt, not "
                    + (prompt == null ? "neither" : "both"));
        }
        if (n < 1) {
            throw new IllegalArgumentException("n must be >= 1, was " + n);
        }
        if (firstSampleIndex < 0) {
            throw new IllegalArgumentException("firstSampleIndex must be >= 0, was " + firstSampleIndex);
        }
        if (temperature != null && (temperature < 0 || temperature.isNaN())) {
            throw new IllegalArgumentException("temperature must be >= 0, was " + temperature);
        }
        if (topP != null && !(topP > 0 && topP <= 1)) {
            throw new IllegalArgumentException("top_p must be in (0, 1], was " + topP);
        }
        if (topK != null && topK < 0) {
            throw new IllegalArgumentException("top_k must be >= 0, was " + topK);
        }
        if (maxTokens != null && maxTokens < 1) {
            throw new IllegalArgumentException("max_tokens must be >= 1, was " + maxTokens);
        }
        if (logprobs != null && logprobs < 0) {
            throw new IllegalArgumentException("logprobs must be >= 0, was " + logprobs);
        }
    }

    /** A chat request. */
    public static Builder chat(List<ChatMessage> messages) {
        return new Builder().messages(messages);
    }

    /** A chat request. */
    public static Builder chat(ChatMessage... messages) {
        return chat(List.of(messages));
    }

    /** A single user message. */
    public static Builder user(String content) {
        return chat(ChatMessage.user(content));
    }

    /** A raw-prompt (text completion) request. */
    public static Builder completion(String prompt) {
        return new Builder().prompt(prompt);
    }

    public boolean isChat() {
        return prompt == null;
    }

    /** True when outputs do not depend on chance: greedy decoding or a fixed seed. */
    public boolean deterministic() {
        return (temperature != null && temperature == 0.0) || seed != null;
    }

    public Optional<String> modelOverride() {
        return Optional.ofNullable(model);
    }

    /** The prompt as one text: the raw prompt, or the messages' contents joined by blank lines. */
    public String promptText() {
        if (prompt != null) {
            return prompt;
        }
        StringBuilder sb = new StringBuilder();
        for (ChatMessage m : messages) {
            if (!sb.isEmpty()) {
                sb.append("\n\n");
            }
            sb.append(m.content());
        }
        return sb.toString();
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.model = model;
        b.messages = new ArrayList<>(messages);
        b.prompt = prompt;
        b.n = n;
        b.firstSampleIndex = firstSampleIndex;
        b.temperature = temperature;
        b.topP = topP;
        b.topK = topK;
        b.maxTokens = maxTokens;
        b.stop = new ArrayList<>(stop);
        b.seed = seed;
        b.logprobs = logprobs;
        b.extras = new TreeMap<>(extras);
        b.acceptEmpty = acceptEmpty;
        return b;
    }

    /** This request asking for {@code count} samples starting at {@code first}. */
    public LlmRequest withSamples(int first, int count) {
        return toBuilder().firstSampleIndex(first).n(count).build();
    }

    /** Builds requests; unset settings stay null and are not sent. */
    public static final class Builder {
        private String model;
        private List<ChatMessage> messages = new ArrayList<>();
        private String prompt;
        private int n = 1;
        private int firstSampleIndex;
        private Double temperature;
        private Double topP;
        private Integer topK;
        private Integer maxTokens;
        private List<String> stop = new ArrayList<>();
        private Long seed;
        private Integer logprobs;
        private Map<String, Object> extras = new TreeMap<>();
        private boolean acceptEmpty;

        private Builder() {
        }

        public Builder model(String model) {
            this.model = model;
            return this;
        }

        public Builder messages(List<ChatMessage> messages) {
            this.messages = new ArrayList<>(messages);
            return this;
        }

        public Builder prompt(String prompt) {
            this.prompt = prompt;
            return this;
        }

        public Builder n(int n) {
            this.n = n;
            return this;
        }

        public Builder firstSampleIndex(int firstSampleIndex) {
            this.firstSampleIndex = firstSampleIndex;
            return this;
        }

        public Builder temperature(Double temperature) {
            this.temperature = temperature;
            return this;
        }

        public Builder topP(Double topP) {
            this.topP = topP;
            return this;
        }

        public Builder topK(Integer topK) {
            this.topK = topK;
            return this;
        }

        public Builder maxTokens(Integer maxTokens) {
            this.maxTokens = maxTokens;
            return this;
        }

        public Builder stop(List<String> stop) {
            this.stop = new ArrayList<>(stop);
            return this;
        }

        public Builder stop(String... stop) {
            return stop(List.of(stop));
        }

        public Builder seed(Long seed) {
            this.seed = seed;
            return this;
        }

        public Builder logprobs(Integer logprobs) {
            this.logprobs = logprobs;
            return this;
        }

        /** Adds a provider-specific body field, passed through unchanged. */
        public Builder extra(String key, Object value) {
            this.extras.put(key, value);
            return this;
        }

        public Builder extras(Map<String, Object> extras) {
            this.extras = new TreeMap<>(extras);
            return this;
        }

        /**
         * An empty text is an answer (the prompt can rightly be answered with nothing): returned without retries and
         * never cached, instead of failing as {@link ErrorKind#EMPTY_RESPONSE} and being retried.
         */
        public Builder acceptEmpty(boolean acceptEmpty) {
            this.acceptEmpty = acceptEmpty;
            return this;
        }

        public LlmRequest build() {
            return new LlmRequest(model, messages, prompt, n, firstSampleIndex, temperature, topP, topK, maxTokens,
                    stop, seed, logprobs, extras, acceptEmpty);
        }
    }
}
