package dev.veracity.eval.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.llm.ChatMessage;
import dev.veracity.method.AgentRecord;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentRecordsFileTest {

    @TempDir
    Path dir;

    /** A question's Solver step, as MARCH's outcome gives it. */
    private static List<AgentRecord> records(String id, String prompt, String output) {
        return List.of(AgentRecord.of("run-1", id, "march", "solver", "solver-0", null,
                List.of(ChatMessage.user(prompt)), output, 1.0));
    }

    @Test
    void aLoneSurrogateInOneQuestionsRecordsDoesNotBreakTheFileForTheNext() throws Exception {
        Path file = dir.resolve("march-records.jsonl");
        try (AgentRecordsFile records = new AgentRecordsFile(file)) {
            records.accept(records("q1", "context \udc00 from a dataset", "a\ud800b"));
            records.accept(records("q2", "clean prompt", "clean answer"));
        } // closing used to fail too ("veracity eval: closing .../march-records.jsonl")

        byte[] bytes = Files.readAllBytes(file);
        String text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString(); // strict
        List<String> lines = text.lines().toList();
        assertThat(lines).hasSize(2);
        ObjectMapper json = new ObjectMapper();
        JsonNode first = json.readTree(lines.get(0));
        assertThat(first.get("question_id").asText()).isEqualTo("q1");
        assertThat(first.get("response").asText()).isEqualTo("a\uFFFDb");
        assertThat(first.get("messages").get(0).get("content").asText()).isEqualTo("context \uFFFD from a dataset");
        assertThat(first.get("run").asText()).isEqualTo("run-1");
        assertThat(first.get("node_id").asText()).isEqualTo("solver-0");
        JsonNode second = json.readTree(lines.get(1));
        assertThat(second.get("question_id").asText()).isEqualTo("q2");
        assertThat(second.get("response").asText()).isEqualTo("clean answer");
    }

    @Test
    void aQuestionWithoutRecordsWritesNothing() throws Exception {
        Path file = dir.resolve("records.jsonl");
        try (AgentRecordsFile records = new AgentRecordsFile(file)) {
            records.accept(List.of());
        }
        assertThat(Files.exists(file) ? Files.readString(file) : "").isEmpty();
    }
}
