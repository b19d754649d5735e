package dev.veracity.retrieval.lucene;

import dev.veracity.retrieval.Passage;
import dev.veracity.retrieval.Retriever;
import dev.veracity.retrieval.SearchIndex;
import dev.veracity.retrieval.corpus.Document;
import dev.veracity.retrieval.Embedder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;

/**
 * An index opened read-only: one {@link DirectoryReader} and one {@link IndexSearcher} (BM25 k1 = 0.9, b = 0.4)
 * shared by every retriever made from it and by any number of threads. Retrievers do not own the index; close it
 * when done.
 */
public final class LuceneIndex implements SearchIndex {

    private static final Set<String> STORED = Set.of(IndexFields.ID, IndexFields.TITLE, IndexFields.RAW);

    private final Directory directory;
    private final DirectoryReader reader;
    private final IndexSearcher searcher;
    private final IndexMetadata metadata;
    private final String location;
    private final AnseriniAnalyzer analyzer = new AnseriniAnalyzer();

    private LuceneIndex(Directory directory, IndexMetadata metadata, String location) throws IOException {
        this.directory = directory;
        this.location = location;
        this.reader = DirectoryReader.open(directory);
        this.searcher = new IndexSearcher(reader);
        this.searcher.setSimilarity(new BM25Similarity(Bm25Retriever.K1, Bm25Retriever.B));
        this.metadata = metadata;
    }

    /** Opens an index built by {@link IndexBuilder} (or {@code ./veracity index}). */
    public static LuceneIndex open(Path dir) throws IOException {
        IndexMetadata meta = IndexMetadata.read(dir);
        return new LuceneIndex(FSDirectory.open(dir), meta, dir.toAbsolutePath().normalize().toString());
    }

    /**
     * An in-memory index ({@link ByteBuffersDirectory}) of the given documents: per question, for datasets that
     * ship their own paragraphs. {@code embedder} null for BM25 only.
     */
    public static LuceneIndex inMemory(Iterable<Document> docs, Embedder embedder) {
        try {
            Directory dir = new ByteBuffersDirectory();
            long n;
            try (IndexBuilder b = IndexBuilder.create(dir, embedder)) {
                b.addAll(docs);
                n = b.count();
            }
            return new LuceneIndex(dir, new IndexMetadata(n, embedder == null ? null : embedder.name(),
                    embedder == null ? 0 : embedder.dimension()), "in-memory");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String location() {
        return location;
    }

    @Override
    public IndexMetadata metadata() {
        return metadata;
    }

    public int size() {
        return reader.numDocs();
    }

    IndexSearcher searcher() {
        return searcher;
    }

    AnseriniAnalyzer analyzer() {
        return analyzer;
    }

    @Override
    public Bm25Retriever bm25() {
        return new Bm25Retriever(this);
    }

    @Override
    public DenseRetriever dense(Embedder embedder) {
        return new DenseRetriever(this, embedder);
    }

    @Override
    public HybridRetriever hybrid(Embedder embedder) {
        return new HybridRetriever(bm25(), dense(embedder));
    }

    /** The stored passages of the hits, in order, with their scores. */
    List<Passage> passages(TopDocs hits) {
        try {
            StoredFields fields = searcher.storedFields();
            List<Passage> out = new ArrayList<>(hits.scoreDocs.length);
            for (ScoreDoc sd : hits.scoreDocs) {
                var d = fields.document(sd.doc, STORED);
                out.add(new Passage(d.get(IndexFields.ID), d.get(IndexFields.TITLE), d.get(IndexFields.RAW), sd.score));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("reading stored passages failed: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() throws IOException {
        reader.close();
        directory.close();
    }
}
