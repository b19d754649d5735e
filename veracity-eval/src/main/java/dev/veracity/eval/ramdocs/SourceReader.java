package dev.veracity.eval.ramdocs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads source questions, JSONL (one object a line) or a JSON array, in either of two shapes:
 * <ul>
 *   <li>ours: {@code {"question": "...", "answers": [{"answer": "...", "documents": ["text", ...],
 *       "entity": "optional disambiguated entity"}], "noise": ["optional noise text", ...]}};</li>
 *   <li>AmbigDocs-like: {@code {"question": "...", "ambiguous_entity": "...", "documents": [{"title": "...",
 *       "text": "...", "answer": "..." or ["..."]}]}}: documents are grouped by their (first) answer, the title of
 *       a group's first document is its entity; a document without an answer is noise.</li>
 * </ul>
 * Records with no answer are skipped. Errors name the file and line.
 */
public final class SourceReader {

    private static final ObjectMapper JSON = new ObjectMapper();

    private SourceReader() {
    }

    public static List<SourceRecord> read(Path file) throws IOException {
        List<SourceRecord> out = new ArrayList<>();
        String first = Files.readString(file, StandardCharsets.UTF_8).stripLeading();
        if (first.startsWith("[")) {
            JsonNode arr = JSON.readTree(first);
            int i = 0;
            for (JsonNode n : arr) {
                add(out, n, file + ": element " + i++);
            }
            return out;
        }
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            int no = 0;
            while ((line = r.readLine()) != null) {
                no++;
                if (line.isBlank()) {
                    continue;
                }
                JsonNode n;
                try {
                    n = JSON.readTree(line);
                } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                    throw new IOException(file + ":" + no + ": not JSON: " + e.getOriginalMessage(), e);
                }
                add(out, n, file + ":" + no);
            }
        }
        return out;
    }

    private static void add(List<SourceRecord> out, JsonNode n, String where) throws IOException {
        SourceRecord rec = convert(n, where);
        if (!rec.answers().isEmpty()) {
            out.add(rec);
        }
    }

    static SourceRecord convert(JsonNode n, String where) throws IOException {
        if (!n.isObject() || !n.path("question").isTextual()) {
            throw new IOException(where + ": a record needs a \"question\" string");
        }
        String question = n.get("question").asText();
        List<String> noise = texts(n.path("noise"));
        List<SourceRecord.Answer> answers = new ArrayList<>();
        if (n.path("answers").isArray() && n.path("answers").size() > 0 && n.path("answers").get(0).isObject()) {
            for (JsonNode a : n.get("answers")) {
                String text = a.path("answer").asText("");
                List<String> docs = texts(a.path("documents"));
                if (!text.isBlank() && !docs.isEmpty()) {
                    answers.add(new SourceRecord.Answer(text, a.path("entity").asText(""), docs));
                }
            }
        } else if (n.path("documents").isArray()) {
            Map<String, List<String>> byAnswer = new LinkedHashMap<>();
            Map<String, String> entity = new LinkedHashMap<>();
            noise = new ArrayList<>(noise);
            for (JsonNode d : n.get("documents")) {
                JsonNode ans = d.path("answer");
                String a = ans.isArray() ? (ans.isEmpty() ? "" : ans.get(0).asText("")) : ans.asText("");
                String text = d.path("text").asText("");
                if (text.isBlank()) {
                    continue;
                }
                if (a.isBlank() || a.equalsIgnoreCase("unknown")) {
                    noise.add(text);
                } else {
                    byAnswer.computeIfAbsent(a, k -> new ArrayList<>()).add(text);
                    entity.putIfAbsent(a, d.path("title").asText(""));
                }
            }
            byAnswer.forEach((a, docs) -> answers.add(new SourceRecord.Answer(a, entity.get(a), docs)));
        } else {
            throw new IOException(where + ": expected \"answers\": [{answer, documents}] or AmbigDocs' \"documents\"");
        }
        return new SourceRecord(question, answers, noise);
    }

    private static List<String> texts(JsonNode arr) {
        List<String> out = new ArrayList<>();
        if (arr.isArray()) {
            for (JsonNode t : arr) {
                String s = t.isObject() ? t.path("text").asText("") : t.asText("");
                if (!s.isBlank()) {
                    out.add(s);
                }
            }
        }
        return out;
    }
}
