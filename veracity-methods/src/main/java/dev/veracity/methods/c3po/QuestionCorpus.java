package dev.veracity.methods.c3po;

import dev.veracity.qa.Document;
import dev.veracity.retrieval.Passage;
import dev.veracity.retrieval.Retriever;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A retriever over one question's own passages (HotpotQA's ten paragraphs, RAMDocs' documents) for runs without an
 * index: C-3PO needs a retriever to send its queries to, and these passages are the corpus the dataset gives.
 * Okapi BM25 with Anserini's defaults (k1 0.9, b 0.4) over lower-cased letter/digit words; every passage is ranked
 * (a zero score last, in dataset order), as a large corpus would always fill the page.
 */
public final class QuestionCorpus implements Retriever {

    private static final double K1 = 0.9;
    private static final double B = 0.4;

    private final List<Document> documents;
    private final List<Map<String, Integer>> termCounts = new ArrayList<>();
    private final int[] lengths;
    private final Map<String, Integer> documentFrequency = new HashMap<>();
    private final double averageLength;

    public QuestionCorpus(List<Document> documents) {
        this.documents = List.copyOf(documents);
        this.lengths = new int[this.documents.size()];
        long total = 0;
        for (int i = 0; i < this.documents.size(); i++) {
            Document d = this.documents.get(i);
            List<String> words = words(d.title() + " " + d.text());
            Map<String, Integer> tf = new HashMap<>();
            words.forEach(w -> tf.merge(w, 1, Integer::sum));
            tf.keySet().forEach(w -> documentFrequency.merge(w, 1, Integer::sum));
            termCounts.add(tf);
            lengths[i] = words.size();
            total += words.size();
        }
        this.averageLength = this.documents.isEmpty() ? 1 : Math.max(1.0, (double) total / this.documents.size());
    }

    @Override
    public List<Passage> search(String query, int k) {
        List<String> terms = words(query).stream().distinct().toList();
        int n = documents.size();
        List<Passage> scored = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            double score = 0;
            for (String t : terms) {
                Integer tf = termCounts.get(i).get(t);
                if (tf == null) {
                    continue;
                }
                int df = documentFrequency.get(t);
                double idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
                score += idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * lengths[i] / averageLength));
            }
            Document d = documents.get(i);
            String id = d.id().isEmpty() ? Integer.toString(i) : d.id();
            scored.add(new Passage(id, d.title(), d.text(), score));
        }
        // stable: equal scores keep the dataset's order
        scored.sort(Comparator.comparingDouble(Passage::score).reversed());
        return List.copyOf(scored.subList(0, Math.min(Math.max(k, 0), scored.size())));
    }

    static List<String> words(String s) {
        List<String> out = new ArrayList<>();
        String lower = s.toLowerCase(Locale.ROOT);
        int i = 0;
        while (i < lower.length()) {
            while (i < lower.length() && !Character.isLetterOrDigit(lower.charAt(i))) {
                i++;
            }
            int start = i;
            while (i < lower.length() && Character.isLetterOrDigit(lower.charAt(i))) {
                i++;
            }
            if (i > start) {
                out.add(lower.substring(start, i));
            }
        }
        return out;
    }
}
