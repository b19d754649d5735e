package dev.veracity.qa;

import java.util.Map;
import java.util.Objects;

/**
 * A passage given to a method: with the question (RAMDocs, HotpotQA paragraphs) or retrieved.
 *
 * @param id     a stable id within its item or corpus
 * @param title  the title ("" when the source has none)
 * @param text   the passage text
 * @param labels what the dataset says about it, e.g. RAMDocs {@code type=correct|misinfo|noise},
 *               {@code answer=...}; HotpotQA {@code supporting=true}
 */
public record Document(String id, String title, String text, Map<String, String> labels) {

    public Document {
        id = Objects.requireNonNullElse(id, "");
        title = Objects.requireNonNullElse(title, "");
        text = Objects.requireNonNullElse(text, "");
        labels = labels == null ? Map.of() : Map.copyOf(labels);
    }

    public static Document of(String id, String title, String text) {
        return new Document(id, title, text, Map.of());
    }

    /** The passage as prompts show it: "Title. text", or the text alone when there is no title. */
    public String titled() {
        return title.isBlank() ? text : title + ". " + text;
    }

    public String label(String name) {
        return labels.get(name);
    }
}
