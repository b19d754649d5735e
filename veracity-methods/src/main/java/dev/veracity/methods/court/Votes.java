package dev.veracity.methods.court;

import dev.veracity.qa.AnswerNormalizer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Agreement among agents' answers: answers are compared after SQuAD normalisation, empty answers do not vote, a
 * tie goes to the answer given first in agent order (as the CoT-SC baseline breaks ties).
 *
 * @param answer the winning answer as its first agent wrote it ("" when no agent answered)
 * @param votes  how many agents gave it
 * @param voters how many agents gave any answer
 */
record Votes(String answer, int votes, int voters) {

    static Votes of(List<String> answers) {
        Map<String, Integer> count = new LinkedHashMap<>();
        Map<String, String> first = new LinkedHashMap<>();
        int voters = 0;
        for (String a : answers) {
            String key = AnswerNormalizer.squad(a == null ? "" : a);
            if (a == null || a.isBlank()) {
                continue;
            }
            voters++;
            key = key.isEmpty() ? a.strip() : key; // an answer of punctuation only still counts as itself
            count.merge(key, 1, Integer::sum);
            first.putIfAbsent(key, a.strip());
        }
        String best = null;
        int bestVotes = 0;
        for (Map.Entry<String, Integer> e : count.entrySet()) {
            if (e.getValue() > bestVotes) {
                best = e.getKey();
                bestVotes = e.getValue();
            }
        }
        return best == null ? new Votes("", 0, 0) : new Votes(first.get(best), bestVotes, voters);
    }

    /** Whether every agent that answered gave the same answer (and at least one did). */
    boolean unanimous() {
        return voters > 0 && votes == voters;
    }
}
