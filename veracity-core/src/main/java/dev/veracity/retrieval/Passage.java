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

    /**
     * A passage from the one-field form of FlashRAG's corpora and Search-R1's retrieval server,
     * {@code contents = "\"" + title + "\"\n" + text}: the title is the first line, without the quotes around it
     * when it has them; a contents without a newline is all text.
     */
    public static Passage fromContents(String id, String contents, double score) {
        String c = Objects.requireNonNullElse(contents, "");
        int nl = c.indexOf('\n');
        if (nl < 0) {
            return new Passage(id, "", c, score);
        }
        String title = c.substring(0, nl).strip();
        if (title.length() >= 2 && title.startsWith("\"") && title.endsWith("\"")) {
            title = title.substring(1, title.length() - 1);
        }
        return new Passage(id, title, c.substring(nl + 1), score);
    }

    /**
     * Whether a one-field contents opens with a title in quotes on a line of its own, as FlashRAG's and Search-R1's
     * corpora (DPR's Wikipedia) write it, {@code "\"Aaron\"\nAaron is ..."}: where a contents may also be plain text
     * (Pyserini's {@code contents}, whose first line is a paragraph), only such a contents is split by
     * {@link #fromContents}.
     */
    public static boolean hasQuotedTitle(String contents) {
        int nl = contents == null ? -1 : contents.indexOf('\n');
        if (nl < 0) {
            return false;
        }
        String first = contents.substring(0, nl).strip();
        return first.length() >= 2 && first.startsWith("\"") && first.endsWith("\"");
    }

    /** The one-field form ({@link #fromContents}): the title in quotes on the first line, then the text. */
    public String contents() {
        return "\"" + title + "\"\n" + text;
    }
}
