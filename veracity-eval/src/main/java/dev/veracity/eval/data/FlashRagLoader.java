package dev.veracity.eval.data;

import com.fasterxml.jackson.databind.JsonNode;
import dev.veracity.qa.Document;
import dev.veracity.qa.QaItem;
import dev.veracity.retrieval.Passage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * FlashRAG's dataset JSONL, the generic format ({@code --dataset flashrag}, alias {@code jsonl}): one object a line
 * with {@code question}, {@code golden_answers} (a list: the accepted forms of the answer, or one string), optional
 * {@code id} (else {@code flashrag-<line>}), optional {@code metadata} (an object; its scalar fields become the
 * item's metadata, others kept as JSON), and optional contexts in {@code documents}, {@code contexts} or
 * {@code ctxs}: each element a string or an object with {@code title} and {@code text} or {@code contents}
 * (FlashRAG's corpus field, whose first line is the title when there is no title field).
 */
final class FlashRagLoader extends RecordLoader {

    FlashRagLoader() {
        super("flashrag");
    }

    @Override
    protected QaItem convert(Record rec) {
        Fields f = rec.fields();
        String question = f.text("question");
        List<String> gold = f.strings("golden_answers");
        String id = f.optText("id");
        return new QaItem(id == null ? rec.fallbackId(name()) : id, question, documents(rec, f), Items.oneGold(gold),
                null, null, metadata(rec, f), rec.node());
    }

    private static List<Document> documents(Record rec, Fields f) {
        String field = f.firstPresent("documents", "contexts", "ctxs");
        if (field == null) {
            return List.of();
        }
        JsonNode arr = f.array(field, false);
        List<Document> docs = new ArrayList<>(arr.size());
        for (int i = 0; i < arr.size(); i++) {
            JsonNode e = arr.get(i);
            String where = field + "[" + i + "]";
            if (e.isTextual()) {
                docs.add(Document.of(Integer.toString(i), "", e.asText()));
                continue;
            }
            if (!e.isObject()) {
                throw rec.error("field \"" + where + "\" must be a string or an object, found " + Fields.kind(e));
            }
            JsonNode text = e.has("text") ? e.get("text") : e.get("contents");
            if (text == null || !text.isTextual()) {
                throw rec.error("field \"" + where + "\" needs a string \"text\" or \"contents\"");
            }
            JsonNode title = e.get("title");
            String t = title != null && title.isValueNode() && !title.isNull() ? title.asText() : "";
            String body = text.asText();
            if (t.isEmpty() && !e.has("text")) {
                Passage split = Passage.fromContents("", body, 0); // FlashRAG's corpus: contents = "title\ntext"
                t = split.title();
                body = split.text();
            }
            JsonNode docId = e.get("id");
            docs.add(Document.of(docId != null && docId.isValueNode() ? docId.asText() : Integer.toString(i), t, body));
        }
        return docs;
    }

    private static Map<String, String> metadata(Record rec, Fields f) {
        JsonNode m = f.node().get("metadata");
        Items.Meta meta = new Items.Meta();
        if (m == null || m.isNull()) {
            return meta.build();
        }
        if (!m.isObject()) {
            throw rec.error("field \"metadata\" must be an object, found " + Fields.kind(m));
        }
        m.fields().forEachRemaining(e -> meta.put(e.getKey(),
                e.getValue().isValueNode() ? e.getValue().asText() : e.getValue().toString()));
        return meta.build();
    }
}
