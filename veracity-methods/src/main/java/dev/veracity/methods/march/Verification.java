package dev.veracity.methods.march;

import java.util.ArrayList;
import java.util.List;

/**
 * What checking one response found: the Proposer's call, the Checker samples, and each claim with its verdict.
 * Without claims (the Proposer found nothing to ask) there are no Checker samples and the verification passes
 * vacuously, as the authors' reward of 0 for no pairs implies. A Proposer output that could not be read is not that:
 * the response was never checked, so it does not pass ({@link Status#UNPARSEABLE}).
 */
public record Verification(String response, Proposer.Result proposer, List<Checker.Sample> checkers,
                           List<ClaimCheck> claims) {

    /** The verdict on the response. */
    public enum Status {
        /** Every claim confirmed. */
        PASSED,
        /** At least one claim a fault. */
        FAILED,
        /** Nothing to check: the response makes no claim of the kind checked. */
        NO_CLAIMS,
        /** The Proposer's output could not be read: not verified. */
        UNPARSEABLE
    }

    public Verification {
        java.util.Objects.requireNonNull(proposer, "proposer");
        checkers = List.copyOf(checkers);
        claims = List.copyOf(claims);
    }

    public Status status() {
        if (claims.isEmpty()) {
            return proposer.unparseable() ? Status.UNPARSEABLE : Status.NO_CLAIMS;
        }
        return faults() == 0 ? Status.PASSED : Status.FAILED;
    }

    public int faults() {
        return (int) claims.stream().filter(ClaimCheck::fault).count();
    }

    /** ZTR's success case: no claim is a fault, and the response was verified (or had nothing to verify). */
    public boolean passed() {
        Status s = status();
        return s == Status.PASSED || s == Status.NO_CLAIMS;
    }

    /** Everything the parsers could not read, for the method's parse-failure record. */
    public List<String> problems() {
        List<String> out = new ArrayList<>(proposer.problems());
        for (Checker.Sample s : checkers) {
            s.parsed().problems().forEach(p -> out.add("sample " + s.turn().sample() + ": " + p));
        }
        return out;
    }

    /** Model calls made: one Proposer call and one per Checker sample. */
    public int calls() {
        return 1 + checkers.size();
    }
}
