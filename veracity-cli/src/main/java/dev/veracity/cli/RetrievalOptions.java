package dev.veracity.cli;

import dev.veracity.eval.run.DocumentSource;
import dev.veracity.eval.run.JobDocuments;
import dev.veracity.method.Capability;
import dev.veracity.method.QaMethod;
import dev.veracity.retrieval.Embedder;
import dev.veracity.retrieval.LocalEmbedders;
import dev.veracity.retrieval.PageSource;
import dev.veracity.retrieval.Retriever;
import dev.veracity.retrieval.SearchIndex;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The retrieval flags of the commands that answer questions ({@code eval}, {@code ask}): an index whose top {@code k}
 * passages become a question's documents, and how it is searched.
 */
final class RetrievalOptions {

    @Option(names = "--index", paramLabel = "DIR|URL",
            description = "A retrieval index (./veracity index), a folder or an OpenSearch index (opensearch://HOST:9200/NAME):"
                    + " a question's documents are its top --k passages, replacing the dataset's own passages when it"
                    + " has some (closed-book methods get none).")
    String index;

    @Option(names = "--k", defaultValue = "" + DocumentSource.DEFAULT_K, paramLabel = "N",
            description = "Passages retrieved per question with --index (default ${DEFAULT-VALUE}, FlashRAG's retrieval_topk).")
    int k;

    @Option(names = "--search-mode", defaultValue = "bm25", paramLabel = "MODE",
            description = "bm25, dense or hybrid (default ${DEFAULT-VALUE}).")
    String searchMode;

    @Option(names = "--pages", paramLabel = "DIR|URL",
            description = "A page store (./veracity index --pages) for methods whose ReAct agents search a Wikipedia"
                    + " (court, react, ...): Search[entity] and Lookup[keyword] read its pages instead of the question's"
                    + " own paragraphs (MuSiQue always reads its own). Or a page store in OpenSearch, opensearch://HOST:9200/NAME.")
    String pages;

    boolean given() {
        return index != null;
    }

    /**
     * The page store, open, or null without {@code --pages}; a folder that is none stops here, before any model call,
     * and so does {@code --pages} with a method that does not read pages.
     */
    PageSource openPages(QaMethod m) throws java.io.IOException {
        if (pages == null) {
            return null;
        }
        if (!m.needs(Capability.PAGES)) {
            throw new IllegalArgumentException("--pages is for methods whose agents act in a Wikipedia (court, react, ...);"
                    + " method " + m.name() + " does not read pages");
        }
        try {
            return pageSource();
        } catch (java.nio.file.NoSuchFileException e) {
            throw new IllegalArgumentException("--pages " + pages + ": " + e.getReason());
        }
    }

    /**
     * The {@code --pages} store, open (a folder, or an OpenSearch page store), or null without it; for the servers,
     * which serve every method and so skip {@link #openPages}'s check of one.
     */
    PageSource pageSource() throws java.io.IOException {
        if (pages == null) {
            return null;
        }
        return SearchIndex.isOpenSearch(pages)
                ? dev.veracity.retrieval.opensearch.OpenSearchPageStore.open(
                        dev.veracity.retrieval.opensearch.OpenSearchLocation.parse(pages))
                : dev.veracity.retrieval.react.PageStore.open(Path.of(pages));
    }

    /** How a run records its page store in {@code run.json}: the folder and its pages' checksum. */
    String describePages(PageSource open) {
        if (open == null) {
            return "none";
        }
        dev.veracity.retrieval.react.PageStoreMetadata meta = open instanceof dev.veracity.retrieval.opensearch.OpenSearchPageStore os
                ? os.metadata() : ((dev.veracity.retrieval.react.PageStore) open).metadata();
        return (SearchIndex.isOpenSearch(pages) ? pages : Path.of(pages).toAbsolutePath().normalize().toString())
                + " sha256=" + meta.pagesSha256();
    }

    void validate() {
        if (k < 1) {
            throw new IllegalArgumentException("--k must be >= 1, was " + k);
        }
    }

    @picocli.CommandLine.Mixin
    EmbedderOptions embedding;

    /**
     * The embedder the method or a dense search needs, else null (loading it costs seconds): the {@code --embedder}
     * server's, else bge-small in process.
     */
    Embedder embedder(QaMethod m) {
        return m.needs(Capability.EMBEDDER) || (index != null && !searchMode.equals("bm25")) ? embedder() : null;
    }

    /**
     * Stops before any work when the method or a dense search needs the in-process model and the runtime lacks the
     * optional embed part (the one-line error says how to add it).
     */
    void requireEmbedder(QaMethod m) {
        if (!embedding.remote() && (m.needs(Capability.EMBEDDER) || (index != null && !searchMode.equals("bm25")))) {
            LocalEmbedders.require();
        }
    }

