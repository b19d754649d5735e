package dev.veracity.retrieval.lucene;

import dev.veracity.retrieval.corpus.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.IndexOptions;
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
    public static String contents(Document d) {
        return d.title().isEmpty() ? d.text() : d.title() + "\n" + d.text();
    }

    /**
     * A passage as the corpus checksum ({@link IndexMetadata#corpusSha256}) reads it: {@code id \t title \t text \n}
     * in UTF-8.
     */
    public static byte[] checksumLine(Document d) {
        return (d.id() + "\t" + d.title() + "\t" + d.text() + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /**
     * Analysed text for BM25: term frequencies, no positions. Anserini also indexes positions (for phrase queries);
     * bag-of-words BM25 never reads them and they cost about a third of the indexing time, so we leave them out.
     */
    static final FieldType BAG_OF_WORDS = bagOfWords(false);
    static final FieldType BAG_OF_WORDS_STORED = bagOfWords(true);

    private static FieldType bagOfWords(boolean stored) {
        FieldType t = new FieldType();
        t.setTokenized(true);
        t.setStored(stored);
        t.setIndexOptions(IndexOptions.DOCS_AND_FREQS);
        t.freeze();
        return t;
    }

    /** A Lucene document for the passage; {@code vector} may be null (sparse-only index). */
    static org.apache.lucene.document.Document toLucene(Document d, float[] vector) {
        var doc = new org.apache.lucene.document.Document();
        doc.add(new StringField(ID, d.id(), Field.Store.YES));
        doc.add(new Field(TITLE, d.title(), BAG_OF_WORDS_STORED));
        doc.add(new Field(CONTENTS, contents(d), BAG_OF_WORDS));
        doc.add(new StoredField(RAW, d.text()));
        if (vector != null) {
            doc.add(new KnnFloatVectorField(VECTOR, vector, VectorSimilarityFunction.DOT_PRODUCT));
        }
        return doc;
    }
}
