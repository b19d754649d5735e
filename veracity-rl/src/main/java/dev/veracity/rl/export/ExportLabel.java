package dev.veracity.rl.export;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.qa.Document;
import dev.veracity.qa.QaItem;
import dev.veracity.rl.jsonl.JsonlRows;
import java.util.List;

/**
 * The label written into an RL training row, in the object shape {@link dev.veracity.rl.reward.Label#parse} reads:
 * {@code {"answers": [...], "wrong_answers": [...], "documents": [{"id", "title", "text"}]}}, the last two only when
 * there are some. Trainers carry it as a JSON string (OpenRLHF and slime pass labels through as given; VeRL's
 * {@code ground_truth} stays one type per column), so every format writes the same string.
 */
final class ExportLabel {

    private ExportLabel() {
    }

    /**
     * The gold answers the evaluation scores against (the eval runner's rule: each gold answer's canonical text for a
     * multi-answer dataset, every accepted form otherwise), the known wrong answers, and the documents.
     */
    static List<String> answers(QaItem item, boolean multiAnswer) {
        return multiAnswer ? item.goldTexts() : item.goldForms();
    }

    static ObjectNode of(List<String> answers, List<String> wrong, List<Document> documents) {
        ObjectNode o = JsonlRows.JSON.createObjectNode();
        ArrayNode a = o.putArray("answers");
        answers.forEach(a::add);
        if (!wrong.isEmpty()) {
            ArrayNode w = o.putArray("wrong_answers");
            wrong.forEach(w::add);
        }
        if (!documents.isEmpty()) {
            ArrayNode d = o.putArray("documents");
            for (Document doc : documents) {
                d.addObject().put("id", doc.id()).put("title", doc.title()).put("text", doc.text());
            }
        }
        return o;
    }
}
