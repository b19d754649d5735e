package dev.veracity.methods.march;

import java.util.Objects;

/**
 * One question-answer pair of the Proposer: {@code (q_i, a_i)} of section 2.2, numbered from 1 in the order the
 * Proposer wrote them; the Checker is asked question {@code number}.
 */
public record Claim(int number, String question, String answer) {

    public Claim {
        question = Objects.requireNonNullElse(question, "");
        answer = Objects.requireNonNullElse(answer, "");
    }
}
