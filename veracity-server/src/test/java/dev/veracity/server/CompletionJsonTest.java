package dev.veracity.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The stream's pieces add up to the answer exactly; role headers are deterministic. */
class CompletionJsonTest {

    @Test
    void piecesAreWordsWithTheWhitespaceBeforeTheNextAndAddUpExactly() {
        assertThat(CompletionJson.pieces("Paris is  the capital.\n")).containsExactly("Paris ", "is  ", "the ", "capital.\n");
        assertThat(CompletionJson.pieces("  leading")).containsExactly("  ", "leading");
        assertThat(CompletionJson.pieces("")).isEmpty();
        for (String answer : List.of("All Correct Answers: [\"Paris\", \"Rome\"]. Explanation: two.", "a\tb\r\nc ",
                "caf\u00e9 \ud83d\ude00 done", "   ", "x")) {
            assertThat(String.join("", CompletionJson.pieces(answer))).isEqualTo(answer);
        }
    }

    @Test
    void rolesAreOrderedNaturallySoIdenticalAnswersReportIdentically() {
        List<String> roles = new java.util.ArrayList<>(List.of("agent-10", "aggregator", "agent-2", "agent-1", "checker"));
        roles.sort(VeracityReport::naturalOrder);
        assertThat(roles).containsExactly("agent-1", "agent-2", "agent-10", "aggregator", "checker");
    }

    @Test
    void answersInAHeaderStayAsciiJsonAndAreCutWhenTooLong() {
        assertThat(VeracityReport.answersHeader(List.of("Zürich", "a\"b"))).isEqualTo("[\"Z\\u00FCrich\",\"a\\\"b\"]");
        List<String> many = java.util.Collections.nCopies(500, "some long answer");
        String header = VeracityReport.answersHeader(many);
        assertThat(header.length()).isLessThanOrEqualTo(VeracityReport.MAX_ANSWERS_HEADER);
        assertThat(header).startsWith("[\"some long answer\"").endsWith("]");
    }
}
