package dev.veracity.methods.march;

import java.util.Objects;

/**
 * One agent call as a trajectory: its role ({@code solver}, {@code proposer}, {@code checker}), the sample index,
 * the prompt sent and the text returned.
 */
public record Turn(String role, int sample, String prompt, String output) {

    public Turn {
        role = Objects.requireNonNullElse(role, "");
        prompt = Objects.requireNonNullElse(prompt, "");
        output = Objects.requireNonNullElse(output, "");
    }
}
