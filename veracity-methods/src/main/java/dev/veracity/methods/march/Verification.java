package dev.veracity.methods.march;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What checking one response found: the Proposer's call, the Checker samples, and each claim with its verdict.
 * Without claims (the Proposer found nothing to ask) there are no Checker samples: the verdict is
 * {@link Status#NO_CLAIMS}, not {@link Status#PASSED} (nothing was checked), while the response still counts as
 * {@link #consistent()} (no fault), as the authors' reward of 0 for no pairs implies. A Proposer output that could not
 * be read is neither: the response was never checked ({@link Status#UNPARSEABLE}).
 */
public record Verification(String response, Proposer.Result proposer, List<Checker.Sample> checkers,
                           List<ClaimCheck> claims) {

    /**
     * The verdict on the response, one vocabulary for every front end: {@code verify}, the server's
     * {@code veracity.verification.verdict} and the reward details all write {@link #label()}.
     */
    public enum Status {
        /** Claims were checked and every one confirmed. */
        PASSED,
        /** At least one claim a fault. */
        FAILED,
        /** Nothing to check: the response makes no claim of the kind checked. */
        NO_CLAIMS,
        /** The Proposer's output could not be read: not verified. */
        UNPARSEABLE;

        /** As reports write it: {@code passed}, {@code failed}, {@code no_claims}, {@code unparseable}. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        /**
         * The verdict an answer's signals record, as {@code march} and the {@code METHOD+march} compositions write
         * them ({@code consistent}, {@code claims}, {@code unparseable}); empty when the answer was not verified (no
         * {@code consistent} signal).
         */
        public static Optional<Status> ofSignals(Map<String, Double> signals) {
            if (!signals.containsKey("consistent")) {
                return Optional.empty();
            }
            if (signals.getOrDefault("unparseable", 0.0) > 0) {
                return Optional.of(UNPARSEABLE);
            }
            if (signals.getOrDefault("claims", 1.0) == 0) {
                return Optional.of(NO_CLAIMS);
            }
            return Optional.of(signals.get("consistent") > 0 ? PASSED : FAILED);
        }
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

    /**
     * ZTR's success case and the consistency rate's: no claim is a fault, and the response was verified or had nothing
     * to verify ({@link Status#PASSED} or {@link Status#NO_CLAIMS}). Not the verdict: a response without claims is
     * consistent but did not pass a check ({@link #status()}).
     */
    public boolean consistent() {
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
