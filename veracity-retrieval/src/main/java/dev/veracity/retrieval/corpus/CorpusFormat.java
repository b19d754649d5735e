package dev.veracity.retrieval.corpus;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The corpus file formats {@link CorpusReader} understands. */
public enum CorpusFormat {
    /**
     * BEIR {@code corpus.jsonl}: one {@code {"_id"|"id", "title", "text"}} object per line. A record with neither title
     * nor text but a {@code contents} whose first line is a title in quotes (FlashRAG's and Search-R1's corpora) is read
     * as {@link #FLASHRAG} reads it; any other {@code contents} (Pyserini's plain text) is all text.
     */
    JSONL("jsonl"),
    /**
     * FlashRAG's corpus jsonl: {@code {"id", "contents"}} with {@code contents = title + "\n" + text} (FlashRAG's
     * wiki dumps quote the title: {@code "\"Aaron\"\nAaron is ..."}; the quotes are dropped), split at the first
     * newline whether the title is quoted or not, as FlashRAG does.
     */
    FLASHRAG("flashrag"),
    /** DPR's Wikipedia TSV ({@code psgs_w100.tsv}): {@code id \t text \t title} with a header line. */
    DPR_TSV("dpr-tsv"),
    /** CRAG's {@code .jsonl(.bz2)}: every search result's HTML page, as text, cut into 100-word passages. */
    CRAG("crag"),
    /** A dataset file's own documents: RAMDocs-style {@code documents} or HotpotQA-style {@code context}. */
    DATASET("dataset");

    private final String cliName;

    CorpusFormat(String cliName) {
        this.cliName = cliName;
    }

    public String cliName() {
        return cliName;
    }

    /** The format named as on the command line ({@code jsonl}, {@code flashrag}, {@code dpr-tsv}, {@code crag}, {@code dataset}). */
    public static CorpusFormat parse(String name) {
        String n = name == null ? "" : name.trim().toLowerCase(Locale.ROOT).replace('_', '-');
        for (CorpusFormat f : values()) {
            if (f.cliName.equals(n)) {
                return f;
            }
        }
        throw new IllegalArgumentException("Unknown corpus format '" + name + "': use one of "
                + Arrays.stream(values()).map(CorpusFormat::cliName).collect(Collectors.joining(", ")));
    }

    @Override
    public String toString() {
        return cliName;
    }
}