    /** The {@code --embedder} server's embedder (its model by default the index's), else bge-small in process. */
    Embedder embedder() {
        if (!embedding.remote()) {
            return LocalEmbedders.bgeSmall();
        }
        String model = embedding.model;
        if (model == null && index != null) {
            try {
                model = SearchIndex.metadata(index).embeddingModel();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        return embedding.server(model);
    }

    /** These flags as an eval job's documents: the index and the page store as given. */
    JobDocuments documents() {
        return documents(true, true);
    }

    /**
     * These flags as an eval job's documents, without the index (and its {@code --k} and {@code --search-mode}) or
     * the page store where a run's documents do not come from them ({@code reproduce}: the recipe says per dataset).
     */
    JobDocuments documents(boolean withIndex, boolean withPages) {
        RetrievalOptions chosen = new RetrievalOptions();
        chosen.index = withIndex ? index : null;
        chosen.k = withIndex ? k : DocumentSource.DEFAULT_K;
        chosen.searchMode = withIndex ? searchMode : "bm25";
        chosen.pages = withPages ? pages : null;
        chosen.embedding = embedding;
        return chosen.new Documents();
    }

    /** The flags as {@link JobDocuments}: what {@code eval} checks, opens and records of them. */
    private final class Documents implements JobDocuments {

        @Override
        public boolean indexed() {
            return given();
        }

        @Override
        public void validate() {
            RetrievalOptions.this.validate();
        }

        @Override
        public PageSource openPages(QaMethod method) throws java.io.IOException {
            return RetrievalOptions.this.openPages(method);
        }

        @Override
        public String describe() {
            return RetrievalOptions.this.describe();
        }

        @Override
        public String describePages(PageSource open) {
            return RetrievalOptions.this.describePages(open);
        }

        @Override
        public Embedder embedder(QaMethod method) {
            return RetrievalOptions.this.embedder(method);
        }

        @Override
        public Index openIndex(Embedder embedder) throws java.io.IOException {
            SearchIndex open = open();
            if (open == null) {
                return null;
            }
            Retriever retriever;
            DocumentSource source;
            try {
                retriever = retriever(open, embedder);
                source = source(open, retriever);
            } catch (RuntimeException e) {
                open.close();
                throw e;
            }
            return new Index() {
                @Override
                public Retriever retriever() {
                    return retriever;
                }

                @Override
                public DocumentSource source() {
                    return source;
                }

                @Override
                public void close() throws java.io.IOException {
                    open.close();
                }
            };
        }
    }

    /**
     * What a server ({@code serve}, {@code mcp}) answers from: the index and its retriever for the mode asked, the
     * embedder that mode needs (else null: a method that embeds gets {@link #embedder()} on first use), where the
     * documents come from, and the page store; each may be null.
     */
    record Serving(SearchIndex index, Embedder denseEmbedder, Retriever retriever, DocumentSource source, PageSource pages) {

        /** The embedder for methods that compare documents by embedding: the mode's, else made on first use. */
        java.util.function.Supplier<Embedder> embedderFor(RetrievalOptions options) {
            return denseEmbedder != null ? () -> denseEmbedder : options::embedder;
        }
    }

    /** Opens what a server answers from; what it opens is added to {@code held}, which the server closes. */
    Serving serving(java.util.List<AutoCloseable> held) throws java.io.IOException {
        SearchIndex open = open();
        if (open != null) {
            held.add(open);
        }
        Embedder dense = open != null && !searchMode.equals("bm25") ? embedder() : null;
        Retriever retriever = retriever(open, dense);
        DocumentSource source = retriever == null ? null : source(open, retriever);
        PageSource pages = pageSource();
        if (pages != null) {
            held.add(pages);
        }
        return new Serving(open, dense, retriever, source, pages);
    }

    /** The index (a folder or an OpenSearch index), open, or null without {@code --index}. */
    SearchIndex open() throws java.io.IOException {
        return index == null ? null : SearchIndex.open(index);
    }

    Retriever retriever(SearchIndex open, Embedder embedder) {
        return open == null ? null : open.retriever(searchMode, embedder);
    }

    /** Where the documents come from: the index (recorded with its corpus checksum, k and mode) or the dataset. */
    DocumentSource source(SearchIndex open, Retriever retriever) {
        return retriever == null ? DocumentSource.dataset() : DocumentSource.index(retriever,
                open.location(), open.metadata().corpusSha256(), k, searchMode);
    }

    /** The index as a run records it: a folder's absolute path, or the OpenSearch URL (never credentials). */
    private String location() {
        return SearchIndex.isOpenSearch(index) ? index : Path.of(index).toAbsolutePath().normalize().toString();
    }

    /** How a run records it in {@code run.json}. */
    String describe() {
        return index == null ? "dataset" : location() + " k=" + k + " " + searchMode;
    }
}
