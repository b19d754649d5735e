package dev.veracity.llm;

import java.util.List;
import java.util.Objects;

/**
 * The serving engine's own token ids of one sample (vLLM's {@code return_token_ids}: the response's
 * {@code prompt_token_ids} and the choice's {@code token_ids}), kept so a trainer never re-tokenises what was
 * generated: a decode and re-encode does not give the same ids back (merges across the prompt/response boundary,
 * special tokens, normalisation).
 *
 * @param prompt   the prompt's ids, chat template applied, as the engine fed them to the model
 * @param response the generated ids, in order (the same positions as the completion's logprobs)
 */
public record TokenIds(List<Integer> prompt, List<Integer> response) {

    public TokenIds {
        prompt = List.copyOf(Objects.requireNonNull(prompt, "prompt"));
        response = List.copyOf(Objects.requireNonNull(response, "response"));
    }
}
