package dev.veracity.eval.judge;

import java.util.List;
import java.util.Objects;

/**
 * A judge's typed result: the outcome, every sample's vote (parsed outcome and raw text) and an explanation.
 *
 * <p>Majority rule ({@link #majority}): over the <em>parseable</em> votes only, CORRECT when strictly more votes
 * say CORRECT than INCORRECT; a tie goes to INCORRECT (a judge that cannot make up its mind does not credit the
 * prediction); no parseable vote at all gives UNPARSEABLE. Unparseable samples are kept in {@link #votes()} and
 * counted by {@link #unparseableSamples()}.
 *
 * @param outcome     the final outcome
 * @param votes       every sample, in the order they were asked (gold by gold for per-gold judges)
 * @param explanation the explanation of the first vote that agrees with the outcome ("" if none)
 */
public record Verdict(Outcome outcome, List<Vote> votes, String explanation) {

    public Verdict {
        outcome = Objects.requireNonNull(outcome, "outcome");
        votes = List.copyOf(votes);
        explanation = Objects.requireNonNullElse(explanation, "");
    }

    /** The majority verdict of these votes (rule in the class comment). */
    public static Verdict majority(List<Vote> votes) {
        long correct = votes.stream().filter(v -> v.outcome() == Outcome.CORRECT).count();
        long incorrect = votes.stream().filter(v -> v.outcome() == Outcome.INCORRECT).count();
        Outcome o = correct + incorrect == 0 ? Outcome.UNPARSEABLE
                : correct > incorrect ? Outcome.CORRECT : Outcome.INCORRECT;
        return new Verdict(o, votes, explanationFor(o, votes));
    }

    static String explanationFor(Outcome o, List<Vote> votes) {
        return votes.stream().filter(v -> v.outcome() == o).map(Vote::explanation).filter(e -> !e.isBlank())
                .findFirst().orElse("");
    }

    public boolean correct() {
        return outcome == Outcome.CORRECT;
    }

    public boolean parsed() {
        return outcome.parsed();
    }

    public long correctVotes() {
        return votes.stream().filter(v -> v.outcome() == Outcome.CORRECT).count();
    }

    public long incorrectVotes() {
        return votes.stream().filter(v -> v.outcome() == Outcome.INCORRECT).count();
    }

    /** How many samples could not be parsed (whatever the final outcome). */
    public long unparseableSamples() {
        return votes.stream().filter(v -> v.outcome() == Outcome.UNPARSEABLE).count();
    }
}
