package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.method.MethodAnswer;
import dev.veracity.methods.march.MarchOutcome;
import dev.veracity.methods.march.MarchSettings;
import dev.veracity.methods.march.Turn;
import dev.veracity.methods.march.Verification;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MarchRecordsTest {

    @TempDir
    Path dir;

    private static MarchOutcome outcome(String id, String prompt, String output) {
        Turn solver = new Turn("solver", 0, prompt, output);
        return new MarchOutcome(id, "question " + id, List.of(new MarchOutcome.Attempt(solver,
                new Verification(output, new dev.veracity.methods.march.Proposer.Result(new Turn("proposer", 0, prompt, ""),
                        List.of(), List.of(), dev.veracity.methods.march.ClaimParser.Status.NO_CLAIMS), List.of(), List.of()))),
                MethodAnswer.of(output),
                MarchSettings.defaults());
    }

    @Test
    void aLoneSurrogateInOneQuestionsRecordsDoesNotBreakTheFileForTheNext() throws Exception {
        Path file = dir.resolve("march-records.jsonl");
        try (MarchRecords records = new MarchRecords(file, "run-1")) {
            records.accept(outcome("q1", "context \udc00 from a dataset", "a\ud800b"));
            records.accept(outcome("q2", "clean prompt", "clean answer"));
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
}
