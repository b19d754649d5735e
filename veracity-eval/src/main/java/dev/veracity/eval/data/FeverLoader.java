package dev.veracity.eval.data;

import dev.veracity.qa.QaItem;
import java.util.List;

/**
 * FEVER JSONL: {@code id}, {@code claim} (the question), {@code label} (SUPPORTS / REFUTES / NOT ENOUGH INFO, the one
 * gold answer; an unlabelled test file is refused where answers are scored, read without gold where they are not),
 * {@code verifiable}, {@code evidence} (kept as JSON in metadata).
 * No documents: the Wikipedia evidence must be retrieved.
 */
final class FeverLoader extends RecordLoader {

    FeverLoader() {
        super("fever");
    }

    @Override
    protected QaItem convert(Record rec) {
        Fields f = rec.fields();
        String claim = f.text("claim");
        String label = f.optText("label");
        String id = f.optText("id");
        return new QaItem(id == null ? rec.fallbackId(name()) : id, claim, null,
                label == null ? List.of() : Items.oneGold(List.of(label)), null, null,
                new Items.Meta().put("verifiable", f.optText("verifiable")).put("evidence", f.json("evidence")).build(),
                rec.node());
    }
}
