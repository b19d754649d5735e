package dev.veracity.eval.recipe;

import dev.veracity.eval.results.ResultLine;
import dev.veracity.qa.AnswerNormalizer;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * A rule that picks questions by one run's result lines; a recipe's {@code subset: {row: ROW, where: RULE}} scores every
 * row only on the questions whose line in ROW's run satisfies RULE (see {@link Recipe.Subset}).
 */
public enum SubsetRule {

    /**
     * Reasoning Court, Section 5.2: "the subset of questions where the two agents provide non-identical or empty
     * answers". The line's {@code candidates} (the agents' answers, as {@code eval} writes them and
     * {@code JudgeScenarios} reads them) number two or more, and after the SQuAD answer normalisation
     * ({@link AnswerNormalizer#squad}) either they are not all equal or at least one is empty. A line with fewer than
     * two candidates (a failed question, a method without agents) is not in the subset.
     */
    AGENTS_DISAGREE("agents-disagree", "two or more agents whose answers differ after normalisation, or one of them empty",
            SubsetRule::agentsDisagree);

    private final String id;
    private final String description;
    private final Predicate<ResultLine> test;

    SubsetRule(String id, String description, Predicate<ResultLine> test) {
        this.id = id;
        this.description = description;
        this.test = test;
    }

    /** The name a recipe's {@code subset.where} gives. */
    public String id() {
        return id;
    }

    /** What the rule keeps, in words (the reproduction table prints it). */
    public String description() {
        return description;
    }

    /** Whether the question of this result line is in the subset. */
    public boolean test(ResultLine line) {
        return test.test(line);
    }

    /** The rule of that name, if there is one. */
    public static Optional<SubsetRule> byId(String id) {
        return Arrays.stream(values()).filter(r -> r.id.equals(id)).findFirst();
    }

    /** Every rule's name. */
    public static List<String> ids() {
        return Arrays.stream(values()).map(SubsetRule::id).toList();
    }

    static boolean agentsDisagree(ResultLine line) {
        List<ResultLine.Candidate> cands = line.candidates();
        if (cands == null || cands.size() < 2) {
            return false;
        }
        Set<String> answers = new HashSet<>();
        for (ResultLine.Candidate c : cands) {
            String a = AnswerNormalizer.squad(c.answer() == null ? "" : c.answer());
            if (a.isEmpty()) {
                return true;
            }
            answers.add(a);
        }
        return answers.size() > 1;
    }
}
