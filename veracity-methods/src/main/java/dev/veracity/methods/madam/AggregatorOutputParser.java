package dev.veracity.methods.madam;

import dev.veracity.qa.AnswerSetParser;
import java.util.List;

/**
 * Reads the aggregator's {@code All Correct Answers: [...]. Explanation: ...}; total and linear-time. The authors'
 * code never parses it. The answer set is read by {@link AnswerSetParser}, which the strict-multi metric uses too,
 * so the method's answer set and the metric's agree: the first well-formed marker after reasoning blocks are
 * removed, never one quoted in the explanation ("Agent 3 claims 'All Correct Answers: [1998]'") or copied from a
 * document; no marker is a parse failure whose fallback is the first bracketed list, else the first line.
 */
public final class AggregatorOutputParser {

    private AggregatorOutputParser() {
    }

    public static AggregatorOutput parse(String text) {
        return parse(text, List.of());
    }

    /** @param documents the question's documents: a marker copied from one of them never gives the answer */
    public static AggregatorOutput parse(String text, List<String> documents) {
        String raw = text == null ? "" : text;
        AnswerSetParser.Reading r = AnswerSetParser.read(raw, documents);
        return new AggregatorOutput(r.answers(), explanationAfter(r.text(), r.marked() ? r.end() : 0), raw, r.marked());
    }

    /** The text after the first "Explanation:" at or after {@code from} (emphasis allowed around it), or "". */
    private static String explanationAfter(String t, int from) {
        int body = AgentOutputParser.afterKeyword(t, Math.min(from, t.length()), "explanation");
        return body < 0 ? "" : t.substring(body).strip();
    }
}
