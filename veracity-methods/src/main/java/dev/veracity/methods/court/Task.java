package dev.veracity.methods.court;

import dev.veracity.method.PromptTemplate;
import dev.veracity.retrieval.react.WikiEnvironment.LookupMode;
import java.util.Locale;

/**
 * The paper's three tasks and what differs between them: the few-shot prompt (Appendix B.2), the judge prompt
 * (B.3), the step limit (Section 3.1: 7 for HotpotQA and MuSiQue, 5 for FEVER, ReAct's limits), the label of the
 * question line and what {@code Lookup} reads. Datasets the paper did not use are run as HotpotQA, as the CoT
 * baseline does.
 */
enum Task {
    HOTPOTQA("Question", 7, LookupMode.KEYWORD, CourtPrompts.REACT_HOTPOTQA, CourtPrompts.JUDGE_HOTPOTQA,
            "The answer should be in its most concise form."),
    FEVER("Claim", 5, LookupMode.KEYWORD, CourtPrompts.REACT_FEVER_ENHANCED, CourtPrompts.JUDGE_FEVER,
            "The answer must be SUPPORTS, REFUTES, or NOT ENOUGH INFO."),
    MUSIQUE("Question", 7, LookupMode.PARAGRAPH_TITLE, CourtPrompts.REACT_MUSIQUE, CourtPrompts.JUDGE_MUSIQUE,
            "The answer should be in its most concise form.");

    /** "Question" or "Claim": how the few-shot examples label the input line. */
    final String label;
    /** The step limit after which the agent is made to finish. */
    final int maxSteps;
    final LookupMode lookup;
    final PromptTemplate agentPrompt;
    final PromptTemplate judgePrompt;
    /** One sentence on the answer's form, for our prompts (self-refine, MAD) that the paper does not print. */
    final String answerRule;

    Task(String label, int maxSteps, LookupMode lookup, PromptTemplate agentPrompt, PromptTemplate judgePrompt,
         String answerRule) {
        this.label = label;
        this.maxSteps = maxSteps;
        this.lookup = lookup;
        this.agentPrompt = agentPrompt;
        this.judgePrompt = judgePrompt;
        this.answerRule = answerRule;
    }

    static Task of(String dataset) {
        String d = dataset == null ? "" : dataset.toLowerCase(Locale.ROOT);
        if (d.equals("fever")) {
            return FEVER;
        }
        if (d.startsWith("musique")) {
            return MUSIQUE;
        }
        return HOTPOTQA;
    }

    /** The agents' few-shot prompt: FEVER has two (Table 7), the others one. */
    PromptTemplate agentPrompt(String feverPrompt) {
        return this == FEVER && feverPrompt.equals("react") ? CourtPrompts.REACT_FEVER : agentPrompt;
    }
}
