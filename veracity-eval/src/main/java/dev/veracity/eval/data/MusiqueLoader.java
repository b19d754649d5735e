package dev.veracity.eval.data;

import dev.veracity.qa.Document;
import dev.veracity.qa.QaItem;
import java.util.ArrayList;
import java.util.List;

/**
 * MuSiQue JSONL ({@code musique_ans_v1.0_*.jsonl}, {@code musique_full_v1.0_*.jsonl}): {@code id}, {@code question},
 * {@code answer} + {@code answer_aliases} (one gold answer with aliases), {@code answerable},
 * {@code paragraphs[{idx, title, paragraph_text, is_supporting}]} (documents: id = idx, labels
 * {@code supporting}), {@code question_decomposition} (metadata {@code hops} = its length, {@code decomposition} =
 * JSON). Metadata {@code answerable}. {@code musique-answerable} keeps only records with {@code answerable} true
 * (records without the field count as answerable, as in the {@code ans} release).
 */
final class MusiqueLoader extends RecordLoader {

    private final boolean answerableOnly;

    MusiqueLoader(String name, boolean answerableOnly) {
        super(name);
        this.answerableOnly = answerableOnly;
    }

    @Override
    protected QaItem convert(Record rec) {
        Fields f = rec.fields();
        boolean answerable = f.optBool("answerable", true);
        if (answerableOnly && !answerable) {
            return null;
        }
        String question = f.text("question");
        List<Document> docs = new ArrayList<>();
        int i = 0;
        for (Fields p : f.objects("paragraphs", false)) {
            String idx = p.optText("idx");
            docs.add(new Document(idx == null ? Integer.toString(i) : idx, p.optText("title"), p.text("paragraph_text"),
                    new Items.Meta().put("supporting", Boolean.toString(p.optBool("is_supporting", false))).build()));
            i++;
        }
        String answer = f.optText("answer");
        List<String> forms = Items.concat(answer == null ? List.of() : List.of(answer), f.strings("answer_aliases"));
        String id = f.optText("id");
        Items.Meta meta = new Items.Meta().put("answerable", Boolean.toString(answerable));
        if (f.has("question_decomposition")) {
            meta.put("hops", Integer.toString(f.array("question_decomposition", false).size()))
                    .put("decomposition", f.json("question_decomposition"));
        }
        return new QaItem(id == null ? rec.fallbackId("musique") : id, question, docs, Items.oneGold(forms), null, null,
                meta.build(), rec.node());
    }
}
