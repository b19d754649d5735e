package dev.veracity.retrieval.lucene;

import dev.veracity.retrieval.corpus.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.VectorSimilarityFunction;

/**
 * The index schema, Anserini's field names: {@code id} (exact, stored), {@code title} (analysed, stored),
 * {@code contents} (analysed with freqs and positions, not stored: title and text, as in Pyserini's Wikipedia
 * indexes), {@code raw} (the passage text, stored), and {@code vector} (HNSW, dot product on unit vectors) when
 * the index is dense.
 */
public final class IndexFields {

    public static final String ID = "id";
    public static final String TITLE = "title";
    public static final String CONTENTS = "contents";
    public static final String RAW = "raw";
    public static final String VECTOR = "vector";

    private IndexFields() {
    }

    /** The text BM25 sees: title then text, so a passage is found by its page's name too. */
    static String contents(Document d) {
        return d.title().isEmpty() ? d.text() : d.title() + "\n" + d.text();
    }

    /** A Lucene document for the passage; {@code vector} may be null (sparse-only index). */
    static org.apache.lucene.document.Document toLucene(Document d, float[] vector) {
        var doc = new org.apache.lucene.document.Document();
        doc.add(new StringField(ID, d.id(), Field.Store.YES));
        doc.add(new TextField(TITLE, d.title(), Field.Store.YES));
        doc.add(new TextField(CONTENTS, contents(d), Field.Store.NO));
        doc.add(new StoredField(RAW, d.text()));
        if (vector != null) {
            doc.add(new KnnFloatVectorField(VECTOR, vector, VectorSimilarityFunction.DOT_PRODUCT));
        }
        return doc;
    }
}
