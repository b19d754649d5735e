package dev.veracity.methods.baseline;

import dev.veracity.method.PromptTemplate;
import dev.veracity.qa.Document;
import java.util.List;
import java.util.Locale;

/** The baselines' prompts (verbatim resources, each citing its paper section) and how documents are laid out. */
final class BaselinePrompts {

    static final PromptTemplate NO_RAG_MULTI = PromptTemplate.resource(BaselinePrompts.class, "no-rag-multi.txt");
    static final PromptTemplate STANDARD_SINGLE = PromptTemplate.resource(BaselinePrompts.class, "standard-single.txt");
    static final PromptTemplate STANDARD_SINGLE_PLAIN = PromptTemplate.resource(BaselinePrompts.class, "standard-single-plain.txt");
    static final PromptTemplate STANDARD_RAG_SINGLE = PromptTemplate.resource(BaselinePrompts.class, "standard-rag-single.txt");
    static final PromptTemplate STANDARD_FEVER = PromptTemplate.resource(BaselinePrompts.class, "standard-fever.txt");
    static final PromptTemplate STANDARD_FEVER_PLAIN = PromptTemplate.resource(BaselinePrompts.class, "standard-fever-plain.txt");
    static final PromptTemplate STANDARD_RAG_FEVER = PromptTemplate.resource(BaselinePrompts.class, "standard-rag-fever.txt");
    static final PromptTemplate CONCATENATED = PromptTemplate.resource(BaselinePrompts.class, "concatenated.txt");
    static final PromptTemplate COT_HOTPOTQA = PromptTemplate.resource(BaselinePrompts.class, "cot-hotpotqa.txt");
    static final PromptTemplate COT_FEVER = PromptTemplate.resource(BaselinePrompts.class, "cot-fever.txt");
    static final PromptTemplate COT_MUSIQUE = PromptTemplate.resource(BaselinePrompts.class, "cot-musique.txt");

    /** Where a few-shot continuation must stop: the next example the model would invent. */
    static final List<String> COT_STOPS = List.of("\nQuestion:", "\nClaim:");

    private BaselinePrompts() {
    }

    /**
     * Documents as MADAM-RAG's concatenated prompt shows them: "Document i: text", separated by blank lines. A
     * title, when the dataset has one (HotpotQA paragraphs, CRAG pages), opens the text.
     */
    static String documents(List<Document> docs) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < docs.size(); i++) {
            Document d = docs.get(i);
            if (i > 0) {
                sb.append("\n\n");
            }
            sb.append("Document ").append(i + 1).append(": ");
            if (!d.title().isBlank()) {
                sb.append(d.title()).append(". ");
            }
            sb.append(d.text());
        }
        return sb.toString();
    }

    /**
     * Reasoning Court's standard prompting (B.1) for a single-answer dataset: on FEVER the variant that names the
     * three labels and gives the claim (the answer is a label, not a short answer; without the labels every answer
     * scores 0 under {@code fever-acc}), else the question's. {@code concise} false: the A.1 ablation's prompt.
     */
    static PromptTemplate standardFor(String dataset, boolean concise) {
        if (fever(dataset)) {
            return concise ? STANDARD_FEVER : STANDARD_FEVER_PLAIN;
        }
        return concise ? STANDARD_SINGLE : STANDARD_SINGLE_PLAIN;
    }

    /** Standard prompting with documents for a single-answer dataset: FEVER's names its labels, as above. */
    static PromptTemplate standardRagFor(String dataset) {
        return fever(dataset) ? STANDARD_RAG_FEVER : STANDARD_RAG_SINGLE;
    }

    private static boolean fever(String dataset) {
        return dataset != null && dataset.toLowerCase(Locale.ROOT).equals("fever");
    }

    /** The CoT few-shot prompt of the paper for this dataset; HotpotQA's for datasets the paper did not use. */
    static PromptTemplate cotFor(String dataset) {
        return switch (dataset.toLowerCase(Locale.ROOT)) {
            case "fever" -> COT_FEVER;
            case "musique" -> COT_MUSIQUE;
            default -> COT_HOTPOTQA;
        };
    }
}
