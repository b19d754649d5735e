package dev.veracity.methods.c3po;

import dev.veracity.qa.Document;
import dev.veracity.retrieval.Passage;
import dev.veracity.retrieval.Retriever;
import dev.veracity.retrieval.lucene.Bm25Retriever;
import dev.veracity.retrieval.lucene.LuceneIndex;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A retriever over one question's own passages (HotpotQA's ten paragraphs, RAMDocs' documents) for runs without an
 * index: C-3PO needs a retriever to send its queries to, and these passages are the corpus the dataset gives. They are
 * indexed in memory ({@link LuceneIndex#inMemory}) and searched by {@link Bm25Retriever}, as an index built with
 * {@code ./veracity index} would be: the same analyzer (Anserini's), title and text in one field, k1 0.9, b 0.4, the
 * query a bag of words. Every passage is ranked, as a large corpus would always fill the page: those the query does
 * not match follow the matches with score 0; equal scores keep the dataset's order.
 */
public final class QuestionCorpus implements Retriever {

    private final List<Document> documents;
    /** Built at the first search: a question the router answers without retrieval never needs it. */
    private LuceneIndex index;
    private Bm25Retriever bm25;
    private boolean closed;

    public QuestionCorpus(List<Document> documents) {
        this.documents = List.copyOf(documents);
    }

    /** The index, built once; its build runs on the first search's thread, after the router's call. */
    private synchronized Bm25Retriever bm25() {
        if (closed) {
            throw new IllegalStateException("this question's corpus is closed");
        }
        if (bm25 == null) {
            List<dev.veracity.retrieval.corpus.Document> indexed = new ArrayList<>(documents.size());
            for (int i = 0; i < documents.size(); i++) {
                Document d = documents.get(i);
                // indexed under its position: ids may be empty or repeated, and ties are broken by position
                indexed.add(new dev.veracity.retrieval.corpus.Document(Integer.toString(i), d.title(), d.text()));
            }
            index = LuceneIndex.inMemory(indexed, null);
            bm25 = index.bm25();
        }
        return bm25;
    }

    @Override
    public List<Passage> search(String query, int k) {
        int n = documents.size();
        if (k <= 0 || n == 0) {
            return List.of();
        }
        double[] score = new double[n]; // 0 for a passage the query does not match
        for (Passage hit : bm25().search(query, n)) {
            score[Integer.parseInt(hit.id())] = hit.score();
        }
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

    /** Releases the in-memory index (heap only: a corpus that is never closed is simply collected). */
    @Override
    public synchronized void close() {
        closed = true;
        if (index == null) {
            return;
        }
        try {
            index.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
