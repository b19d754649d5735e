package dev.veracity.retrieval;

import java.util.Objects;

/**
 * One retrieved passage.
 *
 * @param id    the passage id in its corpus
 * @param title the title of its page ("" when none)
 * @param text  the passage text
 * @param score the retriever's score (higher is better; comparable only within one result list)
 */
public record Passage(String id, String title, String text, double score) {

    public Passage {
        id = Objects.requireNonNullElse(id, "");
        title = Objects.requireNonNullElse(title, "");
        text = Objects.requireNonNullElse(text, "");
    }
}
