package dev.veracity.methods.march;

import dev.veracity.method.PromptTemplate;
import dev.veracity.qa.Document;
import java.util.List;
import java.util.Map;

/** The agents' prompts (verbatim resources citing Appendix A) and how documents and questions are laid out. */
final class MarchPrompts {

    static final PromptTemplate SOLVER = PromptTemplate.resource(MarchPrompts.class, "solver.txt");
    static final PromptTemplate PROPOSER = PromptTemplate.resource(MarchPrompts.class, "proposer.txt");
    static final PromptTemplate PROPOSER_TYPED = PromptTemplate.resource(MarchPrompts.class, "proposer-typed.txt");
    static final PromptTemplate PROPOSER_CONSTRAINT = PromptTemplate.resource(MarchPrompts.class, "proposer-constraint.txt");
    static final PromptTemplate CHECKER = PromptTemplate.resource(MarchPrompts.class, "checker.txt");
    static final PromptTemplate CHECKER_TYPED = PromptTemplate.resource(MarchPrompts.class, "checker-typed.txt");

    private MarchPrompts() {
    }

    /** "Document-i" then the text (a title, when there is one, opens it), as the passages appear in Appendix C. */
    static String documents(List<Document> docs) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < docs.size(); i++) {
            Document d = docs.get(i);
            if (i > 0) {
                sb.append('\n');
            }
            sb.append("Document-").append(i + 1).append('\n');
            if (!d.title().isBlank()) {
                sb.append(d.title()).append(". ");
            }
            sb.append(d.text());
        }
        return sb.toString();
    }

    /** "- Question i: q", numbered from 1 (the authors' code: "- Question {i}:{q}"). */
    static String questions(List<String> questions) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < questions.size(); i++) {
            if (i > 0) {
                sb.append('\n');
            }
            sb.append("- Question ").append(i + 1).append(": ").append(questions.get(i).replace('\n', ' '));
        }
        return sb.toString();
    }

    static String constraint(int minPairs, int maxPairs) {
        return minPairs <= 0 ? "" : PROPOSER_CONSTRAINT.fill(Map.of("min_pairs", Integer.toString(minPairs),
                "max_pairs", Integer.toString(maxPairs)));
    }
}
