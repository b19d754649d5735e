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
     * The method's declaration: description, paper section and typed options. Front ends validate
     * {@code --option}s against it before the first model call; the default declares no options.
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
     * Whether the method reads {@link QaItem#documents()}. The runner gives a method that does the dataset's own
     * passages or passages retrieved from an index, and refuses to start it on a dataset without passages when no
     * index is given; a closed-book method (false) never receives documents, not even the dataset's.
     */
    default boolean needsDocuments() {
        return true;
    }

    /** Whether the method needs {@link MethodContext#embedder()} (the runner then loads one). */
    default boolean usesEmbedder() {
        return false;
    }

    /**
     * Whether the method's agents act in a Wikipedia of pages ({@link MethodContext#pages()}, {@code --pages DIR}).
     * Given a page store, such a method needs no documents from the dataset; without one it reads the question's
     * own paragraphs.
     */
    default boolean readsPages() {
        return false;
    }

    /** Whether the method searches with {@link MethodContext#retriever()} (the runner then needs an index). */
    default boolean usesRetriever() {
        return false;
    }

    /**
     * The roles whose prompts a trainer can be given ({@code veracity rl export}), the default role first; empty
     * when none can be built from a question alone. Each builds its messages with the code {@link #answer} sends.
     */
    default List<RolePrompt> rolePrompts() {
        return List.of();
    }
}
