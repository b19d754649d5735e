package dev.veracity.eval.judge;

import java.util.Objects;

/**
 * One judge sample: its parsed outcome, the raw text it was parsed from and the explanation it gave.
 *
 * @param gold        the gold answer this sample was judged against, or null when the judge saw all gold answers
 *                    in one prompt
 * @param sampleIndex the sample's index within its call (0 .. k-1)
 * @param outcome     what the sample says, UNPARSEABLE when nothing could be read
 * @param raw         the judge's raw output
 * @param explanation the explanation the judge gave ("" if none could be read)
 */
public record Vote(String gold, int sampleIndex, Outcome outcome, String raw, String explanation) {

    public Vote {
        outcome = Objects.requireNonNull(outcome, "outcome");
        raw = Objects.requireNonNullElse(raw, "");
        explanation = Objects.requireNonNullElse(explanation, "");
    }
}
