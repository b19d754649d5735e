package dev.veracity.eval.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A line found by its number is the line {@link ResultsJsonl} numbers so, whatever its ends. */
class LineOffsetsTest {

    @TempDir
    Path dir;

    @Test
    void numbersLinesAsTheSequentialReaderDoesAndReadsThemInAnyOrder() throws Exception {
        Path f = dir.resolve("results.jsonl");
        Files.write(f, "{\"id\":\"a\"}\n\r\n{\"id\":\"é\"}\r{\"id\":\"c\"}\r\n\n{\"id\":\"last, no end\"}"
                .getBytes(StandardCharsets.UTF_8));
        List<String> sequential = new ArrayList<>();
        ResultsJsonl.forEachLine(f, (n, line) -> sequential.add(line));
        try (LineOffsets offsets = LineOffsets.of(f)) {
            assertThat(offsets.lines()).isEqualTo(sequential.size());
            for (int n = sequential.size(); n >= 1; n--) { // backwards: no line is read through the ones before it
                assertThat(offsets.line(n)).isEqualTo(sequential.get(n - 1));
            }
        }
    }
}
