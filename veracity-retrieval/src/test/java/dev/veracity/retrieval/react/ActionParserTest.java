package dev.veracity.retrieval.react;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.retrieval.corpus.Document;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The ReAct action parser on a corpus of realistic agent turns ({@code action-corpus.jsonl}: the few-shot format,
 * markdown, reasoning blocks, invented observations, nested brackets, outputs cut off by the token limit), and the
 * environment reading the same texts: one parser, so a text means the same action to both.
 */
class ActionParserTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CORPUS = "/dev/veracity/retrieval/react/action-corpus.jsonl";

    /** Each case as "Verb|argument" or "FAIL|KIND", and the thought where the case gives one. */
    @Test
    void everyCaseParsesAsExpected() throws IOException {
        List<String> wrong = new ArrayList<>();
        List<JsonNode> cases = corpus();
        for (JsonNode c : cases) {
            AgentTurn t = ActionParser.parse(c.get("output").asText());
            String got = switch (t) {
                case AgentTurn.Acted a -> switch (a.action()) {
                    case ReactAction.Search s -> "Search|" + s.entity();
                    case ReactAction.Lookup l -> "Lookup|" + l.keyword();
                    case ReactAction.Finish f -> "Finish|" + f.answer();
                    case ReactAction.Invalid i -> "Invalid|" + i.text();
                };
                case AgentTurn.Failed f -> "FAIL|" + f.failure().name();
            };
            boolean thoughtOk = !c.has("thought") || c.get("thought").asText().equals(t.thought());
            if (!got.equals(c.get("expected").asText()) || !thoughtOk) {
                wrong.add(c.get("id").asText() + ": expected " + c.get("expected").asText()
                        + (c.has("thought") ? " / thought '" + c.get("thought").asText() + "'" : "") + ", got " + got
                        + " / thought '" + t.thought() + "' (" + c.path("note").asText() + ")");
            }
        }
        assertThat(cases).hasSizeGreaterThanOrEqualTo(27);
        assertThat(wrong).as("ReAct turns parsed differently").isEmpty();
    }

    /**
     * {@link WikiEnvironment#step(String)} answers every corpus text as it answers the expected action, and a turn
     * without one with {@code Invalid action: ...}, each case in a fresh episode over a one-page store.
     */
    @Test
    void theEnvironmentReadsEveryCaseAsTheAgentDoes() throws IOException {
        List<String> wrong = new ArrayList<>();
        try (PageStore store = PageStore.of(List.of(new Document("1", "Milhouse Van Houten",
                "Milhouse Mussolini Van Houten is a character. He was named after U.S. president Richard Nixon.")))) {
            for (JsonNode c : corpus()) {
                String output = c.get("output").asText();
                String[] expected = c.get("expected").asText().split("\\|", 2);
                WikiEnvironment fromText = new WikiEnvironment(store);
                String got = fromText.step(output);
                if (expected[0].equals("FAIL")) {
                    if (!got.startsWith("Invalid action: ") || fromText.finished()) {
                        wrong.add(c.get("id").asText() + ": expected an invalid action, got '" + got + "'");
                    }
                    continue;
                }
                WikiEnvironment fromAction = new WikiEnvironment(store);
                String want = fromAction.step(switch (expected[0]) {
                    case "Search" -> new ReactAction.Search(expected[1]);
                    case "Lookup" -> new ReactAction.Lookup(expected[1]);
                    default -> new ReactAction.Finish(expected[1]);
                });
                if (!got.equals(want) || !fromText.answer().equals(fromAction.answer())) {
                    wrong.add(c.get("id").asText() + ": expected '" + want + "', got '" + got + "'");
                }
            }
        }
        assertThat(wrong).as("the environment read these texts otherwise than the agent's parser").isEmpty();
    }

    @Test
    void argumentsLoseQuotesAndEmphasisOnly() {
        assertThat(ActionParser.cleanArgument("  **\"Milhouse\"**  ")).isEqualTo("Milhouse");
        assertThat(ActionParser.cleanArgument("` 'Tom [Hanks]' `")).isEqualTo("Tom [Hanks]");
        assertThat(ActionParser.unquote("\u201cIt's\u201d")).isEqualTo("It's");
        assertThat(ActionParser.unquote("\"a\" and \"b\"")).isEqualTo("a\" and \"b");
        assertThat(ActionParser.unquote("\"")).isEqualTo("\"");
    }

    @Test
    void renderGivesTheScratchpadForm() {
        assertThat(ActionParser.render(new ReactAction.Finish("[1998, 2003]"))).isEqualTo("Finish[[1998, 2003]]");
        assertThat(ActionParser.parse("Action 1: " + ActionParser.render(new ReactAction.Search("Tom [Hanks]"))))
                .isEqualTo(new AgentTurn.Acted("", new ReactAction.Search("Tom [Hanks]")));
        assertThat(ActionParser.parse(null)).isEqualTo(new AgentTurn.Failed("", ActionFailure.EMPTY_OUTPUT, ""));
    }

    static List<JsonNode> corpus() throws IOException {
        List<JsonNode> out = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(
                ActionParserTest.class.getResourceAsStream(CORPUS), StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (!line.isBlank()) {
                    out.add(JSON.readTree(line));
                }
            }
        }
        return out;
    }
}
