package dev.veracity.sim.reader;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * C-3PO's prompts (Appendix B.1 and D as the authors' code sends them): the proxy's router, filter and Decision
 * Maker in their output formats, the LLM's roadmap and answers. The router plans for long or compositional
 * questions, answers very short ones directly and retrieves the question otherwise; the filter keeps the documents
 * that share words with the question; the Decision Maker retrieves the question until a kept document shares words
 * with it (re-asking brings the next page), then passes to the LLM; the answer is the usual extractive span.
 * Deterministic: every proxy output parses.
 */
public final class C3poReader implements PromptReader {

    static final String ROUTER = "You are an intelligent assistant tasked with evaluating whether a given question"
            + " requires further information through retrieval or needs planning";
    static final String FILTER = "You are an intelligent assistant tasked with analyzing the retrieved documents";
    static final String DECISION = "You are an intelligent assistant tasked with determining the next appropriate action";
    static final String FORCED = "You are an intelligent assistant assigned to analyze useful information from the"
            + " existing documents and plan";
    static final String ROADMAP = "You are an expert assistant tasked with analyzing the following question and"
            + " formulating a detailed plan";
    static final String ANSWER = "You are a knowledgeable assistant. Please answer the following question by:";
    static final String ANSWER_CLOSED = "Based on your knowledge, answer the question:\n";

    public C3poReader() {
    }

    @Override
    public String name() {
        return "c3po";
    }

    @Override
    public int order() {
        return 60;
    }

    @Override
    public Optional<String> read(String p) {
        // chat prompts arrive as the messages joined: the authors' system message, then the prompt
        if (p.contains(ROUTER)) {
            return Optional.of(route(Text.between(p, "\n\nQuestion: ", null)));
        }
        if (p.contains(FILTER)) {
            return Optional.of(filter(Text.between(p, "\n\nQuestion: ", "\n\nDocuments:\n"), after(p, "\n\nDocuments:\n")));
        }
        if (p.contains(FORCED)) {
            return Optional.of("Thought: The existing documents and the plan are what the LLM needs.\nAction: [LLM]");
        }
        if (p.contains(DECISION)) {
            String question = Text.between(p, "\n\nQuestion: ", null);
            String existing = Text.between(p, "\n\nExisting Documents: ", "\n\nPlan: ");
            return Optional.of(decide(question, existing));
        }
        if (p.contains(ROADMAP)) {
            String question = Text.between(p, "\nQuestion: ", null);
            return Optional.of("To answer the question, we need documents about " + Text.brief(question, 200)
                    + "\nStep 1: Retrieve the relevant documents about the question.\nStep 2: Identify the answer in the"
                    + " retrieved documents.\nStep 3: Provide the answer based on the retrieved information.");
        }
        if (p.contains(ANSWER)) {
            String question = Text.between(p, "\n\nQuestion: ", null);
            List<Text.Doc> docs = docs(Text.between(p, "Existing documents: ", "\n\nQuestion: "));
            String answer = Text.answer(question, docs);
            return Optional.of(answer.equals(Text.UNKNOWN) ? "The documents do not say; I cannot answer this reliably."
                    : "Based on the documents, the answer is " + answer + ".");
        }
        if (p.contains(ANSWER_CLOSED)) {
            return Optional.of("I cannot answer this from my own knowledge.");
        }
        return Optional.empty();
    }

    private static String after(String p, String marker) {
        int at = p.lastIndexOf(marker);
        return at < 0 ? "" : p.substring(at + marker.length());
    }

    private static String route(String question) {
        int words = question.isBlank() ? 0 : question.strip().split("\\s+").length;
        if (words <= 4) {
            return "[No Retrieval]";
        }
        String lower = question.toLowerCase(java.util.Locale.ROOT);
        if (words >= 14 || lower.contains(" of the ") && words >= 9) {
            return "[Planning]";
        }
        return "[Retrieval] " + question.strip().replace('\n', ' ');
    }

    private static String filter(String question, String documents) {
        List<Text.Doc> docs = docs(documents);
        var q = Text.words(question);
        List<Integer> keep = new ArrayList<>();
        for (Text.Doc d : docs) {
            if (keep.size() < 3 && Text.overlap(q, d.text()) > 0) {
                keep.add(d.number());
            }
        }
        String thought = keep.isEmpty() ? "None of the documents shares a word with the question."
                : "Documents " + keep + " share words with the question; the others do not.";
        return "Thought: " + thought + "\nAction: " + keep;
    }

    private static String decide(String question, String existing) {
        List<Text.Doc> docs = docs(existing);
        boolean useful = docs.stream().anyMatch(d -> !d.text().contains("None relevant information about ")
                && Text.overlap(Text.words(question), d.text()) > 0);
        if (useful) {
            return "Thought: The existing documents cover the question.\nAction: [LLM]";
        }
        return "Thought: " + (docs.isEmpty() ? "There are no documents yet; the plan starts with retrieval."
                : "The documents so far do not answer it; look further.")
                + "\nAction: [Retrieval] " + question.strip().replace('\n', ' ');
    }

    /** The authors' {@code Document i (Title: t): text} blocks, separated by blank lines; the title joins the text. */
    static List<Text.Doc> docs(String region) {
        List<Text.Doc> out = new ArrayList<>();
        String marker = "Document ";
        int at = region.startsWith(marker) ? 0 : region.indexOf("\n\n" + marker);
        if (at > 0) {
            at += 2;
        }
        while (at >= 0 && at < region.length()) {
            int numberStart = at + marker.length();
            int numberEnd = numberStart;
            while (numberEnd < region.length() && numberEnd - numberStart < 6 && Character.isDigit(region.charAt(numberEnd))) {
                numberEnd++;
            }
            int next = region.indexOf("\n\n" + marker, numberEnd);
            String block = region.substring(numberEnd, next < 0 ? region.length() : next);
            if (numberEnd > numberStart) {
                String title = "";
                String text = block;
                int close = block.indexOf("): ");
                if (block.startsWith(" (Title: ") && close > 0) {
                    title = block.substring(" (Title: ".length(), close);
                    text = block.substring(close + 3);
                }
                out.add(new Text.Doc(Integer.parseInt(region.substring(numberStart, numberEnd)),
                        (title.isEmpty() ? "" : title + ". ") + text.strip()));
            }
            at = next < 0 ? -1 : next + 2;
        }
        return out;
    }
}
