package dev.veracity.retrieval.react;

import dev.veracity.retrieval.PageSource;
import dev.veracity.retrieval.corpus.Document;
import dev.veracity.retrieval.lucene.PassagesBm25;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * A question's own pages (its paragraphs grouped by title), held in memory without an index: what
 * {@link PageStore#of} answers, page for page and title for title, for a handful of pages. Building a Lucene index per
 * question (writer, flush, codecs, reader) was a fifth of Reasoning Court's CPU in {@code bench run}; these pages need
 * only a map by normalised title and the two fields' term counts. The "Similar:" search scores as the store's query
 * does once Lucene has rewritten it: the bag of words over the title, boosted by {@link PageStore#TITLE_BOOST}, stays
 * one clause whose score is its terms' sum as a float; the lead's bag is inlined into the outer disjunction, its terms
 * beside that clause; all summed as a double, then a float. Best first, ties in the pages' order. A test holds it to
 * {@link PageStore#of} over every RAMDocs question, float for float (summing the lead's bag to a float first is one
 * ulp off on some).
 */
public final class QuestionPageSource implements PageSource {

    private final List<Page> pages;
    private final Map<String, Page> byKey;
    private final PassagesBm25 titles;
    private final PassagesBm25 leads;

    private QuestionPageSource(List<Page> pages, Map<String, Page> byKey) {
        this.pages = pages;
        this.byKey = byKey;
        this.titles = new PassagesBm25(PageFields.TITLE, pages.stream().map(Page::title).toList());
        this.leads = new PassagesBm25(PageFields.LEAD, pages.stream().map(PageFields::lead).toList());
    }

    /** The documents' pages, as {@link PageStore#of} groups them ({@link PageStore#pages}). */
    public static QuestionPageSource of(Iterable<Document> documents) {
        List<Page> pages = new ArrayList<>();
        Map<String, Page> byKey = new LinkedHashMap<>();
        for (Page page : PageStore.pages(documents)) {
            if (!page.sentences().isEmpty()) { // as PageStoreBuilder skips a page with no sentence
                pages.add(page);
                byKey.put(PageStore.normalise(page.title()), page);
            }
        }
        return new QuestionPageSource(List.copyOf(pages), byKey);
    }

    @Override
    public Optional<Page> page(String title) {
        String key = PageStore.normalise(title);
        return key.isEmpty() ? Optional.empty() : Optional.ofNullable(byKey.get(key));
    }

    @Override
    public List<String> similarTitles(String query, int n) {
        if (n <= 0) {
            return List.of();
        }
        float[] score = scores(query);
        return IntStream.range(0, score.length).filter(d -> score[d] > 0).boxed()
                .sorted(Comparator.<Integer>comparingDouble(d -> -score[d]).thenComparingInt(d -> d))
                .limit(n).map(d -> pages.get(d).title()).toList();
    }

    @Override
    public long size() {
        return pages.size();
    }

    /**
     * Each page's score for {@code query}, in the pages' order, 0 for a page no word of it matches (and for every page
     * when no word survives analysis: empty, only stop words).
     */
    float[] scores(String query) {
        Map<String, Integer> terms = PassagesBm25.terms(PageFields.TITLE, query);
        double[] title = titles.sums(terms, PageStore.TITLE_BOOST);
        double[] lead = leads.sums(terms, 1f);
        float[] score = new float[pages.size()];
        for (int d = 0; d < score.length; d++) {
            // the boosted title bag is one clause (its float), the lead's terms are clauses of the outer disjunction
            score[d] = (float) ((double) (float) title[d] + lead[d]);
        }
        return score;
    }
}
