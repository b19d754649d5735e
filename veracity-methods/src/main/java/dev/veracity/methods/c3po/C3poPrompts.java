package dev.veracity.methods.c3po;

import dev.veracity.method.PromptTemplate;
import java.util.List;
import java.util.Map;

/**
 * C-3PO's prompts as the authors' released code sends them at test time (zero-shot), each diffed against the
 * paper's appendix by {@code PaperPromptsTest}: the router, filter and Decision Maker of Appendix B.1, the roadmap of
 * D.1, and the LLM's answer prompts, which the paper does not print. Every prompt is the user message after the
 * authors' system message {@link #SYSTEM}.
 *
 * <p>Some prompts carry a note per dataset ({@code {dataset_instructions}}), as the authors' tables give them: by the
 * dataset's name in the run, and nothing for datasets outside their six (their {@code dict.get(name, "")}).
 */
public final class C3poPrompts {

    /** The system message of every proxy and LLM call in the authors' code. */
    public static final String SYSTEM = "You are a helpful assistant.";

    static final PromptTemplate ROUTER = PromptTemplate.resource(C3poPrompts.class, "router.txt");
    static final PromptTemplate FILTER = PromptTemplate.resource(C3poPrompts.class, "filter.txt");
    static final PromptTemplate FILTER_RETRIEVAL = PromptTemplate.resource(C3poPrompts.class, "filter-retrieval.txt");
    static final PromptTemplate DECISION = PromptTemplate.resource(C3poPrompts.class, "decision.txt");
    static final PromptTemplate DECISION_FORCED = PromptTemplate.resource(C3poPrompts.class, "decision-forced.txt");
    static final PromptTemplate ROADMAP = PromptTemplate.resource(C3poPrompts.class, "roadmap.txt");
    static final PromptTemplate ANSWER = PromptTemplate.resource(C3poPrompts.class, "answer.txt");
    static final PromptTemplate ANSWER_NO_DOCUMENTS = PromptTemplate.resource(C3poPrompts.class, "answer-no-documents.txt");

    private static final String ROUTER_COMPOSITIONAL = "\n4. Keep in mind that the question may be compositional.";
    private static final String ROUTER_POPQA = "\n4. Keep in mind that the question mainly asks about the object entity"
            + " that holds a certain relationship with the given subject entity. There may be multiple correct answers.";
    private static final String ROADMAP_COMPOSITIONAL = "\n4. Keep in mind that the question may be compositional and"
            + " require intermediate analysis to deduce the final answer. Ensure that your planning outlines are clear.";
    private static final String ROADMAP_POPQA = "\n4. Keep in mind that the question mainly asks about the object entity"
            + " that holds a certain relationship with the given subject entity. There may be multiple correct answers."
            + " Ensure that your planning outlines are clear, especially for ambiguous questions.";
    private static final String ANSWER_COMPOSITIONAL = "Note that the question may be compositional and require"
            + " intermediate analysis to deduce the final answer. Make sure your response is grounded and provides clear"
            + " reasoning details followed by a concise conclusion.";
    private static final String ANSWER_POPQA = "Note that the question mainly asks about the object entity that holds a"
            + " certain relationship with the given subject entity. There may be multiple correct answers. Make sure your"
            + " response includes all correct answers and provides clear reasoning details followed by a concise"
            + " conclusion.";

    /** Our dataset names of the authors' six (their names: 2WikiMultiHopQA, hotpotqa, Musique, NQ, PopQA, TriviaQA). */
    private static final List<String> COMPOSITIONAL = List.of("hotpotqa", "2wikimultihopqa", "musique",
            "musique-answerable", "nq-open", "triviaqa");

    private final String dataset;

    /** The prompts for questions of this dataset ("" when unknown). */
    public C3poPrompts(String dataset) {
        this.dataset = dataset == null ? "" : dataset;
    }

    public String router(String question) {
        String note = dataset.equals("popqa") ? ROUTER_POPQA : COMPOSITIONAL.contains(dataset) ? ROUTER_COMPOSITIONAL : "";
        return ROUTER.fill(Map.of("question", question, "dataset_instructions", note));
    }

    /** The filter's state: the retrieved documents, and the current objective in [Planning] mode (null otherwise). */
    public String filter(String question, List<Doc> retrieved, String objective) {
        if (objective == null) {
            return FILTER_RETRIEVAL.fill(Map.of("question", question, "documents", render(retrieved)));
        }
        return FILTER.fill(Map.of("objective", objective, "question", question, "documents", render(retrieved)));
    }

    /** The Decision Maker's state; {@code forced}: the authors' prompt for a forced [LLM]. */
    public String decision(String question, List<Doc> accumulated, String roadmap, boolean forced) {
        return (forced ? DECISION_FORCED : DECISION).fill(Map.of("existing_documents", render(accumulated),
                "planning", roadmap, "question", question));
    }

    public String roadmap(String question) {
        // the authors' planning table lacks hotpotqa and Musique: no note for them
        String note = dataset.equals("popqa") ? ROADMAP_POPQA
                : List.of("2wikimultihopqa", "nq-open", "triviaqa").contains(dataset) ? ROADMAP_COMPOSITIONAL : "";
        return ROADMAP.fill(Map.of("question", question, "dataset_instructions", note));
    }

    /** The LLM's answer prompt: with the documents, or from its own knowledge when there are none. */
    public String answer(String question, List<Doc> documents) {
        String note = dataset.equals("popqa") ? ANSWER_POPQA : COMPOSITIONAL.contains(dataset) ? ANSWER_COMPOSITIONAL : "";
        if (documents.isEmpty()) {
            return ANSWER_NO_DOCUMENTS.fill(Map.of("question", question, "dataset_instructions", note));
        }
        return ANSWER.fill(Map.of("question", question, "documents", render(documents), "dataset_instructions", note));
    }

    /** {@code Document i (Title: t): text}, from 1, joined by blank lines. */
    public static String render(List<Doc> docs) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < docs.size(); i++) {
            if (i > 0) {
                out.append("\n\n");
            }
            out.append(docs.get(i).render(i + 1));
        }
        return out.toString();
    }
}
