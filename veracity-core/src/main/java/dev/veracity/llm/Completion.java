package dev.veracity.llm;

import dev.veracity.text.Unicode;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One sampled output of a request.
 *
 * @param sampleIndex  the absolute sample index ({@link LlmRequest#firstSampleIndex()} + position); the cache
 *                     keys samples by it, so a rerun returns the same output for the same index
 * @param text         the generated text; never null (an empty or absent content is ""). Unpaired UTF-16
 *                     surrogates (a server's {@code "\ud800"} escape) are replaced by U+FFFD here
 *                     ({@link Unicode#repair}), the one boundary every model output passes, so that parsers, the
 *                     cache, traces and results all see the same text, live or replayed
 * @param finishReason why generation ended
 * @param usage        this sample's share of the tokens ({@link TokenUsage#exact()} says whether it is exact)
 * @param logprobs     per-token log-probabilities when they were requested and the backend returned them
 * @param tokenIds     the serving engine's prompt and response token ids, when asked for and returned
 *                     ({@link TokenIds}; vLLM's {@code return_token_ids})
 * @param responseId   the server's id of the response this sample came from (OpenAI's {@code id},
 *                     {@code chatcmpl-...}; AReaL's interaction id), or null: a sample replayed from the cache has
 *                     none, since no server answered it this time
 */
public record Completion(int sampleIndex, String text, FinishReason finishReason, TokenUsage usage,
                         Optional<List<TokenLogprob>> logprobs, Optional<TokenIds> tokenIds, String responseId) {

    public Completion {
        text = text == null ? "" : Unicode.repair(text);
        finishReason = finishReason == null ? FinishReason.UNKNOWN : finishReason;
        usage = Objects.requireNonNullElse(usage, TokenUsage.ZERO);
        logprobs = logprobs == null ? Optional.empty() : logprobs.map(List::copyOf);
        tokenIds = tokenIds == null ? Optional.empty() : tokenIds;
    }

    /** A completion without token ids or a response id. */
    public Completion(int sampleIndex, String text, FinishReason finishReason, TokenUsage usage,
                      Optional<List<TokenLogprob>> logprobs) {
        this(sampleIndex, text, finishReason, usage, logprobs, Optional.empty(), null);
    }

    public static Completion of(int sampleIndex, String text, FinishReason finishReason, TokenUsage usage) {
        return new Completion(sampleIndex, text, finishReason, usage, Optional.empty());
    }

    /** True when the token limit cut this output. */
    public boolean truncated() {
        return finishReason == FinishReason.LENGTH;
    }

    /** This completion renumbered (the cache stores samples by key and hands them back at their index). */
    public Completion withSampleIndex(int index) {
        return new Completion(index, text, finishReason, usage, logprobs, tokenIds, responseId);
    }
}
