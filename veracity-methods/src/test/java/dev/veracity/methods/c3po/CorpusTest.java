package dev.veracity.methods.c3po;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The three proxy parsers on a corpus of realistic outputs ({@code proxy-corpus.jsonl}: markdown, labels, quoted
 * documents that imitate the format, the authors' invalid cases): each parses to its expected action, or fails with
 * its expected kind.
 */
class CorpusTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void everyCaseParsesAsExpected() throws IOException {
        List<String> wrong = new ArrayList<>();
        int n = 0;
        try (BufferedReader in = new BufferedReader(new InputStreamReader(
                CorpusTest.class.getResourceAsStream("/dev/veracity/methods/c3po/proxy-corpus.jsonl"), StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                JsonNode c = JSON.readTree(line);
                String out = c.get("output").asText();
                Parsed<?> p = switch (c.get("agent").asText()) {
                    case "router" -> RouterParser.parse(out);
                    case "decision" -> DecisionParser.parse(out);
                    default -> FilterParser.parse(out, c.get("documents").asInt(), c.get("strict").asBoolean());
                };
                String got = p.ok() ? action(p.value()) : p.failure().kind().name();
                if (!got.equals(c.get("expected").asText())) {
                    wrong.add(c.get("id").asText() + ": expected " + c.get("expected").asText() + ", got " + got);
                }
                n++;
            }
        }
        assertThat(n).isGreaterThanOrEqualTo(25);
        assertThat(wrong).isEmpty();
    }

    private static String action(Object v) {
        return switch (v) {
            case RouterParser.Route r -> r.action();
            case DecisionParser.Decision d -> d.action();
            case FilterParser.Selection s -> s.action();
            default -> v.toString();
        };
    }
}
