package dev.veracity.eval.data;

import com.fasterxml.jackson.databind.JsonNode;
import dev.veracity.qa.Document;
import dev.veracity.qa.QaItem;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * HotpotQA and 2WikiMultihopQA (same shape), a JSON array (or JSONL) of records, told apart per record by fields:
 * <ul>
 *   <li>full (the official train / dev distractor / fullwiki files): {@code _id}, {@code question}, {@code answer},
 *       {@code type}, {@code level}, {@code supporting_facts [[title, sentence index]]},
 *       {@code context [[title, [sentences]]]}; 2Wiki adds {@code evidences [[subject, relation, object]]} and
 *       {@code entity_ids}. Documents are the paragraphs in order: id = index, title, text = the sentences joined
 *       as written (HotpotQA sentences carry their own leading spaces; 2Wiki's are joined with a space when they
 *       do not), labels {@code supporting=true|false} and {@code supporting_sentences} (e.g. {@code 0,2});</li>
 *   <li>simplified ({@code question}, {@code answer}, {@code type}, no context): no documents.</li>
 * </ul>
 * The answer is one gold answer (test files without it are refused where answers are scored). Metadata: {@code type}, {@code level},
 * {@code evidences} (JSON). Id: {@code _id} / {@code id}, else {@code <name>-<index>} (0-based).
 */
final class HotpotLoader extends RecordLoader {

    HotpotLoader(String name) {
        super(name);
    }

    @Override
    protected QaItem convert(Record rec) {
        Fields f = rec.fields();
        String question = f.text("question");
        Map<String, TreeSet<Integer>> supporting = new LinkedHashMap<>();
        JsonNode facts = f.array("supporting_facts", false);
        for (int i = 0; i < facts.size(); i++) {
            JsonNode sf = facts.get(i);
            if (!sf.isArray() || sf.size() < 2 || !sf.get(0).isTextual() || !sf.get(1).canConvertToInt()) {
                throw f.error("field \"supporting_facts[" + i + "]\" must be [title, sentence index], found " + sf);
            }
            supporting.computeIfAbsent(sf.get(0).textValue(), k -> new TreeSet<>()).add(sf.get(1).asInt());
        }
        List<Document> docs = new ArrayList<>();
        JsonNode context = f.array("context", false);
        for (int i = 0; i < context.size(); i++) {
            JsonNode para = context.get(i);
            String path = "context[" + i + "]";
            if (!para.isArray() || para.size() < 2 || !para.get(0).isTextual() || !para.get(1).isArray()) {
                throw f.error("field \"" + path + "\" must be [title, [sentences]], found " + Fields.kind(para));
            }
            String title = para.get(0).textValue();
            StringBuilder text = new StringBuilder();
            JsonNode sentences = para.get(1);
            for (int s = 0; s < sentences.size(); s++) {
                JsonNode sentence = sentences.get(s);
                if (!sentence.isTextual()) {
                    throw f.error("field \"" + path + "[1][" + s + "]\" must be a string, found "
                            + Fields.kind(sentence));
                }
                String t = sentence.textValue();
                if (!text.isEmpty() && !t.isEmpty() && !Character.isWhitespace(t.charAt(0))
                        && !Character.isWhitespace(text.charAt(text.length() - 1))) {
                    text.append(' ');
                }
                text.append(t);
            }
            TreeSet<Integer> sup = supporting.get(title);
            Items.Meta labels = new Items.Meta().put("supporting", Boolean.toString(sup != null));
            if (sup != null) {
                labels.put("supporting_sentences", String.join(",", sup.stream().map(String::valueOf).toList()));
            }
            docs.add(new Document(Integer.toString(i), title, text.toString(), labels.build()));
        }
        String answer = f.optText("answer");
        String id = f.optTextOneOf("_id", "id");
        Items.Meta meta = new Items.Meta().put("type", f.optText("type")).put("level", f.optText("level"))
                .put("evidences", f.json("evidences"));
        return new QaItem(id == null ? rec.fallbackId(name()) : id, question, docs,
                answer == null ? List.of() : Items.oneGold(List.of(answer)), null, null, meta.build(), rec.node());
    }
}
