package dev.veracity.retrieval.react;

import dev.veracity.retrieval.PageSource;
import dev.veracity.retrieval.lucene.AnseriniAnalyzer;
import dev.veracity.retrieval.lucene.Bm25Retriever;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.function.LongConsumer;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;

/**
 * Writes a {@link PageStore}: one Lucene document per page ({@link PageFields}). A page whose normalised title was
 * added before replaces the earlier one (Wikipedia dumps hold each title once; a source that splits a page into
 * several records, such as a dataset's paragraphs, is grouped by title before it gets here). One thread calls
 * {@link #add}; {@link #close()} commits and, on disk, writes {@link PageStoreMetadata}, the mark
 * {@link PageStore#open} requires. The mark is removed when a build starts and written only when it ends well: a
 * build that failed ({@link #abandon()}) or was killed leaves a folder that is no page store, never one that opens
 * with the pages read before the failure.
 */
public final class PageStoreBuilder implements AutoCloseable {

    private final IndexWriter writer;
    private final Directory directory;
    private final Path dir;
    private final String format;
    private final String source;
    private final LongConsumer progress;
    private final MessageDigest digest = sha256();
    private long added;
    private boolean closed;

    private PageStoreBuilder(Directory directory, Path dir, String format, String source, LongConsumer progress)
            throws IOException {
        IndexWriterConfig config = new IndexWriterConfig(new AnseriniAnalyzer())
                .setOpenMode(IndexWriterConfig.OpenMode.CREATE)
                .setSimilarity(new BM25Similarity(Bm25Retriever.K1, Bm25Retriever.B))
                .setRAMBufferSizeMB(128);
        this.writer = new IndexWriter(directory, config);
        this.directory = directory;
        this.dir = dir;
        this.format = format;
        this.source = source;
        this.progress = progress == null ? n -> { } : progress;
    }

    /** A new page store in {@code dir}, replacing one there. */
    public static PageStoreBuilder create(Path dir, PageFormat format, Path source, LongConsumer progress)
            throws IOException {
        Files.createDirectories(dir);
        Files.deleteIfExists(dir.resolve(PageStoreMetadata.FILE));
        return new PageStoreBuilder(FSDirectory.open(dir), dir, format.cliName(), String.valueOf(source), progress);
    }

    /** A page store in the given Lucene directory (in memory for a question's own paragraphs); no metadata file. */
    static PageStoreBuilder create(Directory directory) throws IOException {
        return new PageStoreBuilder(directory, null, "documents", "", null);
    }

    /** Adds a page; pages without a title or without text are skipped (nothing could find or show them). */
    public void add(PageSource.Page page) {
        if (closed) {
            throw new IllegalStateException("PageStoreBuilder is closed");
        }
        String key = PageStore.normalise(page.title());
        if (key.isEmpty() || page.sentences().isEmpty()) {
            return;
        }
        digest.update((page.title().strip() + "\n" + String.join("\t", page.sentences()) + "\n")
                .getBytes(StandardCharsets.UTF_8));
        try {
            writer.updateDocument(new Term(PageFields.KEY, key), PageFields.toLucene(page));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write page '" + page.title() + "': " + e.getMessage(), e);
        }
        added++;
        if ((added & 1023) == 0) {
            progress.accept(added);
        }
    }

    /** Pages added (a title added twice counts twice; the store holds it once). */
    public long count() {
        return added;
    }

    /**
     * Stops without finishing, after a failure while reading the pages: nothing added is committed and no
     * {@link PageStoreMetadata} is written, so {@link PageStore#open} refuses the folder (saying how to build a store)
     * instead of opening the pages read before the failure. {@link #close()} afterwards does nothing.
     */
    public void abandon() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            writer.rollback(); // closes the writer; nothing of this build is committed
        } finally {
            if (dir != null) {
                directory.close();
            }
        }
    }

    /** Commits the pages and, on disk, writes the metadata that makes the folder a page store. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            writer.commit();
            long pages = writer.getDocStats().numDocs;
            writer.close();
            progress.accept(added);
            if (dir != null) {
                new PageStoreMetadata(pages, format, source, HexFormat.of().formatHex(digest.digest())).write(dir);
            }
        } finally {
            if (dir != null) {
                directory.close();
            }
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
