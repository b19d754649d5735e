package dev.veracity.methods.madam;

import java.util.List;

/**
 * A whole debate: its rounds, the final aggregation, whether it stopped early, and the outputs that did not parse.
 */
public record Transcript(List<Round> rounds, AggregatorOutput result, boolean stoppedEarly, List<String> parseFailures) {

    public Transcript {
        rounds = List.copyOf(rounds);
        parseFailures = List.copyOf(parseFailures);
    }
}
