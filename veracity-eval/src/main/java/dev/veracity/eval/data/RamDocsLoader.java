package dev.veracity.eval.data;

import dev.veracity.qa.Document;
import dev.veracity.qa.QaItem;
import java.util.ArrayList;
import java.util.List;

/**
 * RAMDocs (MADAM-RAG) JSONL: {@code question}, {@code documents[{text, type, answer}]}, {@code disambig_entity},
 * {@code gold_answers}, {@code wrong_answers}. Each gold answer is its own {@link dev.veracity.qa.GoldAnswer}
 * (several valid answers); documents carry labels {@code type} (correct / misinfo / noise) and {@code answer};
 * metadata {@code disambig_entity} (JSON list). Id: {@code id} if present, else {@code ramdocs-<line>} (0-based).
 */
final class RamDocsLoader extends RecordLoader {

    RamDocsLoader() {
        super("ramdocs");
    }

    @Override
    protected QaItem convert(Record rec) {
        Fields f = rec.fields();
        String question = f.text("question");
        List<Document> docs = new ArrayList<>();
        int i = 0;
        for (Fields d : f.objects("documents", true)) {
            Items.Meta labels = new Items.Meta().put("type", d.optText("type")).put("answer", d.optText("answer"));
            docs.add(new Document(Integer.toString(i++), d.optText("title"), d.text("text"), labels.build()));
        }
        String id = f.optTextOneOf("id", "qid");
        return new QaItem(id == null ? rec.fallbackId(name()) : id, question, docs,
                Items.eachGold(f.strings("gold_answers")), f.strings("wrong_answers"), null,
                new Items.Meta().put("disambig_entity", f.json("disambig_entity")).build(), rec.node());
    }
}
