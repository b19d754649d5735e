package dev.veracity.method;

import dev.veracity.qa.QaItem;
import java.util.List;

/**
 * A way of answering a question with a model: a baseline or one of the papers' systems. Implementations are
 * stateless and thread-safe (the runner answers many questions at once); everything a question needs comes in
 * through the item and the context, and every model call goes through {@link MethodContext#llm()} so that it is
 * limited, cached and traced.
 */
public interface QaMethod {

    /** The name used on the command line, e.g. {@code standard-rag}. */
    String name();

    /**
     * The method's declaration: description, paper section, typed options and needs. Front ends validate
     * {@code --option}s against it before the first model call; the default declares no options and needs the
     * question's documents.
     */
    default MethodSpec spec() {
        return MethodSpec.named(name());
    }

    /**
     * Answers one question. Model output is untrusted: a reply the method cannot parse becomes a recorded parse
     * failure in the answer, not an exception. Exceptions are for calls that failed for good
     * ({@link dev.veracity.llm.LlmException}).
     */
    MethodAnswer answer(QaItem item, MethodContext context);

    /**
     * Whether the method declares the need ({@link MethodSpec#needs()}): the runner gives it what it needs, or refuses
     * to start it, before any model call.
     */
    default boolean needs(Capability need) {
        return spec().needs(need);
    }

    /**
     * The roles whose prompts a trainer can be given ({@code veracity rl export}), the default role first; empty
     * when none can be built from a question alone. Each builds its messages with the code {@link #answer} sends.
     */
    default List<RolePrompt> rolePrompts() {
        return List.of();
    }
}
