package dev.veracity.retrieval.react;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The Wikipedia page formats {@link PageReader} reads into a page store ({@code ./veracity index --pages}). */
public enum PageFormat {
    /**
     * HotpotQA's introductory-paragraph dump ({@code enwiki-20171001-pages-meta-current-withlinks-abstracts}): JSON
     * lines {@code {"title", "text": [sentences]}}, the sentences as HotpotQA split them; a folder of its
     * {@code wiki_NN.bz2} files is read file by file.
     */
    HOTPOTQA_ABSTRACTS("hotpotqa-abstracts"),
    /**
     * KILT's knowledge source ({@code kilt_knowledgesource.json}, JSON lines): {@code {"wikipedia_title",
     * "text": [paragraphs]}}; the first paragraph repeats the title and is dropped, {@code Section::::} headings are
     * dropped, {@code BULLET::::} markers removed.
     */
    KILT("kilt"),
    /**
     * FEVER's {@code wiki-pages/wiki-NNN.jsonl}: {@code {"id": "Title_-LRB-x-RRB-", "text", "lines":
     * "0\tsentence\t...\n1\t..."}}; titles and sentences un-escaped ({@code _} to space, {@code -LRB-} to
     * {@code (}, ...), sentences from {@code lines}.
     */
    FEVER("fever"),
    /** Generic JSON lines {@code {"title", "text": "..." | [paragraphs]}} (or {@code "sentences": [...]}). */
    JSONL("jsonl"),
    /**
     * A dataset's own paragraphs (HotpotQA distractor contexts, MuSiQue paragraphs) read by its loader: paragraphs
     * sharing a title become one page.
     */
    DATASET("dataset");

    private final String cliName;

    PageFormat(String cliName) {
        this.cliName = cliName;
    }

    public String cliName() {
        return cliName;
    }

    /** The format named as on the command line. */
    public static PageFormat parse(String name) {
        String n = name == null ? "" : name.trim().toLowerCase(Locale.ROOT).replace('_', '-');
        for (PageFormat f : values()) {
            if (f.cliName.equals(n)) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown page format '" + name + "': use one of "
                + Arrays.stream(values()).map(PageFormat::cliName).collect(Collectors.joining(", ")));
    }

    @Override
    public String toString() {
        return cliName;
    }
}
