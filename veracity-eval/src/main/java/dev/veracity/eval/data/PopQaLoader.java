package dev.veracity.eval.data;

import dev.veracity.qa.QaItem;

/**
 * PopQA TSV with a header ({@code popQA.tsv}: id, subj, prop, obj, subj_id, prop_id, obj_id, s_aliases, o_aliases,
 * s_uri, o_uri, s_wiki_title, o_wiki_title, s_pop, o_pop, question, possible_answers), or the same columns as JSONL.
 * {@code possible_answers} is a JSON list (in TSV a string holding one): the accepted forms of one gold answer.
 * Metadata: subj, prop, obj, s_pop, o_pop, s_wiki_title, o_wiki_title (those present). No documents.
 */
final class PopQaLoader extends RecordLoader {

    PopQaLoader() {
        super("popqa");
    }

    @Override
    protected QaItem convert(Record rec) {
        Fields f = rec.fields();
        String question = f.text("question");
        Items.Meta meta = new Items.Meta();
        for (String k : new String[] {"subj", "prop", "obj", "s_pop", "o_pop", "s_wiki_title", "o_wiki_title"}) {
            String v = f.optText(k);
            meta.put(k, v == null || v.isEmpty() ? null : v);
        }
        String id = f.optText("id");
        return new QaItem(id == null || id.isEmpty() ? rec.fallbackId(name()) : id, question, null,
                Items.oneGold(f.jsonStrings("possible_answers")), null, null, meta.build(), rec.node());
    }
}
