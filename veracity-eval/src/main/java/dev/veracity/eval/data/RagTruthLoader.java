package dev.veracity.eval.data;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.qa.Document;
import dev.veracity.qa.QaItem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * RAGTruth (hallucination spans in RAG responses). What is supported:
 * <ul>
 *   <li>the release's {@code response.jsonl} ({@code id, source_id, model, response, labels[{start, end, text,
 *       label_type, ...}], split, quality}): when a {@code source_info.jsonl} lies beside it, each response is
 *       joined with its source ({@code source_id, task_type, source, source_info, prompt}) — that file is small
 *       and read into memory; the responses are streamed;</li>
 *   <li>{@code source_info.jsonl} alone (one item per source, no response);</li>
 *   <li>any JSONL / JSON array whose records carry those fields already joined, or the simple shape
 *       {@code id, question|query, context (string or list), response, labels}.</li>
 * </ul>
 * Item: id = {@code id}, else {@code source_id}, else {@code ragtruth-<index>}; question = {@code question} /
 * {@code query} / {@code source_info.question}, else the {@code prompt} (summary and data-to-text tasks have no
 * question); documents = {@code context}, or the QA passages of {@code source_info.passages} split at
 * "passage N:", or the summary text, or the data-to-text JSON. No gold (RAGTruth has none; {@code answer} /
 * {@code answers} are used if present). Metadata: {@code source_id}, {@code task_type}, {@code source},
 * {@code model}, {@code split}, {@code quality}, {@code response}, {@code hallucination_spans} (the labels as
 * JSON), {@code hallucination_count}, {@code hallucinated} (true / false; only when the record has labels).
 */
final class RagTruthLoader extends RecordLoader {

    private static final Pattern PASSAGE = Pattern.compile("(?i)(?:^|\\n)\\s*passage\\s*\\d+\\s*:\\s*");

    RagTruthLoader() {
        super("ragtruth");
    }

    @Override
    public Stream<QaItem> stream(Path file, GoldFields gold) {
        Path sources = file.resolveSibling("source_info.jsonl");
        if (!Sources.formatName(file).startsWith("response.") || !Files.isRegularFile(sources)) {
            return super.stream(file, gold);
        }
        Map<String, JsonNode> bySource = new HashMap<>();
        try (Stream<Record> records = Records.open(sources)) {
            records.forEach(r -> bySource.put(r.fields().textOrNumber("source_id"), r.node()));
        }
        Stream<Record> responses = Records.open(file);
        return items(responses.map(r -> {
            String sid = r.fields().textOrNumber("source_id");
            JsonNode src = bySource.get(sid);
            if (src == null) {
                throw r.error("source_id \"" + sid + "\" is not in " + sources.getFileName());
            }
            ObjectNode joined = ((ObjectNode) src).deepCopy();
            joined.setAll((ObjectNode) r.node());
            return new Record(r.file(), r.where(), r.index(), joined);
        }), gold);
    }

    @Override
    protected QaItem convert(Record rec) {
        Fields f = rec.fields();
        Fields info = null;
        String infoText = null;
        if (f.has("source_info")) {
            JsonNode si = f.node().get("source_info");
            if (si.isObject()) {
                info = f.object("source_info");
            } else {
                infoText = f.optText("source_info");
            }
        }
        String question = f.optTextOneOf("question", "query");
        if (question == null && info != null) {
            question = info.optText("question");
        }
        if (question == null) {
            question = f.optText("prompt");
        }
        if (question == null) {
            throw f.error("missing field \"question\" (nor \"query\", \"source_info.question\" or \"prompt\")");
        }
        List<String> passages = new ArrayList<>();
        if (f.has("context")) {
            passages.addAll(f.node().get("context").isArray() ? f.strings("context") : List.of(f.text("context")));
        } else if (f.has("passages")) {
            passages.addAll(f.node().get("passages").isArray() ? f.strings("passages") : split(f.text("passages")));
        } else if (info != null && info.has("passages")) {
            passages.addAll(split(info.text("passages")));
        } else if (info != null) {
            passages.add(info.node().toString());
        } else if (infoText != null) {
            passages.add(infoText);
        }
        List<Document> docs = new ArrayList<>();
        for (int i = 0; i < passages.size(); i++) {
            docs.add(Document.of(Integer.toString(i), "", passages.get(i)));
        }
        Items.Meta meta = new Items.Meta();
        for (String k : new String[] {"source_id", "task_type", "source", "model", "split", "quality", "response"}) {
            meta.put(k, f.optText(k));
        }
        if (f.has("labels")) {
            JsonNode labels = f.array("labels", false);
            meta.put("hallucination_spans", labels.toString())
                    .put("hallucination_count", Integer.toString(labels.size()))
                    .put("hallucinated", Boolean.toString(!labels.isEmpty()));
        }
        List<String> answers = f.strings(f.has("answers") ? "answers" : "answer");
        String id = f.optTextOneOf("id", "source_id");
        return new QaItem(id == null ? rec.fallbackId(name()) : id, question, docs, Items.oneGold(answers), null,
                null, meta.build(), rec.node());
    }

    private static List<String> split(String passages) {
        List<String> out = new ArrayList<>();
        for (String p : PASSAGE.split(passages)) {
            if (!p.isBlank()) {
                out.add(p.strip());
            }
        }
        return out;
    }
}
