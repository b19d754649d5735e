package dev.veracity.cli;

import dev.veracity.eval.data.Datasets;
import dev.veracity.eval.data.GoldFields;
import dev.veracity.qa.QaItem;
import dev.veracity.retrieval.Embedder;
import dev.veracity.retrieval.LocalEmbedders;
import dev.veracity.retrieval.SearchIndex;
import dev.veracity.retrieval.corpus.CorpusFormat;
import dev.veracity.retrieval.corpus.CorpusReader;
import dev.veracity.retrieval.corpus.Document;
import dev.veracity.retrieval.lucene.PassageVectors;
import dev.veracity.retrieval.lucene.PrecomputedVectors;
import dev.veracity.retrieval.lucene.IndexBuilder;
import dev.veracity.retrieval.opensearch.OpenSearchIndexer;
import dev.veracity.retrieval.opensearch.OpenSearchLocation;
import dev.veracity.retrieval.opensearch.OpenSearchPageStore;
import dev.veracity.retrieval.react.PageFormat;
import dev.veracity.retrieval.react.PageReader;
import dev.veracity.retrieval.react.PageStoreBuilder;
import dev.veracity.retrieval.react.PageStoreMetadata;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./veracity index}: builds a Lucene index (BM25, optionally dense) from a corpus file, or with {@code --pages}
 * a page store for ReAct agents (Reasoning Court's Search / Lookup).
 */
@Command(name = "index", mixinStandardHelpOptions = true,
        description = {"Build a retrieval index from a corpus: BM25 (Anserini conventions) and, with --dense, bge-small vectors.",
                "With --pages: a page store for ReAct agents (exact title lookup, BM25 title/lead search for Similar:)."})
final class IndexCommand implements Callable<Integer> {

    @Option(names = "--corpus", required = true, paramLabel = "FILE",
            description = "Corpus file (.bz2 and .gz are decompressed); with --pages also a folder of such files.")
    Path corpus;

    @Option(names = "--format", defaultValue = "jsonl", paramLabel = "FORMAT",
            description = "jsonl (BEIR corpus.jsonl), flashrag (FlashRAG corpus: id, contents = title\\ntext), dpr-tsv"
                    + " (DPR psgs_w100.tsv), crag (CRAG .jsonl.bz2 pages), dataset (a dataset's own documents; with"
                    + " --dataset NAME read by that dataset's loader) (default ${DEFAULT-VALUE}). With --pages:"
                    + " hotpotqa-abstracts (HotpotQA's abstracts dump), kilt (KILT knowledge source), fever (FEVER"
                    + " wiki-pages), jsonl ({title, text}), dataset (the dataset's paragraphs, e.g. HotpotQA's).")
    String format;

    @Option(names = "--pages", description = "Build a page store for ReAct agents (eval --pages DIR|URL) instead of a retrieval"
            + " index; --out may be an OpenSearch URL (an earlier page store there is replaced).")
    boolean pages;

    @Option(names = "--dataset", paramLabel = "NAME",
            description = "With --format dataset: the dataset whose loader reads --corpus (${COMPLETION-CANDIDATES});"
                    + " every question's passages are indexed once (exact duplicates dropped), ids QUESTION-DOC.",
            completionCandidates = DatasetOptions.Names.class)
    String dataset;

    @Option(names = "--out", required = true, paramLabel = "DIR|URL",
            description = "Index directory: a finished index there is replaced; an unfinished one (a build that was"
                    + " killed) is resumed from its last commit when built again with the same corpus and settings."
                    + " Or an OpenSearch index, opensearch://HOST:9200/NAME (opensearchs:// for HTTPS; credentials from"
                    + " VERACITY_OPENSEARCH_USER/_PASSWORD or VERACITY_OPENSEARCH_API_KEY): an unfinished load resumes,"
                    + " sending only the passages it lacks.")
    String out;

    @Option(names = "--batch", defaultValue = "" + OpenSearchIndexer.DEFAULT_BATCH, paramLabel = "N",
            description = "With an OpenSearch --out: passages per bulk request (default ${DEFAULT-VALUE}).")
    int batch;

    @Option(names = "--shards", defaultValue = "1", paramLabel = "N",
            description = "With an OpenSearch --out: primary shards of a new index (default ${DEFAULT-VALUE}; BM25 is"
                    + " searched with the whole index's statistics whatever the number).")
    int shards;

    /** The output folder (a Lucene index or page store). */
    private Path outDir() {
        return Path.of(out);
    }

    @Option(names = "--commit-every", defaultValue = "" + IndexBuilder.DEFAULT_COMMIT_EVERY, paramLabel = "N",
            description = "Commit every N passages, the points a killed build resumes from (default ${DEFAULT-VALUE}).")
    long commitEvery;

    @Option(names = "--dense", description = "Also embed passages (bge-small-en-v1.5, or e5 with --onnx-model, or on the"
            + " --embedder server) for dense and hybrid search.")
    boolean dense;

    @picocli.CommandLine.Mixin
    EmbedderOptions embedding;

    @Option(names = "--embeddings", paramLabel = "FILE.npy",
            description = "Import precomputed passage vectors instead of embedding (e.g. from a GPU or FlashRAG's index"
                    + " builder): a float32 .npy of shape (passages, dimension), C order, read by memory map; row i is the"
                    + " i-th passage of the corpus, or of --embedding-ids. Needs --embedding-model.")
    Path embeddings;

    @Option(names = "--embedding-ids", paramLabel = "FILE",
            description = "With --embeddings: the passage ids in row order, one per line (default: the corpus order).")
    Path embeddingIds;

    @Option(names = "--embedding-model", paramLabel = "NAME",
            description = "With --embeddings: the model that computed them (" + LocalEmbedders.BGE_SMALL + ", "
                    + LocalEmbedders.E5_SMALL + " or a server's model name), recorded so that queries use it.")
    String embeddingModel;

    @Option(names = "--onnx-model", paramLabel = "FILE", description = "e5-small-v2 ONNX model instead of bge-small (with --tokenizer).")
    Path onnxModel;

    @Option(names = "--tokenizer", paramLabel = "FILE", description = "The e5 model's tokenizer.json.")
    Path tokenizer;

    @Override
    public Integer call() throws Exception {
        if (!SearchIndex.isOpenSearch(out) && (batch != OpenSearchIndexer.DEFAULT_BATCH || shards != 1)) {
            throw new IllegalArgumentException("--batch and --shards are for an OpenSearch --out"
                    + " (opensearch://HOST:9200/NAME): a folder index takes --commit-every");
        }
        if (pages) {
            return buildPages();
        }
        CorpusFormat f = CorpusFormat.parse(format);
        if (embeddings != null) {
            if (embedding.remote() || onnxModel != null) {
                throw new IllegalArgumentException("--embeddings imports vectors: leave out --embedder and --onnx-model");
            }
            try (PrecomputedVectors vectors = PrecomputedVectors.open(embeddings, embeddingIds, embeddingModel)) {
                return build(f, vectors);
            }
        }
        if (embeddingIds != null || embeddingModel != null) {
            throw new IllegalArgumentException("--embedding-ids and --embedding-model go with --embeddings FILE.npy");
        }
        if (embedding.remote() && !dense) {
            throw new IllegalArgumentException("--embedder embeds passages for a dense index: add --dense");
        }
        Embedder embedder = !dense ? null : embedding.forIndexing(onnxModel, onnxModel == null ? null : requireTokenizer());
        return build(f, embedder == null ? null : PassageVectors.embedded(embedder));
    }

    /** Reads the corpus into the index (with these vectors, or none), with a progress bar. */
    private int build(CorpusFormat f, PassageVectors vectors) throws Exception {
        if (dataset != null && f != CorpusFormat.DATASET) {
            throw new IllegalArgumentException("--dataset goes with --format dataset");
        }
        if (commitEvery < 1) {
            throw new IllegalArgumentException("--commit-every must be >= 1, was " + commitEvery);
        }
        if (SearchIndex.isOpenSearch(out)) {
            return buildOpenSearch(f, vectors);
        }
        Path out = outDir();
        long start = System.nanoTime();
        long count;
        long resumed;
        long fileSize = java.nio.file.Files.isRegularFile(corpus) ? java.nio.file.Files.size(corpus) : 0;
        // The total is not known before the corpus is read: estimated from the share of the file read so far (the
        // bytes read, of the passages read: a dense build embeds behind the reading), for the time left.
        try (TaskProgress progress = TaskProgress.start("Indexing", "passages", -1);
             IndexBuilder builder = IndexBuilder.builder().vectors(vectors).commitEvery(commitEvery)
                     // enough batches in flight to keep the embedding server's requests going
                     .threads(Math.max(Runtime.getRuntime().availableProcessors(), embedding.remote() ? embedding.concurrency : 0))
                     .progress(progress::stepTo).open(out)) {
            resumed = builder.resumedAt();
            // said before the first step, which draws the bar on a terminal (from the passages already in: its rate and
            // time left are this run's); the bar owns the line from then on
            if (resumed > 0) {
                System.err.printf("Resuming the unfinished index in %s: its first %,d passages are in; reading the"
                        + " corpus up to them (checked against the index) and indexing from there%n", out, resumed);
            }
            if (vectors != null) {
                progress.extra("embedding with " + vectors.model());
            }
            progress.stepTo(resumed);
            try {
                readCorpus(f, builder::add, progress, fileSize);
            } catch (Exception | Error e) {
                builder.abandon(); // a bad record or a failed read must not leave a finished-looking index
                throw e;
            }
            progress.extra(vectors != null ? "read; embedding the last batches" : "read; committing");
            builder.close();
            count = builder.count();
            progress.extra("");
            progress.total(count);
            progress.stepTo(count);
        }
        double s = (System.nanoTime() - start) / 1e9;
        int width = Terminal.columns();
        System.out.print(dev.veracity.eval.report.TextTable.wrap(String.format("Indexed %,d passages from %s (%s%s)"
                + " into %s in %.1f s (%,.0f passages/s)%s", count, corpus, f, vectors == null ? "" : ", dense "
                + vectors.model(), out, s, (count - resumed) / Math.max(s, 1e-9),
                resumed > 0 ? String.format(" after resuming at %,d", resumed) : ""), width, "", "  "));
        System.out.print(dev.veracity.eval.report.TextTable.wrap("Corpus SHA-256 "
                + dev.veracity.retrieval.lucene.IndexMetadata.read(out).corpusSha256() + " (recorded in "
                + dev.veracity.retrieval.lucene.IndexMetadata.FILE + " and in eval's summary.json)", width, "", "  "));
        return 0;
    }

    /** Reads the corpus (or the dataset's documents) into {@code sink}, the bar following the share of the file read. */
    private void readCorpus(CorpusFormat f, java.util.function.Consumer<Document> sink, TaskProgress progress, long fileSize)
            throws Exception {
        if (dataset != null) {
            readDataset(dataset, corpus, sink);
        } else {
            CorpusReader.read(corpus, f, sink, read -> {
                if (fileSize > 0 && read > 0) {
                    progress.share(Math.min(1.0, (double) read / fileSize));
                }
            });
        }
    }

    /**
     * Loads the corpus into an OpenSearch index: checked (cluster reachable and not red, an existing index mapped as
     * ours) before the corpus is read; an unfinished load resumes, sending only the passages the index lacks.
     */
    private int buildOpenSearch(CorpusFormat f, PassageVectors vectors) throws Exception {
        OpenSearchLocation location = OpenSearchLocation.parse(out);
        long start = System.nanoTime();
        long fileSize = java.nio.file.Files.isRegularFile(corpus) ? java.nio.file.Files.size(corpus) : 0;
        long count;
        long sent;
        long skipped;
        // the cluster, and an index already there, are checked before the bar starts
        try (OpenSearchIndexer load = OpenSearchIndexer.open(location, vectors, batch, shards, null);
             TaskProgress progress = TaskProgress.start("Indexing", "passages", -1)) {
            load.progress(progress::stepTo);
            if (vectors != null) {
                progress.extra("embedding with " + vectors.model());
            }
            readCorpus(f, load::add, progress, fileSize);
            progress.extra("read; refreshing");
            count = load.finish();
            sent = load.sent();
            skipped = load.skipped();
            progress.extra("");
            progress.total(sent + skipped);
            progress.stepTo(sent + skipped);
            if (load.retries() > 0) {
                System.err.printf("OpenSearch asked us %,d times to slow down (429); every passage was resent until"
                        + " taken%n", load.retries());
            }
        }
        double s = (System.nanoTime() - start) / 1e9;
        int width = Terminal.columns();
        System.out.print(dev.veracity.eval.report.TextTable.wrap(String.format("Indexed %,d passages from %s (%s%s)"
                + " into %s in %.1f s (%,.0f passages/s)%s%s", count, corpus, f, vectors == null ? "" : ", dense "
                + vectors.model(), location, s, sent / Math.max(s, 1e-9),
                skipped > 0 ? String.format("; resumed: %,d were already there and not sent again", skipped) : "",
                sent + skipped > count ? String.format("; %,d passages repeat an earlier id", sent + skipped - count) : ""),
                width, "", "  "));
        try (SearchIndex built = SearchIndex.open(out)) {
            System.out.print(dev.veracity.eval.report.TextTable.wrap("Corpus SHA-256 " + built.metadata().corpusSha256()
                    + " (recorded in the index's _meta.veracity and in eval's summary.json)", width, "", "  "));
        }
        return 0;
    }

    /** The page store: pages read from the dump (or grouped from the dataset's paragraphs), with a progress bar. */
    private int buildPages() throws Exception {
        PageFormat f = PageFormat.parse(format);
        if (dense || onnxModel != null || embedding.remote()) {
            throw new IllegalArgumentException("--dense, --onnx-model and --embedder are for retrieval indexes, not --pages");
        }
        if (f == PageFormat.DATASET && dataset == null) {
            throw new IllegalArgumentException("--pages --format dataset needs --dataset NAME (the loader that reads --corpus)");
        }
        if (f != PageFormat.DATASET && dataset != null) {
            throw new IllegalArgumentException("--dataset goes with --format dataset");
        }
        if (!java.nio.file.Files.exists(corpus)) {
            throw new IllegalArgumentException("no corpus at " + corpus + ": check the path");
        }
        if (SearchIndex.isOpenSearch(out)) {
            return loadPages(f);
        }
        Path out = outDir();
        long start = System.nanoTime();
        long count;
        try (TaskProgress bar = TaskProgress.start("Pages", "pages", -1);
             PageStoreBuilder builder = PageStoreBuilder.create(out, f, corpus.toAbsolutePath().normalize(), bar::stepTo)) {
            try {
                readPages(f, builder::add);
            } catch (Exception | Error e) {
                builder.abandon(); // a bad record or a failed read must not leave a page store that opens
                throw e;
            }
            count = builder.count();
        }
        double s = (System.nanoTime() - start) / 1e9;
        PageStoreMetadata meta = PageStoreMetadata.read(out);
        int width = Terminal.columns();
        System.out.print(dev.veracity.eval.report.TextTable.wrap(String.format("Stored %,d pages from %s (%s) into %s"
                + " in %.1f s (%,.0f pages/s)", meta.pages(), corpus, f, out, s, count / Math.max(s, 1e-9)), width, "", "  "));
        System.out.print(dev.veracity.eval.report.TextTable.wrap("Pages SHA-256 " + meta.pagesSha256() + "; use it with:",
                width, "", "  "));
        System.out.println("  ./veracity eval --method court --pages " + out);
        return 0;
    }

    /**
     * Every question's passages through the dataset's loader, each distinct (title, text) once. Gold answers are not
     * needed: an unlabelled test split is indexed as well.
     */
    /** Reads the pages (or groups the dataset's paragraphs into pages) into {@code sink}. */
    private void readPages(PageFormat f, java.util.function.Consumer<dev.veracity.retrieval.PageSource.Page> sink)
            throws Exception {
        if (f == PageFormat.DATASET) {
            java.util.List<Document> paragraphs = new java.util.ArrayList<>();
            readDataset(dataset, corpus, paragraphs::add);
            PageReader.group(paragraphs).forEach(sink);
        } else {
            PageReader.read(corpus, f, sink);
        }
    }

    /** The page store in OpenSearch: replaces an earlier page store of that name; marked complete only at the end. */
    private int loadPages(PageFormat f) throws Exception {
        OpenSearchLocation location = OpenSearchLocation.parse(out);
        long start = System.nanoTime();
        long count;
        long stored;
        try (OpenSearchPageStore.Loader load = OpenSearchPageStore.Loader.create(location, f.cliName(),
                     corpus.toAbsolutePath().normalize().toString(), batch, shards, null);
             TaskProgress bar = TaskProgress.start("Pages", "pages", -1)) {
            load.progress(bar::stepTo);
            readPages(f, load::add);
            stored = load.finish();
            count = load.count();
        }
        double s = (System.nanoTime() - start) / 1e9;
        int width = Terminal.columns();
        System.out.print(dev.veracity.eval.report.TextTable.wrap(String.format("Stored %,d pages from %s (%s) into %s"
                + " in %.1f s (%,.0f pages/s)", stored, corpus, f, location, s, count / Math.max(s, 1e-9)), width, "", "  "));
        System.out.println("  ./veracity eval --method court --pages " + location);
        return 0;
    }

    static void readDataset(String name, Path file, java.util.function.Consumer<Document> sink) {
        java.util.Set<String> seen = new java.util.HashSet<>();
        try (java.util.stream.Stream<QaItem> items = Datasets.stream(name, file, GoldFields.OPTIONAL)) {
            items.forEach(item -> {
                int n = 0;
                for (dev.veracity.qa.Document d : item.documents()) {
                    String docId = d.id().isBlank() ? Integer.toString(n) : d.id();
                    n++;
                    if (d.text().isBlank() || !seen.add(d.title() + "\u0000" + d.text())) {
                        continue;
                    }
                    sink.accept(new Document(item.id() + "-" + docId, d.title(), d.text()));
                }
            });
        }
    }

    private Path requireTokenizer() {
        if (tokenizer == null) {
            throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this),
                    "--onnx-model needs --tokenizer (the model's tokenizer.json)");
        }
        return tokenizer;
    }
}
