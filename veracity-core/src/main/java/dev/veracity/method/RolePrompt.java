package dev.veracity.method;

import dev.veracity.qa.QaItem;
import java.util.List;
import java.util.Objects;
import java.util.function.BiFunction;

/**
 * The prompt one role of a method sends for a question, built by the same code as the method's own calls, without
 * calling a model: the prompt of a training row ({@code veracity rl export}). A method lists its roles in
 * {@link QaMethod#rolePrompts()}; only roles whose prompt follows from the question and its documents can be listed
 * (MARCH's Proposer reads a response and its Checker the Proposer's questions, so they are not).
 */
public interface RolePrompt {

    /** The role's name, e.g. {@code solver}; {@code METHOD:ROLE} on the command line. */
    String role();

    /** One line: what the prompt is and where it comes from. */
    String description();

    /**
     * The prompts of the role for one question, one per agent: one for most roles, one per document for MADAM-RAG's
     * agents. The item's documents are those the method would get (the dataset's or retrieved ones).
     */
    List<AgentPrompt> build(QaItem item, PromptContext context);

    /** A role whose prompts {@code builder} makes. */
    static RolePrompt of(String role, String description, BiFunction<QaItem, PromptContext, List<AgentPrompt>> builder) {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(builder, "builder");
        String d = Objects.requireNonNullElse(description, "");
        return new RolePrompt() {
            @Override
            public String role() {
                return role;
            }

            @Override
            public String description() {
                return d;
            }

            @Override
            public List<AgentPrompt> build(QaItem item, PromptContext context) {
                return builder.apply(item, context);
            }
        };
    }
}
