package dev.veracity.sim.reader;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * MADAM-RAG and its multi-document baselines: the agent (one document), the aggregator, the concatenated prompt,
 * self-reflection, Astute RAG and Speculative RAG.
 */
public final class MadamReader implements PromptReader {

    public MadamReader() {
    }

    @Override
    public String name() {
        return "madam-rag";
    }

    @Override
    public int order() {
        return 40;
    }

    static final String AGENT = "You are an agent reading a document";
    static final String AGGREGATOR = "You are an aggregator reading answers from multiple agents";
    static final String SPEC_AGGREGATOR = "You are an aggregator reading answers from multiple responses";
    static final String MULTI_DOC = "You will be provided a question with multiple documents";
    static final String REVIEW = "Review your previous answer and find problems with your answer.";
    static final String REFINE = "Based on the problems you found, improve your answer";
    static final String ASTUTE_FINAL = "Task: Answer a given question using the consolidated information";
    static final String ASTUTE_CONSOLIDATE = "Task: Consolidate information";
    static final String ASTUTE_GENERATE = "Generate a document that provides accurate and relevant information";
    static final String SPEC_DRAFTER = "Answer the question based on the documents. Also provide rationale";

    private static final Pattern AGENT_LINE = Pattern.compile("(?m)^(?:Agent|Response) \\d+: (.*)$");

    @Override
    public Optional<String> read(String p) {
        if (p.contains(AGGREGATOR) || p.contains(SPEC_AGGREGATOR)) {
            return Optional.of(aggregate(p));
        }
        if (p.contains(AGENT)) {
            return Optional.of(agent(p));
        }
        if (p.contains(ASTUTE_FINAL)) {
            return Optional.of(multiDoc(p, Text.lastLine(p, "Question:"), Text.documents(p)));
        }
        if (p.contains(ASTUTE_CONSOLIDATE)) {
            String q = Text.lastLine(p, "Question:");
            Text.Hit h = Text.best(q, Text.documents(p));
            return Optional.of(h == null ? "Document 1 (external retrieval): no retrieved document is relevant to the question."
                    : "Document 1 (external retrieval, from Document " + h.doc() + "): " + h.sentence());
        }
        if (p.contains(ASTUTE_GENERATE)) {
            return Optional.of("I don't know.");
        }
        if (p.contains(SPEC_DRAFTER)) {
            String q = Text.lastLine(p, "Question:");
            List<Text.Doc> docs = Text.documents(p);
            Text.Hit h = Text.best(q, docs);
            return Optional.of(h == null ? "Response: unknown. Rationale: The documents do not answer the question."
                    : "Response: " + Text.span(q, h.sentence()) + ". Rationale: Document " + h.doc() + " states: "
                    + Text.brief(h.sentence(), 300));
        }
        if (p.contains(MULTI_DOC)) {
            String q = Text.lastLine(p, "Question:");
            if (p.contains(REFINE)) {
                return Optional.of(multiDoc(p, q, Text.documents(after(p, "Question:"))));
            }
            if (p.strip().endsWith(REVIEW)) {
                Text.Hit h = Text.best(q, Text.documents(after(p, "Question:")));
                return Optional.of(h == null ? "The documents do not seem to answer the question; the answer may be unknown."
                        : "The answer should agree with Document " + h.doc() + ", which states: " + Text.brief(h.sentence(), 300));
            }
            return Optional.of(multiDoc(p, q, Text.documents(after(p, "Question:"))));
        }
        return Optional.empty();
    }

    /** The text after the last {@code label}: the real question's part of a one-shot prompt. */
    static String after(String p, String label) {
        int at = p.lastIndexOf(label);
        return at < 0 ? p : p.substring(at);
    }

    /** An answer set over the documents after the last "Question:": one answer per document that answers. */
    private static String multiDoc(String p, String q, List<Text.Doc> docs) {
        List<String> answers = new ArrayList<>();
        StringBuilder why = new StringBuilder();
        for (Text.Doc d : docs) {
            Text.Hit h = Text.best(q, List.of(d));
            if (h != null && h.score() >= 2) {
                String a = Text.span(q, h.sentence());
                answers.add(a);
                why.append("Document ").append(d.number()).append(" gives ").append(a).append(". ");
            }
        }
        if (answers.isEmpty()) {
            Text.Hit h = Text.best(q, docs);
            if (h != null) {
                String a = Text.span(q, h.sentence());
                answers.add(a);
                why.append("Document ").append(h.doc()).append(" gives ").append(a).append(". ");
            }
        }
        return Text.answerSet(answers, why.isEmpty() ? "No document answers the question." : why.toString().strip());
    }

    private static String agent(String p) {
        String q = Text.lastLine(p, "Question:");
        int at = p.lastIndexOf("\nDocument:");
        String doc = "";
        if (at >= 0) {
            int start = at + "\nDocument:".length();
            int end = p.indexOf("\n\nThe following responses are from other agents", start);
            if (end < 0) {
                end = p.indexOf("\n\nAnswer the question based on the document", start);
            }
            doc = p.substring(start, end < 0 ? p.length() : end);
        }
        Text.Hit h = Text.best(q, List.of(new Text.Doc(1, doc)));
        if (h == null) {
            return "Answer: unknown. Explanation: The document does not contain information that answers the question.";
        }
        return "Answer: " + Text.span(q, h.sentence()) + ". Explanation: The document states: " + Text.brief(h.sentence(), 300);
    }

    private static String aggregate(String p) {
        String label = p.contains(AGGREGATOR) ? "Agent responses:" : "Responses:";
        String region = after(p, label);
        List<String> answers = new ArrayList<>();
        Matcher m = AGENT_LINE.matcher(region);
        while (m.find()) {
            String line = m.group(1);
            String a = line.startsWith("Response:") ? cut(line, "Response:", ". Rationale") : cut(line, "Answer:", ". Explanation");
            if (!a.isEmpty()) {
                answers.add(a);
            }
        }
        String explanation = answers.isEmpty() ? "No agent gives an answer."
                : "The responses give " + String.join(", ", answers) + "; unknown answers are dropped.";
        return Text.answerSet(answers, explanation);
    }

    private static String cut(String line, String marker, String endMarker) {
        int at = line.indexOf(marker);
        if (at < 0) {
            return "";
        }
        int start = at + marker.length();
        int end = line.indexOf(endMarker, start);
        String a = line.substring(start, end < 0 ? line.length() : end).strip();
        return a.endsWith(".") ? a.substring(0, a.length() - 1).strip() : a;
    }
}
