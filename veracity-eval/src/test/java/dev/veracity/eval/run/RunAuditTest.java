package dev.veracity.eval.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunAuditTest {

    @TempDir
    Path dir;

    @Test
    void aSoundFolderCountsAnswersAndFailuresByKind() throws Exception {
        Files.writeString(dir.resolve("results.jsonl"), """
                {"id":"a","prediction":"x"}
                {"id":"b","failed":"HTTP 500","failed_kind":"SERVER_ERROR"}
                {"id":"c","failed":"timed out","failed_kind":"TIMEOUT"}
                {"id":"c","prediction":"y"}
                """);
        Files.writeString(dir.resolve("summary.json"), "{\"n\": 2, \"failed\": 1}");
        RunAudit a = RunAudit.of(dir, List.of("a", "b", "c"));
        assertThat(a.problems()).isEmpty();
        assertThat(a.answered()).isEqualTo(2);
        assertThat(a.failed()).containsExactly(java.util.Map.entry("SERVER_ERROR", 1));
        assertThat(a.duplicates()).isZero();
        assertThat(a.tornTail()).isFalse();
    }

    @Test
    void duplicatesBadLinesMissingQuestionsAndADisagreeingSummaryAreProblems() throws Exception {
        Files.writeString(dir.resolve("results.jsonl"), """
                {"id":"a","prediction":"x"}
                {"id":"a","prediction":"x"}
                {"id":"b","predic{"id":"z","prediction":"q"}
                {"id":"c","failed":""}
                {"id":"c","pred""");
        Files.writeString(dir.resolve("summary.json"), "{\"n\": 3, \"failed\": 0}");
        RunAudit a = RunAudit.of(dir, List.of("a", "b", "c", "d"));
        assertThat(a.duplicates()).isEqualTo(1);
        assertThat(a.badLines()).isEqualTo(2); // the glued line and the torn tail
        assertThat(a.tornTail()).isTrue();
        assertThat(a.missing()).isEqualTo(2); // b (its line is not JSON) and d
        assertThat(a.problems()).contains("1 duplicate answer lines", "c: a failure record without a reason",
                "2 questions with neither an answer nor a failure record", "summary n 3 but 1 answered lines");
        assertThat(a.sound()).isFalse();
    }

    @Test
    void linesAreReadAsResultLinesSoAWrongTypeOrANewerSchemaIsABadLineNotAnAnswer() throws Exception {
        Files.writeString(dir.resolve("results.jsonl"), """
                {"id":"a","prediction":"x","calls":"three"}
                {"schema_version":2,"id":"b","prediction":"y"}
                {"id":"c","prediction":"z","calls":3}
                """);
        Files.writeString(dir.resolve("summary.json"), "{\"schema_version\": 2, \"n\": 1, \"failed\": 0}");
        RunAudit a = RunAudit.of(dir, List.of("a", "b", "c"));
        assertThat(a.answered()).isEqualTo(1);
        assertThat(a.badLines()).isEqualTo(2);
        assertThat(a.missing()).isEqualTo(2);
        assertThat(a.problems())
                .anyMatch(p -> p.startsWith("results.jsonl:1 is not a result line"))
                .anyMatch(p -> p.startsWith("results.jsonl:2 has schema_version 2"))
                .anyMatch(p -> p.contains("summary.json has schema_version 2"))
                .allMatch(p -> !p.contains("\n"));
    }
}
