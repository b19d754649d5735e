package dev.veracity.retrieval;

import dev.veracity.retrieval.lucene.IndexMetadata;
import dev.veracity.retrieval.lucene.LuceneIndex;
import dev.veracity.retrieval.opensearch.OpenSearchIndex;
import dev.veracity.retrieval.opensearch.OpenSearchLocation;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * A built retrieval index, wherever it lives: a Lucene folder ({@link LuceneIndex}) or an OpenSearch index
 * ({@link OpenSearchIndex}, named {@code opensearch://host:9200/NAME}). Both search BM25 with Anserini's parameters,
 * dense by the model recorded in their {@link IndexMetadata}, and hybrid by reciprocal rank fusion. Thread-safe; close
 * it when done (retrievers made from it do not own it).
 */
public interface SearchIndex extends AutoCloseable {

    IndexMetadata metadata();

    /** BM25 with Anserini's parameters, over title and text. */
    Retriever bm25();

    /** Nearest vectors to the query's, embedded by {@code embedder} (the model the index was built with). */
    Retriever dense(Embedder embedder);

    /** BM25 and dense fused by reciprocal rank. */
    Retriever hybrid(Embedder embedder);

    /** The retriever for a mode name ({@code bm25}, {@code dense}, {@code hybrid}); {@code embedder} for the last two. */
    default Retriever retriever(String mode, Embedder embedder) {
        return switch (mode.toLowerCase(Locale.ROOT)) {
            case "bm25" -> bm25();
            case "dense" -> dense(embedder);
            case "hybrid" -> hybrid(embedder);
            default -> throw new IllegalArgumentException("Unknown search mode '" + mode + "': use bm25, dense or hybrid");
        };
    }

    /** Where it is, as a run records it: the folder's absolute path, or the OpenSearch URL without credentials. */
    String location();

    @Override
    void close() throws IOException;

    /** Whether a {@code --index} value names an OpenSearch index rather than a folder. */
    static boolean isOpenSearch(String location) {
        return OpenSearchLocation.isLocation(location);
    }

    /** Opens an index by its {@code --index} value: an OpenSearch URL or a folder built by {@code ./veracity index}. */
    static SearchIndex open(String location) throws IOException {
        return isOpenSearch(location) ? OpenSearchIndex.open(OpenSearchLocation.parse(location))
                : LuceneIndex.open(Path.of(location));
    }

    /** The metadata of an index by its {@code --index} value, read without keeping it open. */
    static IndexMetadata metadata(String location) throws IOException {
        if (!isOpenSearch(location)) {
            return IndexMetadata.read(Path.of(location));
        }
        try (SearchIndex open = open(location)) {
            return open.metadata();
        }
    }
}
