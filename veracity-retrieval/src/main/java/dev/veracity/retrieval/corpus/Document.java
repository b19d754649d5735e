package dev.veracity.retrieval.corpus;

import java.util.Objects;

/**
 * One passage to index: the unit of retrieval.
 *
 * @param id    unique within its corpus
 * @param title the page title ("" when none)
 * @param text  the passage text
 */
public record Document(String id, String title, String text) {

    public Document {
        Objects.requireNonNull(id, "id");
        title = Objects.requireNonNullElse(title, "");
        text = Objects.requireNonNullElse(text, "");
    }
}
