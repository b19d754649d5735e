package dev.veracity.retrieval.lucene;

import dev.veracity.retrieval.corpus.Document;
import dev.veracity.retrieval.Embedder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongConsumer;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.LockObtainFailedException;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;

/**
 * Builds an index once: passages are analysed (and embedded, for a dense index) in batches on all cores and
 * added through one {@link IndexWriter}, which is thread-safe. {@link #close()} waits for the batches, commits
 * and writes the {@link IndexMetadata}. Not thread-safe itself: one thread calls {@link #add}.
 *
 * <p>Resumable, for corpora that take hours (DPR's 21M passages): an index on disk is committed every
 * {@code commitEvery} passages, at a point where every passage before it, and none after, is in the index; the commit's
 * user data holds that count ({@value #PASSAGES}), the SHA-256 of those passages and the dense model. Lucene's commits
 * are atomic, so after a kill the folder holds the last commit and nothing of the work after it. Building into a folder
 * holding such an unfinished index (no {@link IndexMetadata#FILE} yet) resumes it: the corpus is read again from the
 * start, its first passages only hashed (and checked against the commit's hash), and indexing goes on after them, so
 * no passage is indexed twice. Memory is bounded by the writer's RAM buffer and the batches in flight, not by the
 * corpus.
 */
public final class IndexBuilder implements AutoCloseable {

    /** Passages between commits, by default: about a minute of BM25 indexing on two cores. */
    public static final long DEFAULT_COMMIT_EVERY = 500_000;

    static final String PASSAGES = "veracity.passages";
    static final String SHA256 = "veracity.sha256";
    static final String MODEL = "veracity.model";
    static final String DIMENSION = "veracity.dimension";

    private static final int SPARSE_BATCH = 512;
    private static final int DENSE_BATCH = 64;
    private static final long SKIP_PROGRESS = 1 << 16;

    private final Directory directory;
    private final Path path;
    private final IndexWriter writer;
    private final PassageVectors vectors;
    private final LongConsumer progress;
    private final ExecutorService pool;
    private final Semaphore inFlight;
    private final int permits;
    private final int batchSize;
    private final long commitEvery;
    private final long resumeAt;
    private final String resumeSha256;
    private final AtomicLong added = new AtomicLong();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final MessageDigest corpusDigest = sha256();
    private List<Document> batch = new ArrayList<>();
    private long batchFirst;
    private long seen;
    private long sinceCommit;
    private boolean closed;

    private IndexBuilder(Directory directory, Path path, Builder b) throws IOException {
        this.directory = directory;
        this.path = path;
        this.vectors = b.vectors;
        this.progress = b.progress == null ? n -> { } : b.progress;
        this.commitEvery = path == null ? Long.MAX_VALUE : b.commitEvery;
        Map<String, String> resume = path == null ? Map.of() : unfinished(directory);
        String model = vectors == null ? "" : vectors.model();
        String dimension = vectors == null ? "0" : Integer.toString(vectors.dimension());
        if (resume.containsKey(PASSAGES) && (!resume.getOrDefault(MODEL, "").equals(model)
                || !resume.getOrDefault(DIMENSION, "0").equals(dimension))) {
            throw new IllegalArgumentException(path + " holds an unfinished index of " + resume.get(PASSAGES)
                    + " passages built " + describe(resume.getOrDefault(MODEL, ""), resume.getOrDefault(DIMENSION, "0"))
                    + ", not " + describe(model, dimension)
                    + ": build it again with the same settings to resume it, or delete the folder");
        }
        this.resumeAt = Long.parseLong(resume.getOrDefault(PASSAGES, "0"));
        this.resumeSha256 = resume.get(SHA256);
        IndexWriterConfig config = new IndexWriterConfig(new AnseriniAnalyzer())
                .setOpenMode(resume.containsKey(PASSAGES) ? IndexWriterConfig.OpenMode.APPEND
                        : IndexWriterConfig.OpenMode.CREATE)
                .setSimilarity(new BM25Similarity(Bm25Retriever.K1, Bm25Retriever.B))
                .setRAMBufferSizeMB(256)
                // Only our commits, which record how many passages they hold: a build that fails must not commit its
                // uncounted rest when the writer closes.
                .setCommitOnClose(false)
                .setUseCompoundFile(false);
        try {
            this.writer = new IndexWriter(directory, config);
        } catch (LockObtainFailedException e) {
            throw new IllegalStateException(path + " is being written by another process (Lucene's write.lock is held)", e);
        }
        int n = Math.max(1, b.threads);
        this.pool = Executors.newFixedThreadPool(n, r -> {
            Thread t = new Thread(r, "veracity-index");
            t.setDaemon(true);
            return t;
        });
        this.permits = 2 * n;
        this.inFlight = new Semaphore(permits); // bounds memory: at most 2 batches per thread queued
        this.batchSize = vectors == null ? SPARSE_BATCH : DENSE_BATCH;
    }

