package dev.veracity.methods.madam;

import dev.veracity.method.PromptTemplate;

/** Appendix E's MADAM-RAG prompts, verbatim resources. */
final class MadamPrompts {

    static final PromptTemplate AGENT = PromptTemplate.resource(MadamPrompts.class, "agent.txt");
    static final PromptTemplate AGENT_DEBATE = PromptTemplate.resource(MadamPrompts.class, "agent-debate.txt");
    static final PromptTemplate AGGREGATOR = PromptTemplate.resource(MadamPrompts.class, "aggregator.txt");

    private MadamPrompts() {
    }
}
