package dev.veracity.retrieval.lucene;

import dev.veracity.retrieval.corpus.Document;
import dev.veracity.retrieval.embed.OnnxEmbedder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongConsumer;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;

/**
 * Builds an index once: passages are analysed (and embedded, for a dense index) in batches on all cores and
 * added through one {@link IndexWriter}, which is thread-safe. {@link #close()} waits for the batches, commits
 * and writes the {@link IndexMetadata}. Not thread-safe itself: one thread calls {@link #add}.
 */
public final class IndexBuilder implements AutoCloseable {

    private static final int SPARSE_BATCH = 512;
    private static final int DENSE_BATCH = 32;

    private final Directory directory;
    private final Path path;
    private final IndexWriter writer;
    private final OnnxEmbedder embedder;
    private final LongConsumer progress;
    private final ExecutorService pool;
    private final Semaphore inFlight;
    private final int batchSize;
    private final AtomicLong added = new AtomicLong();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final MessageDigest corpusDigest = sha256();
    private List<Document> batch = new ArrayList<>();
    private boolean closed;

    private IndexBuilder(Directory directory, Path path, OnnxEmbedder embedder, int threads, LongConsumer progress)
            throws IOException {
        this.directory = directory;
        this.path = path;
        this.embedder = embedder;
        this.progress = progress == null ? n -> { } : progress;
        IndexWriterConfig config = new IndexWriterConfig(new AnseriniAnalyzer())
                .setOpenMode(IndexWriterConfig.OpenMode.CREATE)
                .setSimilarity(new BM25Similarity(Bm25Retriever.K1, Bm25Retriever.B))
                .setRAMBufferSizeMB(256)
                .setUseCompoundFile(false);
        this.writer = new IndexWriter(directory, config);
        int n = Math.max(1, threads);
        this.pool = Executors.newFixedThreadPool(n, r -> {
            Thread t = new Thread(r, "veracity-index");
            t.setDaemon(true);
            return t;
        });
        this.inFlight = new Semaphore(2 * n); // bounds memory: at most 2 batches per thread queued
        this.batchSize = embedder == null ? SPARSE_BATCH : DENSE_BATCH;
    }

    /** A new index in {@code dir} (replacing one there); {@code embedder} null for BM25 only. */
    public static IndexBuilder create(Path dir, OnnxEmbedder embedder, LongConsumer progress) throws IOException {
        Files.createDirectories(dir);
        return new IndexBuilder(FSDirectory.open(dir), dir, embedder, Runtime.getRuntime().availableProcessors(), progress);
    }

    /** A new index in the given directory (e.g. a {@code ByteBuffersDirectory}); metadata is not written. */
    public static IndexBuilder create(Directory directory, OnnxEmbedder embedder) throws IOException {
        return new IndexBuilder(directory, null, embedder, Runtime.getRuntime().availableProcessors(), null);
    }

    public void add(Document d) {
        if (closed) {
            throw new IllegalStateException("IndexBuilder is closed");
        }
        // add is called by one thread, so the digest follows the corpus order exactly
        corpusDigest.update((d.id() + "\t" + d.title() + "\t" + d.text() + "\n").getBytes(StandardCharsets.UTF_8));
        batch.add(d);
        if (batch.size() >= batchSize) {
            flushBatch();
        }
    }

    public void addAll(Iterable<Document> docs) {
        for (Document d : docs) {
            add(d);
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Passages added so far (including those still in flight). */
    public long count() {
        return added.get() + batch.size();
    }

    private void flushBatch() {
        rethrow();
        List<Document> docs = batch;
        batch = new ArrayList<>(batchSize);
        inFlight.acquireUninterruptibly();
        pool.execute(() -> {
            try {
                List<float[]> vectors = embedder == null ? null : embedder.embed(docs.stream().map(IndexFields::contents).toList());
                List<org.apache.lucene.document.Document> lucene = new ArrayList<>(docs.size());
                for (int i = 0; i < docs.size(); i++) {
                    lucene.add(IndexFields.toLucene(docs.get(i), vectors == null ? null : vectors.get(i)));
                }
                writer.addDocuments(lucene);
                progress.accept(added.addAndGet(docs.size()));
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
            } finally {
                inFlight.release();
            }
        });
    }

    private void rethrow() {
        Throwable t = failure.get();
        if (t != null) {
            throw new IllegalStateException("indexing failed: " + t.getMessage(), t);
        }
    }

    /** Waits for the batches, commits, writes the metadata (for a directory on disk) and closes the writer. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (!batch.isEmpty()) {
                flushBatch();
            }
            pool.shutdown();
            if (!pool.awaitTermination(7, TimeUnit.DAYS)) {
                throw new IOException("indexing did not finish");
            }
            rethrow();
            writer.commit();
            if (path != null) {
                new IndexMetadata(added.get(), embedder == null ? null : embedder.name(),
                        embedder == null ? 0 : embedder.dimension(), HexFormat.of().formatHex(corpusDigest.digest()))
                        .write(path);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while indexing", e);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        } finally {
            pool.shutdownNow();
            writer.close();
            if (path != null) {
                directory.close();
            }
        }
    }
}
