package dev.veracity.sim.reader;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Single-call baselines: no-RAG, standard prompting (with or without documents), few-shot chain of thought. */
public final class BaselineReader implements PromptReader {

    public BaselineReader() {
    }

    @Override
    public String name() {
        return "baselines";
    }

    @Override
    public int order() {
        return BASELINES;
    }

    static final String NO_RAG = "Please respond with the exact answer only";
    static final String STANDARD = "Provide a short answer without explanation";

    @Override
    public Optional<String> read(String p) {
        if (p.contains(NO_RAG)) {
            return Optional.of(guess(Text.between(p, "Question:", " Answer:")));
        }
        if (p.contains(STANDARD)) {
            if (p.contains("\nClaim:")) { // FEVER's standard prompt: a label, without explanation
                return Optional.of(label(p, Text.lastLine(p, "Claim:")));
            }
            String q = Text.lastLine(p, "Question:");
            List<Text.Doc> docs = Text.documents(p);
            return Optional.of(docs.isEmpty() ? Text.UNKNOWN : Text.answer(q, docs));
        }
        String t = p.stripTrailing();
        if (t.endsWith("\nThought:") || t.endsWith("Thought:") && (p.contains("Question:") || p.contains("Claim:"))) {
            int qAt = t.lastIndexOf("Question:");
            int cAt = t.lastIndexOf("Claim:");
            if (qAt < 0 && cAt < 0) {
                return Optional.empty();
            }
            if (cAt > qAt) {
                return Optional.of(fever(p, Text.lastLine(t, "Claim:")));
            }
            String q = Text.lastLine(t, "Question:");
            List<Text.Doc> docs = Text.documents(p);
            String a = docs.isEmpty() ? guess(q) : Text.answer(q, docs);
            return Optional.of(" The question asks: " + Text.brief(q, 200) + " Thinking it through, the answer is " + a
                    + ".\nAnswer: " + a);
        }
        return Optional.empty();
    }

    /** Closed book: a name phrase of the question that is not its first word, else "unknown". */
    static String guess(String question) {
        String q = question.strip();
        int space = q.indexOf(' ');
        if (space < 0) {
            return Text.UNKNOWN;
        }
        String name = Text.namePhrase(q.substring(space + 1), Set.of());
        return name == null ? Text.UNKNOWN : name;
    }

    /** A few-shot CoT turn on a claim: a thought, then the label. */
    private static String fever(String p, String claim) {
        return " Checking the claim: " + Text.brief(claim, 200) + "\nAnswer: " + label(p, claim);
    }

    /** SUPPORTS / REFUTES / NOT ENOUGH INFO: by overlap with the documents if any, else by the claim's hash. */
    private static String label(String p, String claim) {
        List<Text.Doc> docs = Text.documents(p);
        if (!docs.isEmpty()) {
            Text.Hit h = Text.best(claim, docs);
            int words = Text.words(claim).size();
            return h == null ? "NOT ENOUGH INFO" : h.score() * 2 >= words ? "SUPPORTS" : "REFUTES";
        }
        return switch (Math.floorMod(claim.hashCode(), 3)) {
            case 0 -> "SUPPORTS";
            case 1 -> "REFUTES";
            default -> "NOT ENOUGH INFO";
        };
    }
}
