package dev.veracity.methods.march;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One claim after checking: the Checker's answer from each sample (null where a sample gave none), the vote (+1 per
 * sample whose answer matches the claimed one, -1 otherwise, as the authors' code counts) and the verdict: a fault
 * when the vote is below 0.
 */
public record ClaimCheck(Claim claim, List<CheckerAnswer> answers, int vote) {

    public ClaimCheck {
        answers = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(answers));
    }

    public boolean fault() {
        return vote < 0;
    }

    public String verdict() {
        return fault() ? "fault" : "confirmed";
    }

    /** The most frequent Checker answer (the consensus of section 2.3), "" when no sample answered. */
    public String consensus() {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (CheckerAnswer a : answers) {
            if (a != null) {
                counts.merge(a.answer().strip(), 1, Integer::sum);
            }
        }
        return counts.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse("");
    }
}
