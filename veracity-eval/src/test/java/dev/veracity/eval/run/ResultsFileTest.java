package dev.veracity.eval.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsFileTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static ObjectNode result(String id, String question, String prediction) {
        ObjectNode o = JSON.createObjectNode();
        o.put("id", id);
        o.put("question", question);
        o.put("prediction", prediction);
        return o;
    }

    private static boolean append(ResultsFile file, ObjectNode line) {
        return file.append(dev.veracity.eval.results.ResultsJson.convert(line, dev.veracity.eval.results.ResultLine.class));
    }

    @Test
    void aLoneSurrogateIsWrittenAsTheReplacementCharacterAndTheNextLineIsUnaffected() throws Exception {
        Path file = dir.resolve("results.jsonl");
        try (ResultsFile results = ResultsFile.open(file)) {
            assertThat(append(results, result("q1", "from a dataset \udc00", "a\ud800b"))).isTrue();
            assertThat(append(results, result("q2", "clean", "answer"))).isTrue();
            assertThat(results.answered().iterator().next().prediction()).isEqualTo("a\uFFFDb");
        }
        byte[] bytes = Files.readAllBytes(file);
        String text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
        assertThat(text).doesNotContain("?").contains("\uFFFD");

        try (ResultsFile reopened = ResultsFile.open(file)) {
            assertThat(reopened.size()).isEqualTo(2);
            List<JsonNode> lines = new ArrayList<>();
            reopened.answered().forEach(l -> lines.add(l.toJson()));
            assertThat(lines.get(0).get("prediction").asText()).isEqualTo("a\uFFFDb");
            assertThat(lines.get(0).get("question").asText()).isEqualTo("from a dataset \uFFFD");
            assertThat(lines.get(1).get("prediction").asText()).isEqualTo("answer");
        }
    }
}
