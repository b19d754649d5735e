package dev.veracity.eval.judge;

import java.util.Objects;

/**
 * What a parser read from one judge output. Parsers are total: any string, null included, gives one.
 *
 * @param outcome     CORRECT, INCORRECT or UNPARSEABLE
 * @param explanation the judge's explanation, "" if none
 * @param rule        which parsing rule decided (for debugging parse failures), e.g. "json", "fallback", "none"
 */
public record Parsed(Outcome outcome, String explanation, String rule) {

    public Parsed {
        outcome = Objects.requireNonNull(outcome, "outcome");
        explanation = Objects.requireNonNullElse(explanation, "");
        rule = Objects.requireNonNullElse(rule, "");
    }

    public static Parsed unparseable(String why) {
        return new Parsed(Outcome.UNPARSEABLE, "", why);
    }

    public static Parsed of(boolean correct, String explanation, String rule) {
        return new Parsed(correct ? Outcome.CORRECT : Outcome.INCORRECT, explanation, rule);
    }
}
