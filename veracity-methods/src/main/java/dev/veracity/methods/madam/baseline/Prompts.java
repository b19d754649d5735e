package dev.veracity.methods.madam.baseline;

import dev.veracity.method.PromptTemplate;
import dev.veracity.qa.Document;
import java.util.List;

/** Appendix E's baseline prompts (verbatim resources, each citing its source) and the document layout. */
final class Prompts {

    static final PromptTemplate SELF_INITIAL = PromptTemplate.resource(Prompts.class, "self-reflection-initial.txt");
    static final PromptTemplate SELF_REVIEW = PromptTemplate.resource(Prompts.class, "self-reflection-review.txt");
    static final PromptTemplate SELF_REFINE = PromptTemplate.resource(Prompts.class, "self-reflection-refine.txt");
    static final PromptTemplate DRAFTER = PromptTemplate.resource(Prompts.class, "speculative-drafter.txt");
    static final PromptTemplate SPEC_AGGREGATOR = PromptTemplate.resource(Prompts.class, "speculative-aggregator.txt");
    static final PromptTemplate ASTUTE_GENERATION = PromptTemplate.resource(Prompts.class, "astute-generation.txt");
    static final PromptTemplate ASTUTE_CONSOLIDATION = PromptTemplate.resource(Prompts.class, "astute-consolidation.txt");
    static final PromptTemplate ASTUTE_FINAL = PromptTemplate.resource(Prompts.class, "astute-finalization.txt");

    private Prompts() {
    }

    /** "Document i: text" separated by blank lines, as MADAM-RAG's concatenated prompt lays them out. */
    static String documents(List<Document> docs, String label) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < docs.size(); i++) {
            if (i > 0) {
                sb.append("\n\n");
            }
            Document d = docs.get(i);
            sb.append(label).append(' ').append(i + 1).append(": ");
            if (!d.title().isBlank()) {
                sb.append(d.title()).append(". ");
            }
            sb.append(d.text());
        }
        return sb.toString();
    }
}
