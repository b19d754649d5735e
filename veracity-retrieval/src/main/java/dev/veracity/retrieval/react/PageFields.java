package dev.veracity.retrieval.react;

import dev.veracity.retrieval.PageSource;
import java.util.List;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.IndexOptions;

/**
 * The page store's Lucene schema, one Lucene document per page: {@code key} (the normalised title, exact lookups),
 * {@code title} (analysed and stored), {@code lead} (the page's first sentences, analysed: what {@code Search} shows,
 * so a name that is no title still finds the page that opens with it), and the stored {@code paragraph} and
 * {@code sentence} values in order.
 */
final class PageFields {

    static final String KEY = "key";
    static final String TITLE = "title";
    static final String LEAD = "lead";
    static final String PARAGRAPH = "paragraph";
    static final String SENTENCE = "sentence";

    /** How many sentences of a page the "Similar:" search reads besides its title: those Search shows. */
    static final int LEAD_SENTENCES = WikiEnvironment.SEARCH_SENTENCES;

    private static final FieldType ANALYSED_STORED = analysed(true);
    private static final FieldType ANALYSED = analysed(false);

    private PageFields() {
    }

    private static FieldType analysed(boolean stored) {
        FieldType t = new FieldType();
        t.setTokenized(true);
        t.setStored(stored);
        t.setIndexOptions(IndexOptions.DOCS_AND_FREQS);
        t.freeze();
        return t;
    }

    static Document toLucene(PageSource.Page page) {
        Document doc = new Document();
        doc.add(new StringField(KEY, PageStore.normalise(page.title()), Field.Store.NO));
        doc.add(new Field(TITLE, page.title(), ANALYSED_STORED));
        doc.add(new Field(LEAD, lead(page), ANALYSED));
        List<String> sentences = page.sentences();
        page.paragraphs().forEach(p -> doc.add(new StoredField(PARAGRAPH, p)));
        sentences.forEach(s -> doc.add(new StoredField(SENTENCE, s)));
        return doc;
    }

    /** The page's lead: its first sentences, those Search shows, joined by spaces. */
    static String lead(PageSource.Page page) {
        List<String> sentences = page.sentences();
        return String.join(" ", sentences.subList(0, Math.min(LEAD_SENTENCES, sentences.size())));
    }

    static PageSource.Page fromLucene(Document doc) {
        return new PageSource.Page(doc.get(TITLE), List.of(doc.getValues(PARAGRAPH)), List.of(doc.getValues(SENTENCE)));
    }
}
