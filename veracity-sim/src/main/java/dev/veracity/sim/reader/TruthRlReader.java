package dev.veracity.sim.reader;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * TruthRL's inference prompts (Tables 9 and 10): reasoning in {@code <think>}, the answer boxed. With references,
 * the sentence of the best {@code <DOC>} block that overlaps the question gives the answer; when none overlaps, or
 * closed book, the reader abstains with a boxed "I don't know" (so a run shows answers, abstentions and, against the
 * gold answers, hallucinations).
 */
public final class TruthRlReader implements PromptReader {

    static final String MARK = "The final answer MUST be put in \\boxed{}";

    public TruthRlReader() {
    }

    @Override
    public String name() {
        return "truthrl";
    }

    @Override
    public int order() {
        return 50;
    }

    @Override
    public Optional<String> read(String p) {
        if (!p.contains(MARK) || !p.contains("### Question")) {
            return Optional.empty();
        }
        String question = Text.between(p, "### Question\n", "\n### Query Time");
        List<Text.Doc> docs = docs(p);
        Text.Hit hit = docs.isEmpty() ? null : Text.best(question, docs);
        if (hit == null) {
            return Optional.of("<think>\nThe question asks: " + Text.brief(question, 200) + " Nothing I can check answers"
                    + " it.\n</think>\n\\boxed{I don't know}");
        }
        String answer = Text.answer(question, docs);
        return Optional.of("<think>\nThe question asks: " + Text.brief(question, 200) + " Document [" + hit.doc()
                + "] says: " + Text.brief(hit.sentence(), 300) + "\n</think>\n\\boxed{" + answer + "}");
    }

    /** The {@code <DOC>\nDocument [i]: text\n</DOC>} blocks after "### References". */
    private static List<Text.Doc> docs(String p) {
        List<Text.Doc> out = new ArrayList<>();
        int refs = p.indexOf("### References");
        if (refs < 0) {
            return out;
        }
        int at = refs;
        while (true) {
            int open = p.indexOf("<DOC>\nDocument [", at);
            if (open < 0) {
                break;
            }
            int numberStart = open + "<DOC>\nDocument [".length();
            int numberEnd = p.indexOf("]: ", numberStart);
            int close = p.indexOf("\n</DOC>", numberStart);
            if (numberEnd < 0 || close < 0 || numberEnd > close) {
                break;
            }
            int number;
            try {
                number = Integer.parseInt(p.substring(numberStart, Math.min(numberEnd, numberStart + 6)));
            } catch (NumberFormatException e) {
                number = out.size() + 1;
            }
            out.add(new Text.Doc(number, p.substring(numberEnd + 3, close)));
            at = close + 1;
        }
        return out;
    }
}
