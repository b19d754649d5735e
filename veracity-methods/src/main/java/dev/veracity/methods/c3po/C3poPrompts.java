package dev.veracity.methods.c3po;

import dev.veracity.method.PromptTemplate;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * C-3PO's prompts as the authors' released code sends them, each diffed against the paper's appendix by
 * {@code PaperPromptsTest}: the router, filter and Decision Maker of Appendix B.1, the roadmap of D.1, and the LLM's
 * answer prompts, which the paper does not print. Every prompt is the user message after the authors' system message
 * {@link #SYSTEM}.
 *
 * <p>Some prompts carry a note per dataset ({@code {dataset_instructions}}), as the authors' tables give them: by the
 * dataset's name in the run, and nothing for datasets outside their six (their {@code dict.get(name, "")}).
 *
 * <p>Few-shot: an agent that {@link FewShot} names gets the authors' prompt with examples, their
 * {@code prefix + "\n\n" + "Here are some examples:\n{examples}" + "\n\n" + suffix}: the examples
 * ({@link FewShotExamples}) go between the instructions and {@code Now, process the following question:}. The draw
 * for each agent (which lists, how many) is theirs. Each prompt also comes zero-shot ({@link Prompt#zeroShot()}):
 * what a trained proxy is asked, so what its warm-up data holds.
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

    /** Where the authors' few-shot prompts put the examples: before this line, after the instructions. */
    static final String SUFFIX_START = "Now, process the following question:";
    static final String EXAMPLES_BLOCK = "Here are some examples:\n{examples}\n\n";

    /** The authors' few-shot draw: two of a list ({@code few_num}), one of each list of a group ({@code dict_few_num}). */
    static final int FEW_NUM = 2;
    static final int DICT_FEW_NUM = 1;

    private static final Map<PromptTemplate, PromptTemplate> WITH_EXAMPLES = new IdentityHashMap<>();

    static {
        for (PromptTemplate t : List.of(ROUTER, FILTER, FILTER_RETRIEVAL, DECISION, DECISION_FORCED, ROADMAP, ANSWER)) {
            int at = t.text().indexOf(SUFFIX_START);
            if (at < 0) {
                throw new IllegalStateException(t.name() + " has no '" + SUFFIX_START + "' to put examples before");
            }
            WITH_EXAMPLES.put(t, PromptTemplate.of(t.name() + " (few-shot)",
                    t.text().substring(0, at) + EXAMPLES_BLOCK + t.text().substring(at)));
        }
    }

    /**
     * One prompt.
     *
     * @param text     the user message sent (with examples when its agent is few-shot)
     * @param zeroShot the same prompt without examples (equal to {@code text} for a zero-shot agent)
     */
    public record Prompt(String text, String zeroShot) {

        /** A zero-shot prompt. */
        public static Prompt of(String text) {
            return new Prompt(text, text);
        }
    }

    private final String dataset;
    private final FewShot fewShot;

    /** The zero-shot prompts for questions of this dataset ("" when unknown). */
    public C3poPrompts(String dataset) {
        this(dataset, FewShot.NONE);
    }

    /**
     * The prompts for questions of this dataset ("" when unknown), with few-shot examples for the agents
     * {@code fewShot} names ({@link FewShot#resolve resolved}).
     */
    public C3poPrompts(String dataset, FewShot fewShot) {
        this.dataset = dataset == null ? "" : dataset;
        this.fewShot = fewShot;
        fewShot.agents(); // an unresolved mode fails here, not at the first prompt
    }

    public Prompt router(String question) {
        String note = dataset.equals("popqa") ? ROUTER_POPQA : COMPOSITIONAL.contains(dataset) ? ROUTER_COMPOSITIONAL : "";
        // their make_decision_role: one example of each of no_retrieve, retrieve and planning
        return fill(Agent.ROUTER, ROUTER, Map.of("question", question, "dataset_instructions", note),
                FewShotExamples.Pool.ROUTER, List.of("no_retrieve", "retrieve", "planning"), DICT_FEW_NUM);
    }

    /** The filter's state: the retrieved documents, and the current objective in [Planning] mode (null otherwise). */
    public Prompt filter(String question, List<Doc> retrieved, String objective) {
        // their retrieve_filter_role: two examples of retrieve (single pass) or of planning
        if (objective == null) {
            return fill(Agent.FILTER, FILTER_RETRIEVAL, Map.of("question", question, "documents", render(retrieved)),
                    FewShotExamples.Pool.FILTER, List.of("retrieve"), FEW_NUM);
        }
        return fill(Agent.FILTER, FILTER, Map.of("objective", objective, "question", question, "documents",
                render(retrieved)), FewShotExamples.Pool.FILTER, List.of("planning"), FEW_NUM);
    }

    /** The Decision Maker's state; {@code forced}: the authors' prompt for a forced [LLM]. */
    public Prompt decision(String question, List<Doc> accumulated, String roadmap, boolean forced) {
        // their decide_next_step_role: two examples of LLM when forced, two of no_existing_documents before any
        // document, else one of each list of has_existing_documents
        List<String> keys = forced ? List.of("LLM") : accumulated.isEmpty() ? List.of("no_existing_documents")
                : List.of("has_existing_documents/has_existing_documents", "has_existing_documents/LLM");
        return fill(Agent.DECISION, forced ? DECISION_FORCED : DECISION, Map.of("existing_documents", render(accumulated),
                "planning", roadmap, "question", question), FewShotExamples.Pool.DECISION, keys,
                forced || accumulated.isEmpty() ? FEW_NUM : DICT_FEW_NUM);
    }

    public Prompt roadmap(String question) {
        // the authors' planning table lacks hotpotqa and Musique: no note for them
        String note = dataset.equals("popqa") ? ROADMAP_POPQA
                : List.of("2wikimultihopqa", "nq-open", "triviaqa").contains(dataset) ? ROADMAP_COMPOSITIONAL : "";
        // their LLM_planning_role: two examples of the dataset's list
        return fill(Agent.ROADMAP, ROADMAP, Map.of("question", question, "dataset_instructions", note),
                FewShotExamples.Pool.ROADMAP, List.of(FewShotExamples.LIST), FEW_NUM);
    }

    /** The LLM's answer prompt: with the documents, or from its own knowledge when there are none. */
    public Prompt answer(String question, List<Doc> documents) {
        String note = dataset.equals("popqa") ? ANSWER_POPQA : COMPOSITIONAL.contains(dataset) ? ANSWER_COMPOSITIONAL : "";
        if (documents.isEmpty()) {
            // their NO_DOCUMENT_PROMPT has no few-shot form
            return Prompt.of(ANSWER_NO_DOCUMENTS.fill(Map.of("question", question, "dataset_instructions", note)));
        }
        // their decide_prompt_role: one example of each of correct, noisy and partial information
        return fill(Agent.ANSWER, ANSWER, Map.of("question", question, "documents", render(documents),
                "dataset_instructions", note), FewShotExamples.Pool.ANSWER,
                List.of("correct_information", "noisy_information", "partial_information"), DICT_FEW_NUM);
    }

    /** The template filled, and with examples drawn for this very prompt when the agent is few-shot. */
    private Prompt fill(Agent agent, PromptTemplate template, Map<String, String> values, FewShotExamples.Pool pool,
                        List<String> keys, int perKey) {
        String zeroShot = template.fill(values);
        if (!fewShot.agents().contains(agent)) {
            return Prompt.of(zeroShot);
        }
        String examples = FewShotExamples.draw(pool, dataset, keys, perKey, drawSeed(agent, zeroShot));
        if (examples.isEmpty()) {
            return Prompt.of(zeroShot);
        }
        Map<String, String> withExamples = new HashMap<>(values);
        withExamples.put("examples", examples);
        return new Prompt(WITH_EXAMPLES.get(template).fill(withExamples), zeroShot);
    }

    /** The draw's seed for one prompt: the run's seed, the agent and the prompt (FNV-1a, 64 bits). */
    long drawSeed(Agent agent, String zeroShot) {
        long h = 0xcbf29ce484222325L;
        String key = agent.role() + "\n" + zeroShot;
        for (int i = 0; i < key.length(); i++) {
            h = (h ^ key.charAt(i)) * 0x100000001b3L;
        }
        return fewShot.seed() ^ h;
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
