package dev.veracity.langchain4j;

import dev.langchain4j.data.document.Metadata;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.exception.InvalidRequestException;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.content.ContentMetadata;
import dev.langchain4j.rag.content.retriever.ContentRetriever;
import dev.langchain4j.rag.query.Query;
import dev.veracity.retrieval.Embedder;
import dev.veracity.retrieval.LocalEmbedders;
import dev.veracity.retrieval.Passage;
import dev.veracity.retrieval.Retriever;
import dev.veracity.retrieval.lucene.IndexMetadata;
import dev.veracity.retrieval.lucene.LuceneIndex;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * A LangChain4j {@link ContentRetriever} over an index built by {@code veracity index}: the top {@code maxResults}
 * passages for the query, ranked as {@code veracity search --mode MODE -k N} ranks them (the same
 * {@link LuceneIndex#retriever} and {@link Retriever#search}). Each {@link Content} holds the passage's text; its
 * segment's metadata has the passage's {@code id}, {@code title} and {@code score}, and the content's
 * {@link ContentMetadata#SCORE} the score. Dense and hybrid search embed the query with the model the index records
 * (bge-small from the optional embed part, {@code veracity-embed-onnx}) unless {@link Builder#embedder} gives one.
 * Close it to close the index.
 */
public final class VeracityContentRetriever implements ContentRetriever, AutoCloseable {

    /** The default number of passages: FlashRAG's {@code retrieval_topk}, as {@code eval --index} retrieves. */
    public static final int DEFAULT_MAX_RESULTS = 5;

    private final LuceneIndex index;
    private final Retriever retriever;
    private final String mode;
    private final int maxResults;

    private VeracityContentRetriever(LuceneIndex index, Retriever retriever, String mode, int maxResults) {
        this.index = index;
        this.retriever = retriever;
        this.mode = mode;
        this.maxResults = maxResults;
    }

    public static Builder builder() {
        return new Builder();
    }

    @Override
    public List<Content> retrieve(Query query) {
        List<Content> out = new ArrayList<>();
        for (Passage p : retriever.search(query.text(), maxResults)) {
            Metadata meta = new Metadata().put("id", p.id()).put("title", p.title()).put("score", p.score());
            out.add(Content.from(TextSegment.from(p.text(), meta), Map.of(ContentMetadata.SCORE, p.score())));
        }
        return out;
    }

    /** The index's retriever, for methods that search it themselves (C-3PO, Reasoning Court). */
    public Retriever retriever() {
        return retriever;
    }

    /** {@code bm25}, {@code dense} or {@code hybrid}. */
    public String mode() {
        return mode;
    }

    public int maxResults() {
        return maxResults;
    }

    @Override
    public void close() {
        try {
            index.close();
        } catch (IOException e) {
            throw new UncheckedIOException("closing the index failed: " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return "VeracityContentRetriever{mode=" + mode + ", maxResults=" + maxResults + "}";
    }

    /** Opens the index at {@link #build()}; a missing index or a bad setting is an {@link InvalidRequestException}. */
    public static final class Builder {
        private Path index;
        private String mode = "bm25";
        private int maxResults = DEFAULT_MAX_RESULTS;
        private Embedder embedder;

        private Builder() {
        }

        /** The index folder ({@code veracity index --corpus FILE --out DIR}). */
        public Builder index(Path index) {
            this.index = index;
            return this;
        }

        /** {@code bm25} (the default), {@code dense} or {@code hybrid} (reciprocal rank fusion of the two). */
        public Builder mode(String mode) {
            this.mode = mode;
            return this;
        }

        /** Passages per query (default {@value #DEFAULT_MAX_RESULTS}). */
        public Builder maxResults(int maxResults) {
            this.maxResults = maxResults;
            return this;
        }

        /**
         * The query embedder for dense and hybrid search: the model the index was embedded with (an OpenAI-compatible
         * embedding server, say). Default: the in-process model the index records, from the embed part.
         */
        public Builder embedder(Embedder embedder) {
            this.embedder = embedder;
            return this;
        }

        public VeracityContentRetriever build() {
            if (index == null) {
                throw new InvalidRequestException("name the index folder: .index(Path.of(DIR)), built with"
                        + " ./veracity index --corpus FILE --out DIR");
            }
            String m = Objects.requireNonNullElse(mode, "").toLowerCase(Locale.ROOT);
            if (!List.of("bm25", "dense", "hybrid").contains(m)) {
                throw new InvalidRequestException("unknown search mode '" + mode + "': use bm25, dense or hybrid");
            }
            if (maxResults < 1) {
                throw new InvalidRequestException("maxResults must be >= 1, was " + maxResults);
            }
            LuceneIndex idx;
            try {
                idx = LuceneIndex.open(index);
            } catch (IOException | RuntimeException e) {
                throw new InvalidRequestException("cannot open the index " + index + ": " + e.getMessage(), e);
            }
            try {
                IndexMetadata meta = idx.metadata();
                Embedder e = embedder;
                if (!m.equals("bm25")) {
                    if (!meta.dense()) {
                        throw new InvalidRequestException("the index " + index + " has no vectors, so it cannot be searched"
                                + " " + m + ": use mode bm25, or rebuild it with ./veracity index --dense");
                    }
                    if (e == null) {
                        e = LocalEmbedders.byName(meta.embeddingModel(), null, null);
                    } else if (!e.name().equals(meta.embeddingModel())) {
                        throw new InvalidRequestException("the index " + index + " was embedded with "
                                + meta.embeddingModel() + ", not " + e.name() + ": queries must use the passages' model");
                    }
                }
                return new VeracityContentRetriever(idx, idx.retriever(m, e), m, maxResults);
            } catch (RuntimeException e) {
                try {
                    idx.close();
                } catch (IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
                throw e instanceof InvalidRequestException ? e : new InvalidRequestException(e.getMessage(), e);
            }
        }
    }
}
