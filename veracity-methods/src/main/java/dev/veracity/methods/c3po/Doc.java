package dev.veracity.methods.c3po;

import java.util.Objects;

/**
 * A document as C-3PO passes it between agents: a retrieved passage, or the note the transition stores when the
 * filter keeps nothing. Equal title and text are the same document (the authors' {@code extend_documents} skips a
 * document already accumulated).
 *
 * @param id    the passage id ("" for a note); not part of equality
 * @param title the page title (the query, for a note)
 * @param text  the passage text
 */
public record Doc(String id, String title, String text) {

    /** The note's text before the query (the authors' "None relevant information about " + query). */
    public static final String NONE_RELEVANT = "None relevant information about ";

    public Doc {
        id = Objects.requireNonNullElse(id, "");
        title = Objects.requireNonNullElse(title, "");
        text = Objects.requireNonNullElse(text, "");
    }

    /** What is stored when the filter keeps none of a query's documents. */
    public static Doc noneRelevant(String query) {
        return new Doc("", query, NONE_RELEVANT + query);
    }

    /** Whether this is the note stored for {@code query}. */
    public boolean isNoneRelevantFor(String query) {
        return text.equals(NONE_RELEVANT + query);
    }

    /** The authors' rendering: {@code Document i (Title: t): text}. */
    public String render(int i) {
        return "Document " + i + " (Title: " + title + "): " + text;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Doc d && d.title.equals(title) && d.text.equals(text);
    }

    @Override
    public int hashCode() {
        return 31 * title.hashCode() + text.hashCode();
    }
}
