package dev.veracity.sim.reader;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** MARCH: the Solver, the Proposer (plain and typed) and the Checker (plain and typed). */
public final class MarchReader implements PromptReader {

    public MarchReader() {
    }

    @Override
    public String name() {
        return "march";
    }

    @Override
    public int order() {
        return 30;
    }

    static final String SOLVER = "You must respond based strictly on the information in provided passages";
    static final String PROPOSER = "You are a data annotation expert";
    static final String CHECKER = "You are a data validation expert";

    private static final Pattern QUESTION = Pattern.compile("(?m)^- Question (\\d+):[ \\t]*(.*)$");

    @Override
    public Optional<String> read(String p) {
        if (p.contains(PROPOSER)) {
            return Optional.of(propose(Text.between(p, "Model Response:", null)));
        }
        if (p.contains(CHECKER)) {
            return Optional.of(check(p));
        }
        if (p.contains(SOLVER)) {
            return Optional.of(solve(p));
        }
        return Optional.empty();
    }

    /** The three passage sentences that best overlap the query, copied. */
    private static String solve(String p) {
        String q = Text.lastLine(p, "Query:");
        int from = p.lastIndexOf("Passages:");
        int to = p.lastIndexOf("\nQuery:");
        String region = from >= 0 && to > from ? p.substring(from, to) : p;
        List<Text.Hit> hits = Text.ranked(q, Text.documents(region));
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < Math.min(3, hits.size()) && hits.get(i).score() > 0; i++) {
            sb.append(i > 0 ? " " : "").append(hits.get(i).sentence());
        }
        return sb.isEmpty() ? "The provided passages do not contain information that answers the query." : sb.toString();
    }

    /** One question per number of the response, asking for it in the words of its sentence. */
    private static String propose(String response) {
        StringBuilder sb = new StringBuilder();
        for (String sentence : Text.sentences(response)) {
            for (String n : Text.numbers(sentence)) {
                String context = Text.brief(sentence.replace(n, "what number"), 300).replace("[", "(").replace("]", ")");
                sb.append("- Question: In the statement \"").append(context).append("\", what is the number? [Answer: ")
                        .append(Text.pure(n)).append("]\n");
            }
        }
        return sb.isEmpty() ? "There are no numbers in the response, so there is nothing to check." : sb.toString().strip();
    }

    /** For each "- Question i: q", the best-overlapping passage sentence with a number, or "Cannot answer". */
    private static String check(String p) {
        int refAt = p.lastIndexOf("Reference Materials:");
        int qAt = p.lastIndexOf("Questions:");
        String materials = refAt >= 0 && qAt > refAt ? p.substring(refAt, qAt) : "";
        String questions = qAt >= 0 ? p.substring(qAt) : p;
        List<Text.Doc> docs = Text.documents(materials);
        StringBuilder sb = new StringBuilder();
        Matcher m = QUESTION.matcher(questions);
        while (m.find()) {
            String i = m.group(1);
            String q = m.group(2);
            String line = null;
            for (Text.Hit h : Text.ranked(q, docs)) {
                if (h.score() == 0) {
                    break;
                }
                String n = Text.firstNumberNotIn(h.sentence(), q);
                if (n != null) {
                    line = i + ". Evidence: Document-" + h.doc() + " states that " + Text.brief(h.sentence(), 300)
                            .replace("[", "(").replace("]", ")") + " [Answer: " + n + "]";
                    break;
                }
            }
            sb.append(line != null ? line : i + ". Evidence: The materials do not contain this information, therefore I cannot"
                    + " answer. [Answer: Cannot answer]").append('\n');
        }
        return sb.isEmpty() ? "There are no questions to answer." : sb.toString().strip();
    }

}
