package dev.veracity.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.veracity.http.HttpProblem;
import dev.veracity.qa.Document;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Documents a request gives, in one of two forms (never both):
 * <ul>
 *   <li>a {@code documents} array in the body (OpenAI clients send it through {@code extra_body}): strings, or
 *       objects {@code {"text": ..., "title"?: ..., "id"?: ...}};</li>
 *   <li>a {@code system}, {@code developer} or {@code tool} message whose text starts with a line {@code Documents:},
 *       then one document per {@code [N]} marker at the start of a line, running to the next marker:
 *       {@code Documents:\n[1] Paris is the capital of France.\n[2] ...} (id {@code N}, no title).</li>
 * </ul>
 */
final class RequestDocuments {

    private static final Set<String> OBJECT_FIELDS = Set.of("text", "title", "id");
    private static final Pattern HEADER = Pattern.compile("(?i)\\A\\s*documents:[ \\t]*(\\r?\\n|\\z)");
    private static final Pattern MARKER = Pattern.compile("(?m)^[ \\t]*\\[(\\d{1,6})\\][ \\t]*");

    private RequestDocuments() {
    }

    /** Whether a message's text is a documents message. */
    static boolean isDocumentsMessage(String text) {
        return HEADER.matcher(text).find();
    }

    /** The {@code documents} field: a non-empty array of strings or document objects. */
    static List<Document> fromField(JsonNode field, int maxItems) {
        if (!field.isArray()) {
            throw bad("documents must be an array of strings or {\"text\", \"title\", \"id\"} objects, was "
                    + RequestFields.typeOf(field), "documents");
        }
        if (field.isEmpty()) {
            throw bad("documents is empty: leave it out to use the server's index, or send at least one", "documents");
        }
        tooMany(field.size(), maxItems);
        List<Document> out = new ArrayList<>(field.size());
        for (int i = 0; i < field.size(); i++) {
            JsonNode d = field.get(i);
            String at = "documents[" + i + "]";
            if (d.isTextual()) {
                out.add(Document.of(Integer.toString(i + 1), "", requireText(d.asText(), at)));
            } else if (d.isObject()) {
                for (Iterator<String> names = d.fieldNames(); names.hasNext(); ) {
                    String name = names.next();
                    if (!OBJECT_FIELDS.contains(name)) {
                        throw new HttpProblem(400, "unknown_parameter", "Unrecognized request argument supplied: " + at
                                + "." + ClientText.quote(name) + " (a document has text, title and id)").withParam(at);
                    }
                }
                JsonNode text = d.get("text");
                if (text == null || !text.isTextual()) {
                    throw bad(at + ".text must be a string", at + ".text");
                }
                String title = optionalString(d, "title", at);
                String id = optionalString(d, "id", at);
                out.add(new Document(id == null ? Integer.toString(i + 1) : id, title, requireText(text.asText(), at),
                        Map.of("source", "request")));
            } else {
                throw bad(at + " must be a string or an object with text, was " + RequestFields.typeOf(d), at);
            }
        }
        return out;
    }

    /** The documents of a documents message ({@link #isDocumentsMessage}); at least one {@code [N]} marker. */
    static List<Document> fromMessage(String text, String where, int maxItems) {
        Matcher header = HEADER.matcher(text);
        if (!header.find()) {
            throw new IllegalArgumentException("not a documents message");
        }
        String body = text.substring(header.end());
        Matcher m = MARKER.matcher(body);
        List<int[]> marks = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        while (m.find()) {
            marks.add(new int[] {m.start(), m.end()});
            ids.add(m.group(1));
        }
        if (marks.isEmpty()) {
            throw bad(where + " starts with 'Documents:' but has no document: put each on its own line after a"
                    + " marker, e.g. \"Documents:\\n[1] first text\\n[2] second text\"", where);
        }
        if (!body.substring(0, marks.getFirst()[0]).isBlank()) {
            throw bad(where + ": text between 'Documents:' and the first [N] marker; start each document with [N]", where);
        }
        tooMany(marks.size(), maxItems);
        List<Document> out = new ArrayList<>(marks.size());
        for (int i = 0; i < marks.size(); i++) {
            int end = i + 1 < marks.size() ? marks.get(i + 1)[0] : body.length();
            String docText = body.substring(marks.get(i)[1], end).strip();
            out.add(new Document(ids.get(i), "", requireText(docText, where + " document [" + ids.get(i) + "]"),
                    Map.of("source", "request")));
        }
        return out;
    }

    private static String optionalString(JsonNode d, String field, String at) {
        JsonNode v = d.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            throw bad(at + "." + field + " must be a string, was " + RequestFields.typeOf(v), at + "." + field);
        }
        return v.asText();
    }

    private static String requireText(String text, String at) {
        if (text.isBlank()) {
            throw bad(at + " has no text", at);
        }
        return text;
    }

    private static void tooMany(int n, int max) {
        if (n > max) {
            throw HttpProblem.tooLarge("batch_too_large", "the request has " + n + " documents; this server takes at most "
                    + max + " per request");
        }
    }

    private static HttpProblem bad(String message, String param) {
        return new HttpProblem(400, "invalid_value", message).withParam(param);
    }
}
