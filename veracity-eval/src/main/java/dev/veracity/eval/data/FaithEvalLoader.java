package dev.veracity.eval.data;

import com.fasterxml.jackson.databind.JsonNode;
import dev.veracity.qa.Document;
import dev.veracity.qa.QaItem;
import java.util.ArrayList;
import java.util.List;

/**
 * FaithEval (Salesforce/FaithEval-{unanswerable,inconsistent,counterfactual}-v1.0 exported as JSONL or a JSON
 * array). Fields: {@code id}/{@code qid}, {@code question}, {@code context} (a string, or a list of strings for
 * several passages; each is one document), and the answer in any of these forms:
 * <ul>
 *   <li>{@code answers} (list) or {@code answer} (string): one gold answer, the list being its accepted forms;</li>
 *   <li>{@code answerKey} with {@code choices {label[], text[]}} (counterfactual, multiple choice) or
 *       {@code options} (list, or object label → text): gold = the keyed choice's text with the key letter as an
 *       alias; metadata {@code options} = "A. text" lines.</li>
 * </ul>
 * Metadata: {@code task} (unanswerable / inconsistent / counterfactual, from the file name), {@code subset} (the
 * field: the source dataset), {@code answer_key}, {@code justification}.
 */
final class FaithEvalLoader extends RecordLoader {

    FaithEvalLoader() {
        super("faitheval");
    }

    @Override
    protected QaItem convert(Record rec) {
        Fields f = rec.fields();
        String question = f.text("question");
        List<Document> docs = new ArrayList<>();
        String ctxField = f.firstPresent("context", "contexts");
        if (ctxField != null) {
            JsonNode ctx = f.node().get(ctxField);
            List<String> passages = ctx.isArray() ? f.strings(ctxField) : List.of(f.text(ctxField));
            for (int i = 0; i < passages.size(); i++) {
                docs.add(Document.of(Integer.toString(i), "", passages.get(i)));
            }
        }
        List<String> labels = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        Fields choices = f.object("choices");
        if (choices != null) {
            labels.addAll(choices.strings("label"));
            texts.addAll(choices.strings("text"));
        } else if (f.has("options")) {
            JsonNode opts = f.node().get("options");
            if (opts.isObject()) {
                opts.properties().forEach(e -> {
                    labels.add(e.getKey());
                    texts.add(e.getValue().asText());
                });
            } else {
                texts.addAll(f.strings("options"));
                for (int i = 0; i < texts.size(); i++) {
                    labels.add(String.valueOf((char) ('A' + i)));
                }
            }
        }
        String key = f.optText("answerKey");
        List<String> forms = new ArrayList<>();
        if (key != null && !texts.isEmpty()) {
            int k = labels.indexOf(key);
            if (k < 0 || k >= texts.size()) {
                throw f.error("answerKey \"" + key + "\" is not among the choice labels " + labels);
            }
            forms.add(texts.get(k));
            forms.add(key);
        } else if (f.has("answers")) {
            forms.addAll(f.strings("answers"));
        } else if (f.has("answer")) {
            forms.addAll(f.strings("answer"));
        } else if (key != null) {
            forms.add(key);
        }
        Items.Meta meta = new Items.Meta().put("task", task(rec)).put("subset", f.optText("subset")).put("answer_key", key)
                .put("justification", f.optText("justification"));
        if (!texts.isEmpty()) {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < texts.size(); i++) {
                b.append(i == 0 ? "" : "\n").append(i < labels.size() ? labels.get(i) : "?").append(". ")
                        .append(texts.get(i));
            }
            meta.put("options", b.toString());
        }
        String id = f.optTextOneOf("id", "qid");
        return new QaItem(id == null ? rec.fallbackId(name()) : id, question, docs, Items.oneGold(forms), null, null,
                meta.build(), rec.node());
    }

    private static String task(Record rec) {
        String file = Sources.formatName(rec.file());
        for (String known : List.of("unanswerable", "inconsistent", "counterfactual")) {
            if (file.contains(known)) {
                return known;
            }
        }
        return null;
    }
}
