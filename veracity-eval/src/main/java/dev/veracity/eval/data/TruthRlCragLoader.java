package dev.veracity.eval.data;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.veracity.qa.Document;
import dev.veracity.qa.QaItem;
import java.util.ArrayList;
import java.util.List;

/**
 * TruthRL's processed CRAG, the references the paper's CRAG numbers come from (Hugging Face
 * {@code weizhepei/TruthRL-CRAG}, exported to JSONL or a JSON array), read as the authors' evaluation reads it
 * ({@code evaluation/evaluate.py} and {@code model.py}, kalash-kala/TruthRL @2c40298): {@code interaction_id},
 * {@code query}, {@code query_time} (a string, or a number kept as its text), {@code answer} + {@code alt_ans} (a list,
 * or a string holding a JSON or Python list, or one answer; {@code alternative_answers} when there is no
 * {@code alt_ans}) as one gold answer with its aliases, {@code domain}, {@code question_type},
 * {@code static_or_dynamic} (metadata), an optional {@code out_of_knowledge} flag (top level or under
 * {@code reward_model.ground_truth}, as the authors' fork keeps it), and {@code retrieved_chunks}:
 * {@code [{chunk_text, bge_score, oracle_score, ...}]}.
 *
 * <p>The documents are the chunks the authors' {@code format_prompts} keeps, in order: a chunk with a
 * {@code bge_score} is kept when it is at least {@value #MIN_BGE}; one without (absent or null) is kept when its
 * {@code oracle_score}, if any, is at least {@value #MIN_ORACLE}; a chunk with neither is kept. Each becomes a document
 * without title whose text is {@code chunk_text}, so that the TruthRL prompt shows
 * {@code <DOC>\nDocument [i]: chunk_text\n</DOC>} as theirs does (the 80,000-character cap is the prompt's,
 * {@code TruthRlPrompts}). The scores are kept as labels.
 */
final class TruthRlCragLoader extends RecordLoader {

    /** The authors skip a chunk whose bge_score is below this. */
    static final double MIN_BGE = 2;
    /** ... and, for a chunk without a bge_score, one whose oracle_score is below this. */
    static final double MIN_ORACLE = 3;

    TruthRlCragLoader(String name) {
        super(name);
    }

    @Override
    protected QaItem convert(Record rec) {
        Fields f = rec.fields();
        String query = f.text("query");
        List<Document> docs = new ArrayList<>();
        int i = 0;
        for (Fields c : f.objects("retrieved_chunks", false)) {
            Double bge = score(c, "bge_score");
            Double oracle = score(c, "oracle_score");
            if (bge != null ? bge < MIN_BGE : oracle != null && oracle < MIN_ORACLE) {
                continue;
            }
            Items.Meta labels = new Items.Meta().put("bge_score", bge == null ? null : c.optText("bge_score"))
                    .put("oracle_score", oracle == null ? null : c.optText("oracle_score"))
                    .put("page_name", c.has("page_name") ? c.optText("page_name") : null)
                    .put("page_url", c.has("page_url") ? c.optText("page_url") : null);
            docs.add(new Document(Integer.toString(i++), "", c.text("chunk_text"), labels.build()));
        }
        String answer = f.optText("answer");
        List<String> forms = new ArrayList<>();
        if (answer != null) {
            forms.add(answer);
        }
        forms.addAll(alternatives(f, f.has("alt_ans") ? "alt_ans" : "alternative_answers"));
        Items.Meta meta = new Items.Meta().put("domain", f.optText("domain"))
                .put("question_type", f.optText("question_type"))
                .put("static_or_dynamic", f.optText("static_or_dynamic"))
                .put("out_of_knowledge", outOfKnowledge(f));
        String id = f.optText("interaction_id");
        String time = f.optText("query_time");
        return new QaItem(id == null ? rec.fallbackId(name()) : id, query, docs, Items.oneGold(forms), null,
                time == null || time.isBlank() ? null : time, meta.build(), rec.node());
    }

    /** A chunk's score: a number (or a number's text), null when absent or null. */
    private static Double score(Fields c, String field) {
        if (!c.has(field)) {
            return null;
        }
        JsonNode v = c.node().get(field);
        if (v.isNumber()) {
            return v.doubleValue();
        }
        if (v.isTextual()) {
            try {
                return Double.valueOf(v.textValue().strip());
            } catch (NumberFormatException e) {
                // reported below
            }
        }
        throw c.error("field \"" + c.path(field) + "\" must be a number, found " + Fields.kind(v));
    }

    /**
     * The alternative answers as the authors read them: a list; a string holding a list ({@code "[]"}, JSON, or a
     * Python literal such as {@code "['a', \"b's\"]"}, as their {@code ast.literal_eval} reads); any other string is
     * one answer.
     */
    private static List<String> alternatives(Fields f, String field) {
        if (!f.has(field)) {
            return List.of();
        }
        JsonNode v = f.node().get(field);
        if (!v.isTextual()) {
            return f.strings(field);
        }
        String s = v.textValue().strip();
        if (!s.startsWith("[")) {
            return s.isEmpty() ? List.of() : List.of(s);
        }
        try {
            JsonNode list = Json.MAPPER.readTree(s);
            if (list != null && list.isArray()) {
                List<String> out = new ArrayList<>();
                list.forEach(n -> out.add(n.asText()));
                return out;
            }
        } catch (JsonProcessingException e) {
            // not JSON: a Python literal
        }
        List<String> out = PythonStrings.list(s);
        if (out == null) {
            throw f.error("field \"" + f.path(field) + "\" holds neither a JSON nor a Python list of strings: "
                    + (s.length() > 80 ? s.substring(0, 80) + "..." : s));
        }
        return out;
    }

    private static String outOfKnowledge(Fields f) {
        if (f.has("out_of_knowledge")) {
            return Boolean.toString(f.optBool("out_of_knowledge", false));
        }
        JsonNode gt = f.node().path("reward_model").path("ground_truth").path("out_of_knowledge");
        return gt.isBoolean() ? Boolean.toString(gt.booleanValue()) : null;
    }
}
