package dev.veracity.rl.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.rl.jsonl.BadInputException;
import dev.veracity.rl.jsonl.JsonlRows;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The responses an SFT file teaches ({@code --responses}: lines {@code {"id", "response"}}) or the preference pairs a
 * DPO file ranks ({@code --pairs}: lines {@code {"id", "chosen", "rejected"}}), keyed by the dataset's question id.
 * A line may name the {@code "agent"} its prompt belongs to ({@code agent-2} for MADAM-RAG's one prompt per document);
 * without one it belongs to the role's only prompt. Other keys are ignored, so a scored file can be filtered into one.
 * A question may have several lines (several rows). The file is checked whole when read: a line without an id, with
 * a missing or blank text, or a pair whose two texts are equal is a {@link BadInputException} naming file and line.
 */
final class CompletionFile {

    /** One line: the texts (one response, or chosen then rejected) and where it was read. */
    record Completion(long line, String agent, List<String> texts) {
    }

    private final Path file;
    private final Map<String, List<Completion>> byId = new LinkedHashMap<>();
    private final List<Completion> all = new ArrayList<>();
    /** By identity: two lines may hold the same texts. */
    private final Set<Completion> used = Collections.newSetFromMap(new IdentityHashMap<>());

    private CompletionFile(Path file) {
        this.file = file;
    }

    /** Reads {@code {"id", "response"}} lines. */
    static CompletionFile responses(Path file) {
        return read(file, List.of("response"));
    }

    /** Reads {@code {"id", "chosen", "rejected"}} lines. */
    static CompletionFile pairs(Path file) {
        return read(file, List.of("chosen", "rejected"));
    }

    private static CompletionFile read(Path file, List<String> fields) {
        CompletionFile f = new CompletionFile(file);
        JsonlRows.forEach(file, (line, row) -> {
            String id = id(file, line, row);
            JsonNode agent = row.get("agent");
            if (agent != null && !agent.isNull() && !agent.isTextual()) {
                throw BadInputException.at(file, line, "\"agent\" must be a string such as \"agent-2\"");
            }
            List<String> texts = new ArrayList<>(fields.size());
            for (String field : fields) {
                JsonNode t = row.get(field);
                if (t == null || !t.isTextual() || t.textValue().isBlank()) {
                    throw BadInputException.at(file, line, "\"" + field + "\" must be a non-empty string");
                }
                texts.add(t.textValue());
            }
            if (texts.size() == 2 && texts.get(0).equals(texts.get(1))) {
                throw BadInputException.at(file, line, "\"chosen\" and \"rejected\" are the same text: nothing to prefer");
            }
            Completion c = new Completion(line, agent == null || agent.isNull() ? null : agent.textValue(), texts);
            f.byId.computeIfAbsent(id, k -> new ArrayList<>()).add(c);
            f.all.add(c);
        });
        return f;
    }

    private static String id(Path file, long line, ObjectNode row) {
        JsonNode id = row.get("id");
        if (id == null || !(id.isTextual() || id.isIntegralNumber()) || id.asText().isEmpty()) {
            throw BadInputException.at(file, line, "\"id\" must be the dataset's question id (a string or an integer)");
        }
        return id.asText();
    }

    /**
     * The lines for this question's agent, marked used. {@code agents} is how many prompts the role made for the
     * question: with more than one, a line must name its agent.
     */
    List<Completion> take(String questionId, String agent, int agents) {
        List<Completion> out = new ArrayList<>();
        for (Completion c : byId.getOrDefault(questionId, List.of())) {
            if (c.agent() == null && agents > 1) {
                throw BadInputException.at(file, c.line(), "question " + questionId + " has " + agents + " prompts (one per"
                        + " agent): say which with \"agent\", e.g. \"" + agent + "\"");
            }
            if (c.agent() == null || c.agent().equals(agent)) {
                out.add(c);
                used.add(c);
            }
        }
        return out;
    }

    /** The first line no prompt took (an id not in the dataset, or an agent the question has not), if any. */
    Optional<Completion> firstUnused() {
        return all.stream().filter(c -> !used.contains(c)).findFirst();
    }

    long unused() {
        return all.size() - used.size();
    }

    Path file() {
        return file;
    }
}
