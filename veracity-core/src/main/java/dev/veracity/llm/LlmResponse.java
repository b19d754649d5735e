package dev.veracity.llm;

import java.util.List;
import java.util.Objects;

/**
 * A backend's answer to one {@link LlmRequest}: its n completions, in sample order.
 *
 * @param model       the model that answered (as the server names it)
 * @param completions the samples, one per requested sample index
 * @param usage       the tokens this call billed: the backend's usage for the samples it generated, zero for
 *                    samples served from the cache (each {@link Completion#usage()} keeps what its sample cost
 *                    when it was generated)
 */
public record LlmResponse(String model, List<Completion> completions, TokenUsage usage) {

    public LlmResponse {
        model = model == null ? "" : model;
        completions = List.copyOf(completions);
        usage = Objects.requireNonNullElse(usage, TokenUsage.ZERO);
    }

    /** The first completion: what a caller with n = 1 wants. */
    public Completion first() {
        if (completions.isEmpty()) {
            throw new IllegalStateException("response has no completions");
        }
        return completions.getFirst();
    }

    /** The first completion's text. */
    public String text() {
        return first().text();
    }

    /** All completions' texts in sample order. */
    public List<String> texts() {
        return completions.stream().map(Completion::text).toList();
    }
}
