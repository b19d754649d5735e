package dev.veracity.eval.data;

import dev.veracity.qa.Document;
import dev.veracity.qa.QaItem;
import java.util.ArrayList;
import java.util.List;

/**
 * AmbigDocs (JSON array or JSONL): {@code qid}/{@code id}, {@code question}, {@code ambiguous_entity},
 * {@code documents[{title, text, answer, pid}]}. Gold = the distinct document answers in order (one
 * {@link dev.veracity.qa.GoldAnswer} each; a top-level {@code answers} list is used when present instead).
 * Documents: id = {@code pid} or index, title, text, labels {@code answer}. Metadata {@code ambiguous_entity}.
 */
final class AmbigDocsLoader extends RecordLoader {

    AmbigDocsLoader() {
        super("ambigdocs");
    }

    @Override
    protected QaItem convert(Record rec) {
        Fields f = rec.fields();
        String question = f.text("question");
        List<Document> docs = new ArrayList<>();
        List<String> answers = new ArrayList<>();
        int i = 0;
        for (Fields d : f.objects("documents", true)) {
            List<String> docAnswers = d.strings("answer");
            answers.addAll(docAnswers);
            String pid = d.optTextOneOf("pid", "id");
            Items.Meta labels = new Items.Meta().put("answer", docAnswers.isEmpty() ? null : String.join(" | ",
                    docAnswers));
            docs.add(new Document(pid == null ? Integer.toString(i) : pid, d.optText("title"), d.text("text"),
                    labels.build()));
            i++;
        }
        if (f.has("answers")) {
            answers = f.strings("answers");
        }
        String id = f.optTextOneOf("qid", "id");
        return new QaItem(id == null ? rec.fallbackId(name()) : id, question, docs, Items.eachGold(answers), null,
                null, new Items.Meta().put("ambiguous_entity", f.optText("ambiguous_entity")).build(), rec.node());
    }
}
