package dev.veracity.retrieval.react;

import dev.veracity.retrieval.Passage;
import dev.veracity.retrieval.corpus.Document;
import dev.veracity.retrieval.lucene.IndexFields;
import dev.veracity.retrieval.lucene.LuceneIndex;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Pages by title for the ReAct environment: title -> sentences ({@link SentenceSplitter}). Passages that share a
 * title are one page, in the order given. Titles match after {@link #normalise}; the nearest titles of a missing
 * one come from BM25 over the titles. Immutable and thread-safe once built; close it to free the title index.
 */
public final class PageStore implements AutoCloseable {

    /** One page: its title as given, its paragraphs (one per passage) and its sentences. */
    public record Page(String title, List<String> paragraphs, List<String> sentences) {
    }

    private final Map<String, Page> pages;
    private final LuceneIndex titles;

    private PageStore(Map<String, Page> pages) {
        this.pages = pages;
        List<Document> titleDocs = new ArrayList<>();
        for (Map.Entry<String, Page> e : pages.entrySet()) {
            titleDocs.add(new Document(e.getKey(), e.getValue().title(), ""));
        }
        this.titles = LuceneIndex.inMemory(titleDocs, null);
    }

    /** A store of the documents' pages (documents without a title are skipped: they cannot be searched for). */
    public static PageStore of(Iterable<Document> documents) {
        Map<String, String> titleOf = new LinkedHashMap<>();
        Map<String, List<String>> paragraphs = new LinkedHashMap<>();
        for (Document d : documents) {
            String key = normalise(d.title());
            if (key.isEmpty()) {
                continue;
            }
            titleOf.putIfAbsent(key, d.title().strip());
            paragraphs.computeIfAbsent(key, k -> new ArrayList<>()).add(d.text().strip());
        }
        Map<String, Page> pages = new LinkedHashMap<>();
        paragraphs.forEach((key, paras) -> {
            List<String> sentences = new ArrayList<>();
            paras.forEach(p -> sentences.addAll(SentenceSplitter.split(p)));
            pages.put(key, new Page(titleOf.get(key), List.copyOf(paras), List.copyOf(sentences)));
        });
        return new PageStore(pages);
    }

    /**
     * The key titles match on: Unicode NFKC, underscores as spaces (Wikipedia URLs), surrounding quotes removed,
     * whitespace collapsed, lower case. So {@code Search[ "barack_obama" ]} finds "Barack Obama"; punctuation and
     * accents still matter ("Beyonce" is not "Beyoncé").
     */
    public static String normalise(String title) {
        if (title == null) {
            return "";
        }
        String t = Normalizer.normalize(title, Normalizer.Form.NFKC).replace('_', ' ').strip();
        t = ReactActionParser.unquote(t);
        return t.replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
    }

    public Optional<Page> page(String title) {
        return Optional.ofNullable(pages.get(normalise(title)));
    }

    public int size() {
        return pages.size();
    }

    /** Up to {@code n} titles nearest to the query by BM25 over titles, best first. */
    public List<String> similarTitles(String query, int n) {
        List<Passage> hits = titles.bm25().searchField(IndexFields.TITLE, query, n);
        return hits.stream().map(Passage::title).toList();
    }

    @Override
    public void close() {
        try {
            titles.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
