package dev.veracity.retrieval.react;

import dev.veracity.retrieval.PageSource;
import dev.veracity.retrieval.corpus.Document;
import dev.veracity.retrieval.lucene.AnseriniAnalyzer;
import dev.veracity.retrieval.lucene.Bm25Retriever;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;

/**
 * Pages by title for the ReAct environment, in a Lucene index: exact lookups by normalised title ({@link
 * #normalise}), and for a name with no page the nearest titles by BM25 over each page's title (counted twice) and
 * its lead (the first sentences, those {@code Search} shows), as Wikipedia's search suggests pages whose title or
 * opening names the entity. On disk ({@link #open}, built by {@link PageStoreBuilder} or {@code ./veracity index
 * --pages}: memory-mapped, opens in milliseconds) or in memory from documents at hand ({@link #of}, a question's own
 * paragraphs). Thread-safe; close it when done.
 */
public final class PageStore implements PageSource {

    /** How much more a query word in a title counts than one in the lead. */
    public static final float TITLE_BOOST = 2f;

    private final Directory directory;
    private final DirectoryReader reader;
    private final IndexSearcher searcher;
    private final AnseriniAnalyzer analyzer = new AnseriniAnalyzer();
    private final PageStoreMetadata metadata;

    private PageStore(Directory directory, PageStoreMetadata metadata) throws IOException {
        this.directory = directory;
        this.reader = DirectoryReader.open(directory);
        this.searcher = new IndexSearcher(reader);
        this.searcher.setSimilarity(new BM25Similarity(Bm25Retriever.K1, Bm25Retriever.B));
        this.metadata = metadata;
    }

    /**
     * Opens a page store built by {@link PageStoreBuilder}; a folder that is none (missing, or a retrieval index) is
     * an IOException whose message says how to build one.
     */
    public static PageStore open(Path dir) throws IOException {
        PageStoreMetadata meta = PageStoreMetadata.read(dir);
        return new PageStore(FSDirectory.open(dir), meta);
    }

    /**
     * A store of the documents' pages ({@link #pages}), in memory. For a question's own paragraphs,
     * {@link QuestionPageSource} answers the same without building an index.
     */
    public static PageStore of(Iterable<Document> documents) {
        List<Page> pages = pages(documents);
        try {
            Directory dir = new ByteBuffersDirectory();
            try (PageStoreBuilder b = PageStoreBuilder.create(dir)) {
                pages.forEach(b::add);
            }
            return new PageStore(dir, new PageStoreMetadata(pages.size(), "documents", "", null));
        } catch (IOException e) {
            throw new UncheckedIOException(e); // memory only: no I/O can fail
        }
    }

    /**
     * The documents' pages: documents that share a title ({@link #normalise}d) are one page, their texts its
     * paragraphs in the order given; documents without a title are skipped (nothing could search for them), and so
     * are documents without text.
     */
    static List<Page> pages(Iterable<Document> documents) {
        Map<String, String> titleOf = new LinkedHashMap<>();
        Map<String, List<String>> paragraphs = new LinkedHashMap<>();
        for (Document d : documents) {
            String key = normalise(d.title());
            if (key.isEmpty() || d.text().isBlank()) {
                continue;
            }
            titleOf.putIfAbsent(key, d.title().strip());
            paragraphs.computeIfAbsent(key, k -> new ArrayList<>()).add(d.text().strip());
        }
        List<Page> pages = new ArrayList<>(paragraphs.size());
        paragraphs.forEach((key, paras) -> pages.add(page(titleOf.get(key), paras)));
        return pages;
    }

    /** A page of these paragraphs, split into sentences by {@link SentenceSplitter}. */
    public static Page page(String title, List<String> paragraphs) {
        List<String> sentences = new ArrayList<>();
        paragraphs.forEach(p -> sentences.addAll(SentenceSplitter.split(p)));
        return new Page(title.strip(), paragraphs, sentences);
    }

    /**
     * The key titles match on: Unicode NFKC, underscores as spaces (Wikipedia URLs), surrounding quotes removed,
     * whitespace collapsed, lower case. So {@code Search[ "barack_obama" ]} finds "Barack Obama"; punctuation and
     * accents still matter ("Beyonce" is not "Beyoncé").
     */
    public static String normalise(String title) {
        if (title == null) {
            return "";
        }
        String t = Normalizer.normalize(title, Normalizer.Form.NFKC).replace('_', ' ').strip();
        t = ActionParser.unquote(t);
        return t.replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
    }

    public PageStoreMetadata metadata() {
        return metadata;
    }

    @Override
    public Optional<Page> page(String title) {
        String key = normalise(title);
        if (key.isEmpty()) {
            return Optional.empty();
        }
        try {
            TopDocs hit = searcher.search(new TermQuery(new Term(PageFields.KEY, key)), 1);
            if (hit.scoreDocs.length == 0) {
                return Optional.empty();
            }
            return Optional.of(PageFields.fromLucene(searcher.storedFields().document(hit.scoreDocs[0].doc)));
        } catch (IOException e) {
            throw new UncheckedIOException("page store lookup failed: " + e.getMessage(), e);
        }
    }

    @Override
    public List<String> similarTitles(String query, int n) {
        try {
            List<String> out = new ArrayList<>();
            var stored = searcher.storedFields();
            for (ScoreDoc d : similar(query, n)) {
                out.add(stored.document(d.doc, java.util.Set.of(PageFields.TITLE)).get(PageFields.TITLE));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("page store search failed: " + e.getMessage(), e);
        }
    }

    /** The top {@code n} pages for {@code query} with their scores and Lucene document numbers (the pages' order). */
    ScoreDoc[] similar(String query, int n) throws IOException {
        Query title = Bm25Retriever.bagOfWords(analyzer, PageFields.TITLE, query);
        Query lead = Bm25Retriever.bagOfWords(analyzer, PageFields.LEAD, query);
        if (title == null || n <= 0) {
            return new ScoreDoc[0]; // no word survives analysis (empty, only stop words)
        }
        Query q = new BooleanQuery.Builder()
                .add(new BoostQuery(title, TITLE_BOOST), BooleanClause.Occur.SHOULD)
                .add(lead, BooleanClause.Occur.SHOULD).build();
        return searcher.search(q, n).scoreDocs;
    }

    @Override
    public long size() {
        return reader.numDocs();
    }

    @Override
    public void close() {
        try {
            reader.close();
            directory.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
