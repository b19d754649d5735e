package dev.veracity.qa;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What a response commits to, in TruthRL's three-way view (section 3): an answer, an abstention ("I don't know"),
 * or a false-premise call ("invalid question"); or nothing readable at all. One total classifier for the TruthRL
 * method, its rewards, the truthfulness metric and any other method's answer.
 *
 * <p>A boxed response is read through its box ({@link BoxedAnswer}); {@link #ofAnswer} classifies an answer already
 * extracted. The answer is SQuAD-normalised (curly apostrophes read as straight ones), so "I DON’T KNOW." and
 * "i dont know" are the same. An abstention is a normalised answer that contains one of the abstention phrases
 * (TruthRL's code tests "i dont know" by containment; the other phrases are the ways models word it), or that is
 * exactly "unknown", "idk" or "no answer" (exact only: "Unknown Pleasures" is an album). A false-premise call
 * contains "invalid question", "question is invalid", "false premise", "premise is false" or "invalid premise", or
 * is exactly "invalid". Abstention is checked first, as in TruthRL's reward.
 */
public final class Abstention {

    /** The kinds of commitment. */
    public enum Kind { ANSWER, ABSTAIN, INVALID_PREMISE, NO_ANSWER }

    /** A response read: its kind and the answer it gives (empty for NO_ANSWER). */
    public record Reading(Kind kind, String answer) {
    }

    private static final List<String> ABSTAIN_PHRASES = List.of("i dont know", "i do not know", "i dont have enough",
            "i do not have enough", "im not sure", "i am not sure", "i cannot answer", "i cant answer",
            "unable to answer", "unable to determine", "cannot be determined", "not enough information",
            "insufficient information");
    private static final Set<String> ABSTAIN_EXACT = Set.of("unknown", "idk", "no answer", "dont know");
    private static final List<String> INVALID_PHRASES = List.of("invalid question", "question is invalid",
            "false premise", "premise is false", "invalid premise");
    private static final Set<String> INVALID_EXACT = Set.of("invalid");

    private Abstention() {
    }

    /** A response whose answer is boxed (TruthRL's format): no box is NO_ANSWER. */
    public static Reading ofBoxed(String response, BoxedAnswer.Mode mode) {
        Optional<String> boxed = BoxedAnswer.extract(response, mode);
        return boxed.map(b -> new Reading(ofAnswer(b), b)).orElseGet(() -> new Reading(Kind.NO_ANSWER, ""));
    }

    /** An answer already extracted (a method's prediction): blank is NO_ANSWER. */
    public static Kind ofAnswer(String answer) {
        if (answer == null || answer.isBlank()) {
            return Kind.NO_ANSWER;
        }
        String norm = AnswerNormalizer.squad(answer.replace('\u2019', '\'').replace('\u2018', '\''));
        for (String phrase : ABSTAIN_PHRASES) {
            if (norm.contains(phrase)) {
                return Kind.ABSTAIN;
            }
        }
        if (ABSTAIN_EXACT.contains(norm)) {
            return Kind.ABSTAIN;
        }
        for (String phrase : INVALID_PHRASES) {
            if (norm.contains(phrase)) {
                return Kind.INVALID_PREMISE;
            }
        }
        if (INVALID_EXACT.contains(norm)) {
            return Kind.INVALID_PREMISE;
        }
        return Kind.ANSWER;
    }
}