    private static String describe(String model, String dimension) {
        return model.isEmpty() ? "for BM25 only" : "with " + dimension + "-dimensional vectors of " + model;
    }

    /**
     * The user data of the last commit when the folder holds an unfinished build of ours (a commit, no metadata
     * file); else empty, after deleting a finished index's metadata, so that an interrupted rebuild is never opened
     * with the old one's.
     */
    private static Map<String, String> unfinished(Directory dir) throws IOException {
        boolean finished = java.util.Arrays.asList(dir.listAll()).contains(IndexMetadata.FILE);
        if (finished) {
            dir.deleteFile(IndexMetadata.FILE);
            return Map.of();
        }
        if (!DirectoryReader.indexExists(dir)) {
            return Map.of();
        }
        return SegmentInfos.readLatestCommit(dir).getUserData();
    }

    /** A new index in {@code dir}, or the unfinished one there resumed; {@code embedder} null for BM25 only. */
    public static IndexBuilder create(Path dir, Embedder embedder, LongConsumer progress) throws IOException {
        return builder().embedder(embedder).progress(progress).open(dir);
    }

    /** A new index in the given directory (e.g. a {@code ByteBuffersDirectory}); metadata is not written. */
    public static IndexBuilder create(Directory directory, Embedder embedder) throws IOException {
        return builder().embedder(embedder).open(directory);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The settings of a build. */
    public static final class Builder {
        private PassageVectors vectors;
        private LongConsumer progress;
        private long commitEvery = DEFAULT_COMMIT_EVERY;
        private int threads = Runtime.getRuntime().availableProcessors();

        private Builder() {
        }

        /** Passages embedded by this model (null: BM25 only). */
        public Builder embedder(Embedder embedder) {
            return vectors(embedder == null ? null : PassageVectors.embedded(embedder));
        }

        /** Passage vectors from this source (null: BM25 only). */
        public Builder vectors(PassageVectors vectors) {
            this.vectors = vectors;
            return this;
        }

        /** Called with the number of passages in the index so far (skipped ones included when resuming). */
        public Builder progress(LongConsumer progress) {
            this.progress = progress;
            return this;
        }

        public Builder commitEvery(long passages) {
            if (passages < 1) {
                throw new IllegalArgumentException("commit every >= 1 passages, not " + passages);
            }
            this.commitEvery = passages;
            return this;
        }

        /** Threads that analyse (and embed) batches; all cores by default. */
        public Builder threads(int threads) {
            this.threads = threads;
            return this;
        }

        public IndexBuilder open(Path dir) throws IOException {
            Files.createDirectories(dir);
            FSDirectory fs = FSDirectory.open(dir);
            try {
                return new IndexBuilder(fs, dir, this);
            } catch (IOException | RuntimeException e) {
                fs.close();
                throw e;
            }
        }

        public IndexBuilder open(Directory directory) throws IOException {
            return new IndexBuilder(directory, null, this);
        }
    }

    /** Passages of the last commit that this build resumed from (0 for a new index). */
    public long resumedAt() {
        return resumeAt;
    }

    public void add(Document d) {
        if (closed) {
            throw new IllegalStateException("IndexBuilder is closed");
        }
        // add is called by one thread, so the digest follows the corpus order exactly
        corpusDigest.update(IndexFields.checksumLine(d));
        seen++;
        if (seen <= resumeAt) { // already in the index: hashed only
            if (seen == resumeAt) {
                checkResumedPrefix();
            } else if (seen % SKIP_PROGRESS == 0) {
                progress.accept(seen);
            }
            return;
        }
        if (batch.isEmpty()) {
            batchFirst = seen - 1;
        }
        batch.add(d);
        if (batch.size() >= batchSize) {
            flushBatch();
            sinceCommit += batchSize;
            if (sinceCommit >= commitEvery) {
                commit();
                sinceCommit = 0;
            }
        }
    }

    private void checkResumedPrefix() {
        String sha = hex(corpusDigest);
        if (resumeSha256 != null && !resumeSha256.equals(sha)) {
            throw new IllegalStateException("the corpus is not the one " + path + " was being built from: its first "
                    + resumeAt + " passages differ from those in the unfinished index; delete the folder to start again");
        }
        progress.accept(seen);
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

    /** The SHA-256 of what the digest has seen so far, leaving it running. */
    private static String hex(MessageDigest running) {
        try {
            return HexFormat.of().formatHex(((MessageDigest) running.clone()).digest());
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Passages added so far (including those still in flight, and those a resumed build skipped). */
    public long count() {
        return seen;
    }

    private void flushBatch() {
        rethrow();
        List<Document> docs = batch;
        long first = batchFirst;
        batch = new ArrayList<>(batchSize);
        inFlight.acquireUninterruptibly();
        pool.execute(() -> {
            try {
                List<float[]> vs = vectors == null ? null : vectors.vectors(first, docs);
                List<org.apache.lucene.document.Document> lucene = new ArrayList<>(docs.size());
                for (int i = 0; i < docs.size(); i++) {
                    lucene.add(IndexFields.toLucene(docs.get(i), vs == null ? null : vs.get(i)));
                }
                writer.addDocuments(lucene);
                progress.accept(resumeAt + added.addAndGet(docs.size()));
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
            } finally {
                inFlight.release();
            }
        });
    }

    /** Waits until no batch is in flight, then commits the first {@link #seen} passages with their count and hash. */
    private void commit() {
        inFlight.acquireUninterruptibly(permits);
        try {
            rethrow();
            writer.setLiveCommitData(Map.of(PASSAGES, Long.toString(seen), SHA256, hex(corpusDigest),
                    MODEL, vectors == null ? "" : vectors.model(),
                    DIMENSION, vectors == null ? "0" : Integer.toString(vectors.dimension())).entrySet());
            writer.commit();
        } catch (IOException e) {
            throw new UncheckedIOException("commit failed: " + e.getMessage(), e);
        } finally {
            inFlight.release(permits);
        }
    }

    private void rethrow() {
        Throwable t = failure.get();
        if (t != null) {
            throw new IllegalStateException("indexing failed: " + t.getMessage(), t);
        }
    }

    /**
     * Stops without finishing, after a failure while reading the corpus: the batches in flight are dropped and nothing
     * after the last commit is kept, so that the folder holds an unfinished index (to resume), never a finished-looking
     * one with part of the corpus. {@link #close()} afterwards does nothing.
     */
    public void abandon() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        pool.shutdownNow();
        try {
            pool.awaitTermination(1, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            writer.rollback(); // closes the writer, keeping only the last commit
            if (path != null) {
                directory.close();
            }
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
            if (seen < resumeAt) {
                throw new IllegalStateException("the corpus is not the one " + path + " was being built from: it has "
                        + seen + " passages, the unfinished index already " + resumeAt + "; delete the folder to start again");
            }
            if (!batch.isEmpty()) {
                flushBatch();
            }
            pool.shutdown();
            if (!pool.awaitTermination(7, TimeUnit.DAYS)) {
                throw new IOException("indexing did not finish");
            }
            rethrow();
            if (vectors != null) {
                vectors.finish(seen);
            }
            commit();
            if (path != null) {
                new IndexMetadata(seen, vectors == null ? null : vectors.model(),
                        vectors == null ? 0 : vectors.dimension(), HexFormat.of().formatHex(corpusDigest.digest()))
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
