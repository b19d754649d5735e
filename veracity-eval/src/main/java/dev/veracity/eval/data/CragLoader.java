package dev.veracity.eval.data;

import dev.veracity.qa.Document;
import dev.veracity.qa.QaItem;
import java.util.ArrayList;
import java.util.List;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Element;

/**
 * CRAG JSONL (plain or {@code .bz2}, e.g. {@code crag_task_1_dev_v4_release.jsonl.bz2}): {@code interaction_id},
 * {@code query}, {@code query_time} (kept as {@link QaItem#queryTime()}), {@code answer} +
 * {@code alternative_answers} (a list, or a string holding a JSON list such as {@code "[]"}: one gold answer with
 * aliases), {@code domain}, {@code question_type}, {@code static_or_dynamic}, {@code split} (metadata), and
 * {@code search_results[{page_name, page_url, page_snippet, page_result, page_last_modified}]}: documents with
 * title = page_name, text = the page HTML as plain text (jsoup; script, style, noscript, template removed; the
 * snippet when the page is empty) and labels {@code url}, {@code snippet}, {@code last_modified}.
 * {@code crag-snippets} skips the HTML and uses the snippets as text (much faster).
 */
final class CragLoader extends RecordLoader {

    private final boolean fullPages;

    CragLoader(String name, boolean fullPages) {
        super(name);
        this.fullPages = fullPages;
    }

    @Override
    protected QaItem convert(Record rec) {
        Fields f = rec.fields();
        String query = f.text("query");
        List<Document> docs = new ArrayList<>();
        int i = 0;
        for (Fields r : f.objects("search_results", false)) {
            String snippet = r.optText("page_snippet");
            String html = fullPages ? r.optText("page_result") : null;
            String text = html == null || html.isBlank() ? snippet : htmlToText(html);
            Items.Meta labels = new Items.Meta().put("url", r.optText("page_url")).put("snippet", snippet)
                    .put("last_modified", blankToNull(r.optText("page_last_modified")));
            docs.add(new Document(Integer.toString(i++), r.optText("page_name"), text, labels.build()));
        }
        String answer = f.optText("answer");
        List<String> forms = Items.concat(answer == null ? List.of() : List.of(answer),
                f.jsonStrings("alternative_answers"));
        Items.Meta meta = new Items.Meta().put("domain", f.optText("domain"))
                .put("question_type", f.optText("question_type"))
                .put("static_or_dynamic", f.optText("static_or_dynamic")).put("split", f.optText("split"));
        String id = f.optText("interaction_id");
        return new QaItem(id == null ? rec.fallbackId("crag") : id, query, docs, Items.oneGold(forms), null,
                blankToNull(f.optText("query_time")), meta.build(), rec.node());
    }

    /** The visible text of an HTML page: scripts, styles and templates dropped, white space collapsed. */
    static String htmlToText(String html) {
        org.jsoup.nodes.Document page = Jsoup.parse(html);
        page.select("script, style, noscript, template, svg").remove();
        Element body = page.body();
        String title = page.title();
        String text = body == null ? page.text() : body.text();
        return title.isBlank() || text.startsWith(title) ? text : title + "\n" + text;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
