package dev.veracity.llm;

import dev.veracity.text.Unicode;
import java.util.List;

/**
 * The log-probability of one generated token, with the most likely alternatives when asked for.
 *
 * @param token   the token text (unpaired surrogates replaced by U+FFFD, as in {@link Completion#text()})
 * @param logprob its natural-log probability
 * @param top     the top alternatives at this position (may be empty)
 */
public record TokenLogprob(String token, double logprob, List<Alternative> top) {

    public TokenLogprob {
        token = token == null ? "" : Unicode.repair(token);
        top = top == null ? List.of() : List.copyOf(top);
    }

    /** One alternative token at a position. */
    public record Alternative(String token, double logprob) {
        public Alternative {
            token = token == null ? "" : Unicode.repair(token);
        }
    }
}
