package dev.veracity.retrieval.http;

import dev.veracity.retrieval.Passage;

/**
 * Search-R1's document text: {@code contents = '"' + title + '"\n' + text} (their wiki-18 corpus and retrieval
 * server), which VeRL's search tool splits back at the first newline into title and text.
 */
final class SearchR1Contents {

    private SearchR1Contents() {
    }

    static String of(Passage p) {
        return "\"" + p.title() + "\"\n" + p.text();
    }

    /** Title and text back from contents; a contents without a newline is all text. */
    static Passage parse(String id, String contents, double score) {
        String c = contents == null ? "" : contents;
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
}
