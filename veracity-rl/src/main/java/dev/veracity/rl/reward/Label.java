package dev.veracity.rl.reward;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.qa.Document;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a reward compares a response with: the gold answers and the optional fields some rewards read.
 * <p>Read by {@link #parse(JsonNode)} from any of the shapes trainers send:
 * <ul>
 *   <li>a plain string: one gold answer ({@code "Paris"});</li>
 *   <li>a string holding JSON (OpenRLHF sends labels as JSON strings): a string that starts with <code>{</code> must
 *       be a JSON object as below, one that starts with {@code [} a JSON list of answers; neither falls back to
 *       being read as a plain answer, so a malformed JSON label is an error, never a gold answer made of braces;</li>
 *   <li>a JSON list: the gold answers;</li>
 *   <li>a JSON object: {@code answers} (a list, or one string; FlashRAG's {@code golden_answers} and Search-R1's
 *       {@code target} are read too, but only one of the three may be given), optional {@code wrong_answers}
 *       (strict-multi), {@code ook} (out of knowledge: true or false), {@code documents} (strings, or objects with
 *       {@code text} or FlashRAG's {@code contents}, optional {@code id} and {@code title}) and
 *       {@code reasoning_score} (a number). Other keys are ignored.</li>
 * </ul>
 * Answers may be JSON numbers (their text). A label needs at least one answer; an answer inside a list may be empty
 * (the metrics treat it as the official scripts do), but a label that is an empty string is refused.
 *
 * @param answers        the gold answers, at least one
 * @param wrong          answers known to be wrong (strict-multi), possibly empty
 * @param ook            whether the question is out of the model's knowledge; null when the label does not say
 * @param documents      the documents a checker reads (MARCH), possibly empty
 * @param reasoningScore a reasoning-quality score from the data; null when absent
 */
public record Label(List<String> answers, List<String> wrong, Boolean ook, List<Document> documents,
                    Double reasoningScore) {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> ANSWER_KEYS = List.of("answers", "golden_answers", "target");

    public Label {
        answers = List.copyOf(answers);
        wrong = List.copyOf(wrong);
        documents = List.copyOf(documents);
        if (answers.isEmpty()) {
            throw new IllegalArgumentException("a label needs at least one gold answer");
        }
    }

    /** A label of gold answers only. */
    public static Label of(String... answers) {
        return new Label(List.of(answers), List.of(), null, List.of(), null);
    }

    /** The same label with these documents. */
    public Label withDocuments(List<Document> docs) {
        return new Label(answers, wrong, ook, docs, reasoningScore);
    }

    /** Reads a label from its JSON value; see the class comment for the shapes. Total: never throws. */
    public static LabelParse parse(JsonNode node) {
        try {
            return new LabelParse.Ok(read(node));
        } catch (Problem p) {
            return new LabelParse.Bad(p.getMessage());
        } catch (RuntimeException e) {
            // Defensive: every shape the readers know ends in a Problem; anything else is still only a bad label.
            return new LabelParse.Bad("unreadable label (" + e.getClass().getSimpleName() + ")");
        }
    }

    /** Reads a label sent as text (a plain answer, or JSON in a string). Total: never throws. */
    public static LabelParse parse(String text) {
        return parse(text == null ? null : JSON.getNodeFactory().textNode(text));
    }

    private static Label read(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            throw new Problem("no label");
        }
        if (node.isTextual()) {
            return fromText(node.textValue());
        }
        if (node.isArray()) {
            return answersOnly(node);
        }
        if (node.isObject()) {
            return fromObject(node);
        }
        if (node.isNumber()) {
            return Label.of(node.asText());
        }
        throw new Problem("a label must be a string, a list of answers or an object with \"answers\", was " + kind(node));
    }

    private static Label fromText(String text) {
        String t = text.strip();
        if (t.isEmpty()) {
            throw new Problem("the label is empty");
        }
        char first = t.charAt(0);
        if (first != '{' && first != '[') {
            return Label.of(text);
        }
        JsonNode inner;
        try {
            inner = JSON.readTree(t);
        } catch (JacksonException e) {
            // Jackson's note that it leaves the source out of locations says nothing to the user
            String why = String.valueOf(e.getOriginalMessage())
                    .replace("Source: REDACTED (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled); ", "");
            throw new Problem("the label starts with '" + first + "' but is not JSON (" + why + ")");
        }
        if (first == '{' && (inner == null || !inner.isObject())) {
            throw new Problem("the label starts with '{' but is not a JSON object");
        }
        if (first == '[' && (inner == null || !inner.isArray())) {
            throw new Problem("the label starts with '[' but is not a JSON list");
        }
        return inner.isObject() ? fromObject(inner) : answersOnly(inner);
    }

    private static Label answersOnly(JsonNode list) {
        List<String> answers = strings(list, "the label list");
        if (answers.isEmpty()) {
            throw new Problem("the label list has no gold answer");
        }
        return new Label(answers, List.of(), null, List.of(), null);
    }

    private static Label fromObject(JsonNode o) {
        String key = null;
        for (String k : ANSWER_KEYS) {
            if (o.has(k)) {
                if (key != null) {
                    throw new Problem("the label gives answers twice, as \"" + key + "\" and \"" + k + "\"");
                }
                key = k;
            }
        }
        if (key == null) {
            throw new Problem("the label object has no \"answers\"");
        }
        JsonNode a = o.get(key);
        List<String> gold = a.isTextual() || a.isNumber() ? List.of(a.asText()) : strings(a, "\"" + key + "\"");
        if (gold.isEmpty()) {
            throw new Problem("\"" + key + "\" has no gold answer");
        }
        JsonNode w = o.get("wrong_answers");
        List<String> wrong = w == null || w.isNull() ? List.of() : strings(w, "\"wrong_answers\"");
        Boolean ook = null;
        JsonNode k = o.get("ook");
        if (k != null && !k.isNull()) {
            if (!k.isBoolean()) {
                throw new Problem("\"ook\" must be true or false, was " + kind(k));
            }
            ook = k.booleanValue();
        }
        JsonNode d = o.get("documents");
        List<Document> documents = d == null || d.isNull() ? List.of() : documents(d);
        Double reasoning = null;
        JsonNode r = o.get("reasoning_score");
        if (r != null && !r.isNull()) {
            if (!r.isNumber() || !Double.isFinite(r.doubleValue())) {
                throw new Problem("\"reasoning_score\" must be a number, was " + kind(r));
            }
            reasoning = r.doubleValue();
        }
        return new Label(gold, wrong, ook, documents, reasoning);
    }

    /** The strings of a list; numbers are read as their text. */
    private static List<String> strings(JsonNode list, String what) {
        if (!list.isArray()) {
            throw new Problem(what + " must be a list of strings, was " + kind(list));
        }
        List<String> out = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            JsonNode e = list.get(i);
            if (!e.isTextual() && !e.isNumber()) {
                throw new Problem(what + " item " + (i + 1) + " must be a string, was " + kind(e));
            }
            out.add(e.asText());
        }
        return out;
    }

    private static List<Document> documents(JsonNode list) {
        if (!list.isArray()) {
            throw new Problem("\"documents\" must be a list, was " + kind(list));
        }
        List<Document> out = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            JsonNode e = list.get(i);
            String id = Integer.toString(i + 1);
            if (e.isTextual()) {
                out.add(Document.of(id, "", e.textValue()));
                continue;
            }
            if (!e.isObject()) {
                throw new Problem("\"documents\" item " + (i + 1) + " must be a string or an object with \"text\", was " + kind(e));
            }
            JsonNode text = e.has("text") ? e.get("text") : e.get("contents");
            if (text == null || !text.isTextual()) {
                throw new Problem("\"documents\" item " + (i + 1) + " has no \"text\" (or \"contents\") string");
            }
            JsonNode docId = e.get("id");
            JsonNode title = e.get("title");
            out.add(new Document(docId != null && (docId.isTextual() || docId.isNumber()) ? docId.asText() : id,
                    title != null && title.isTextual() ? title.textValue() : "", text.textValue(), Map.of()));
        }
        return out;
    }

    private static String kind(JsonNode n) {
        return switch (n.getNodeType()) {
            case ARRAY -> "a list";
            case OBJECT, POJO -> "an object";
            case STRING -> "a string";
            case NUMBER -> "a number";
            case BOOLEAN -> "a boolean";
            case NULL, MISSING -> "null";
            case BINARY -> "binary";
        };
    }

    /** Why a label cannot be read; caught in {@link #parse(JsonNode)}, never thrown out of this class. */
    private static final class Problem extends RuntimeException {
        Problem(String message) {
            super(message, null, false, false);
        }
    }
}
