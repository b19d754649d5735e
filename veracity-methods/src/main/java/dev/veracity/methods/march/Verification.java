package dev.veracity.methods.march;

import java.util.ArrayList;
import java.util.List;

/**
 * What checking one response found: the Proposer's call, the Checker samples, and each claim with its verdict.
 * Without claims (the Proposer gave none) there are no Checker samples and the verification passes vacuously, as
 * the authors' reward of 0 for no pairs implies.
 */
public record Verification(String response, Proposer.Result proposer, List<Checker.Sample> checkers,
                           List<ClaimCheck> claims) {

    public Verification {
        checkers = List.copyOf(checkers);
        claims = List.copyOf(claims);
    }

    public int faults() {
        return (int) claims.stream().filter(ClaimCheck::fault).count();
    }

    /** No claim is a fault: ZTR's success case. */
    public boolean passed() {
        return faults() == 0;
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
