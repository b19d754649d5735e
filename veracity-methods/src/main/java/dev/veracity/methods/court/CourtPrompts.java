package dev.veracity.methods.court;

import dev.veracity.method.PromptTemplate;

/**
 * Reasoning Court's prompts, verbatim resources each citing its appendix (B.2 few-shot agents, B.3 judges, B.4
 * debater, B.5 LLM-as-a-judge), and ours for the baselines the paper names without printing (self-refine, MAD),
 * marked so in their headers.
 */
final class CourtPrompts {

    static final PromptTemplate REACT_HOTPOTQA = load("react-hotpotqa.txt");
    static final PromptTemplate REACT_FEVER = load("react-fever.txt");
    static final PromptTemplate REACT_FEVER_ENHANCED = load("react-fever-enhanced.txt");
    static final PromptTemplate REACT_MUSIQUE = load("react-musique.txt");
    static final PromptTemplate JUDGE_HOTPOTQA = load("judge-hotpotqa.txt");
    static final PromptTemplate JUDGE_FEVER = load("judge-fever.txt");
    static final PromptTemplate JUDGE_MUSIQUE = load("judge-musique.txt");
    static final PromptTemplate DEBATER = load("debater.txt");
    static final PromptTemplate LLM_JUDGE = load("llm-judge.txt");
    static final PromptTemplate REFINE_FEEDBACK = load("refine-feedback.txt");
    static final PromptTemplate REFINE = load("refine.txt");
    static final PromptTemplate MAD_DEBATER = load("mad-debater.txt");
    static final PromptTemplate MAD_MODERATOR = load("mad-moderator.txt");
    static final PromptTemplate MAD_JUDGE = load("mad-judge.txt");

    private CourtPrompts() {
    }

    private static PromptTemplate load(String file) {
        return PromptTemplate.resource(CourtPrompts.class, file);
    }
}
