package dev.veracity.eval.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonlAppenderTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void aPartialLastLineIsCutBeforeTheNextAppendSoEveryLineParses() throws Exception {
        Path file = dir.resolve("records.jsonl");
        // a kill mid-write: a whole line, then half of the next (longer than the 8 KiB read-back block)
        String whole = "{\"id\":\"a\",\"text\":\"" + "x".repeat(20_000) + "\"}\n";
        Files.writeString(file, whole + "{\"id\":\"b\",\"text\":\"" + "y".repeat(9_000));
        try (JsonlAppender out = JsonlAppender.open(file)) {
            assertThat(out.truncatedBytes()).isEqualTo(9_000 + "{\"id\":\"b\",\"text\":\"".length());
            out.append("{\"id\":\"b\"}\n");
        }
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertThat(lines).hasSize(2);
        for (String l : lines) {
            assertThat(JSON.readTree(l).path("id").isTextual()).isTrue();
        }
        assertThat(JSON.readTree(lines.get(1)).path("id").asText()).isEqualTo("b");
    }

    @Test
    void aFileWithoutAnyNewlineIsAllPartialAndAWholeFileIsKept() throws Exception {
        Path torn = dir.resolve("torn.jsonl");
        Files.writeString(torn, "{\"id\":");
        try (JsonlAppender out = JsonlAppender.open(torn)) {
            assertThat(out.truncatedBytes()).isEqualTo(6);
        }
        assertThat(Files.size(torn)).isZero();

        Path clean = dir.resolve("clean.jsonl");
        Files.writeString(clean, "{\"id\":1}\n{\"id\":2}\n");
        try (JsonlAppender out = JsonlAppender.open(clean)) {
            assertThat(out.truncatedBytes()).isZero();
            assertThatThrownBy(() -> out.append("{\"id\":3}")).hasMessageContaining("newline");
        }
        assertThat(Files.readString(clean)).isEqualTo("{\"id\":1}\n{\"id\":2}\n");
    }
}
