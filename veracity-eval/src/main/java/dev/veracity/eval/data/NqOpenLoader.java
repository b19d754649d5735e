package dev.veracity.eval.data;

import dev.veracity.qa.QaItem;

/**
 * NQ-open JSONL: {@code question}, {@code answer[]} (the list is the aliases of one answer). Id: {@code id} if
 * present, else {@code nq-open-<line>} (0-based). A file without answers is refused where answers are scored
 * ({@link GoldFields}).
 */
final class NqOpenLoader extends RecordLoader {

    NqOpenLoader() {
        super("nq-open");
    }

    @Override
    protected QaItem convert(Record rec) {
        Fields f = rec.fields();
        String question = f.text("question");
        String id = f.optText("id");
        return new QaItem(id == null ? rec.fallbackId(name()) : id, question, null,
                Items.oneGold(f.strings(f.has("answer") ? "answer" : "answers")), null, null, null, rec.node());
    }
}
