package dev.veracity.methods.march;

import dev.veracity.llm.Completion;
import java.util.Objects;

/**
 * One agent call as a trajectory: its role ({@code solver}, {@code proposer}, {@code checker}), the sample index,
 * the prompt sent and the text returned, with the completion it came from (token ids, logprobs, the server's
 * response id) when the call was made here, or null.
 */
public record Turn(String role, int sample, String prompt, String output, Completion completion) {

    public Turn {
        role = Objects.requireNonNullElse(role, "");
        prompt = Objects.requireNonNullElse(prompt, "");
        output = Objects.requireNonNullElse(output, "");
    }

    /** A turn without its completion. */
    public Turn(String role, int sample, String prompt, String output) {
        this(role, sample, prompt, output, null);
    }
}
