package dev.veracity.methods.c3po;

import dev.veracity.qa.Document;
import dev.veracity.retrieval.Passage;
import dev.veracity.retrieval.Retriever;
import dev.veracity.retrieval.lucene.PassagesBm25;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A retriever over one question's own passages (HotpotQA's ten paragraphs, RAMDocs' documents) for runs without an
 * index: C-3PO needs a retriever to send its queries to, and these passages are the corpus the dataset gives. They are
 * ranked by BM25 as {@code ./veracity index} and {@link dev.veracity.retrieval.lucene.Bm25Retriever} would rank them
 * ({@link PassagesBm25}: the same analyzer (Anserini's), title and text in one field, k1 0.9, b 0.4, the query a bag of
 * words, the same scores float for float) without building an index per question. Every passage is ranked, as a large
 * corpus would always fill the page: those the query does not match follow the matches with score 0; equal scores keep
 * the dataset's order.
 */
public final class QuestionCorpus implements Retriever {

    private final List<Document> documents;
    /** Made at the first search: a question the router answers without retrieval never needs it. */
    private PassagesBm25 bm25;

    public QuestionCorpus(List<Document> documents) {
        this.documents = List.copyOf(documents);
    }

    private synchronized PassagesBm25 bm25() {
        if (bm25 == null) {
            List<dev.veracity.retrieval.corpus.Document> passages = new ArrayList<>(documents.size());
            for (Document d : documents) {
                passages.add(new dev.veracity.retrieval.corpus.Document(d.id(), d.title(), d.text()));
            }
            bm25 = new PassagesBm25(passages);
        }
        return bm25;
    }

    @Override
    public List<Passage> search(String query, int k) {
        int n = documents.size();
        if (k <= 0 || n == 0) {
            return List.of();
        }
        float[] score = bm25().scores(query); // 0 for a passage the query does not match
        List<Integer> order = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            order.add(i);
        }
        order.sort(Comparator.comparingDouble((Integer i) -> score[i]).reversed()); // stable: position breaks ties
        List<Passage> out = new ArrayList<>(Math.min(k, n));
        for (int i : order.subList(0, Math.min(k, n))) {
            Document d = documents.get(i);
            out.add(new Passage(d.id().isEmpty() ? Integer.toString(i) : d.id(), d.title(), d.text(), score[i]));
        }
        return List.copyOf(out);
    }
}
