package dev.veracity.methods.truthrl;

import dev.veracity.method.PromptTemplate;
import dev.veracity.qa.Document;
import dev.veracity.qa.QaItem;
import java.util.List;
import java.util.Map;

/** TruthRL's inference prompts (Tables 9 and 10) and the references block of the authors' code. */
public final class TruthRlPrompts {

    static final PromptTemplate NO_RETRIEVAL = PromptTemplate.resource(TruthRlPrompts.class, "no-retrieval.txt");
    static final PromptTemplate RETRIEVAL = PromptTemplate.resource(TruthRlPrompts.class, "retrieval.txt");

    /** The authors stop adding references once the block would pass this many characters. */
    public static final int REFERENCES_CAP = 80_000;

    private TruthRlPrompts() {
    }

    /** The question's query time (CRAG's), or {@code fallback} for a question that has none. */
    public static String queryTime(QaItem item, String fallback) {
        return item.queryTime() == null || item.queryTime().isBlank() ? fallback : item.queryTime();
    }

    /**
     * The user message for a question: with its documents as references, or closed book.
     *
     * @param queryTime the question's query time (CRAG's "mm/dd/yyyy, hh:mm:ss PT"); datasets without one get the
     *                  {@code query-time} option's value
     */
    public static String prompt(QaItem item, boolean retrieval, String queryTime) {
        Map<String, String> values = new java.util.HashMap<>();
        values.put("question", item.question());
        values.put("query_time", queryTime);
        if (!retrieval) {
            return NO_RETRIEVAL.fill(values);
        }
        values.put("documents", references(item.documents()));
        return RETRIEVAL.fill(values);
    }

    /**
     * {@code <DOC>\nDocument [i]: text\n</DOC>} blocks joined by newlines, numbered from 1, stopping before the block
     * that would take the total past {@link #REFERENCES_CAP} characters (the authors' {@code format_prompts}). A
     * title, when the dataset has one, opens the text.
     */
    static String references(List<Document> documents) {
        StringBuilder out = new StringBuilder();
        int total = 0;
        int i = 1;
        for (Document d : documents) {
            String block = "<DOC>\nDocument [" + i + "]: " + d.titled() + "\n</DOC>";
            if (total + block.length() > REFERENCES_CAP) {
                break;
            }
            if (i > 1) {
                out.append('\n');
            }
            out.append(block);
            total += block.length();
            i++;
        }
        return out.toString();
    }
}
