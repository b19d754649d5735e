package dev.veracity.method;

import java.util.Map;
import java.util.Objects;

/**
 * What a prompt depends on besides the question: the same task shape a {@link MethodContext} carries, without a
 * model client (building a prompt calls no model).
 *
 * @param dataset     the dataset's canonical name, for prompts that differ by dataset (CoT's few-shot examples)
 * @param multiAnswer the dataset expects every valid answer (MADAM-RAG's "All Correct Answers" prompts)
 * @param options     the method's options ({@code --option}), already checked against its {@link MethodSpec}
 */
public record PromptContext(String dataset, boolean multiAnswer, Map<String, String> options) {

    public PromptContext {
        dataset = Objects.requireNonNullElse(dataset, "");
        options = options == null ? Map.of() : Map.copyOf(options);
    }
}
