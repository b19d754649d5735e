package dev.veracity.methods;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.methods.court.JudgeOutputParser;
import dev.veracity.methods.court.JudgeVerdict;
import dev.veracity.methods.madam.AgentOutput;
import dev.veracity.methods.madam.AgentOutputParser;
import dev.veracity.methods.madam.AggregatorOutput;
import dev.veracity.methods.madam.AggregatorOutputParser;
import dev.veracity.methods.march.CheckerAnswer;
import dev.veracity.methods.march.CheckerOutput;
import dev.veracity.methods.march.CheckerOutputParser;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Our parsers on the realistic-output corpora (hand-written to mimic what real models write, hostile documents
 * quoted in explanations included): every case must parse to its expected result. The authors' parsers run on the
 * same corpora in {@link AuthorsParsersTest}; docs/parsers.md lists where they differ and why. Reasoning Court's
 * agents' turns are read by the retrieval module's ReAct action parser, tested on its corpus there
 * ({@code ActionParserTest}).
 */
class ParserCorpusTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void checkerCorpus() throws IOException {
        List<String> wrong = new ArrayList<>();
        for (JsonNode c : corpus("/dev/veracity/methods/march/checker-corpus.jsonl")) {
            CheckerOutput o = CheckerOutputParser.parse(c.get("output").asText(), c.get("questions").asInt());
            Map<String, String> got = new TreeMap<>();
            for (CheckerAnswer a : o.answers().values()) {
                got.put(Integer.toString(a.number()), a.answer());
            }
            Map<String, String> expected = new TreeMap<>();
            c.get("expected").properties().forEach(e -> expected.put(e.getKey(), e.getValue().asText()));
            if (!got.equals(expected)) {
                wrong.add(c.get("id").asText() + ": expected " + expected + ", got " + got + " (" + c.path("note").asText() + ")");
            }
        }
        assertThat(wrong).as("checker cases parsed differently").isEmpty();
    }

    @Test
    void aggregatorCorpus() throws IOException {
        List<String> wrong = new ArrayList<>();
        for (JsonNode c : corpus("/dev/veracity/methods/madam/aggregator-corpus.jsonl")) {
            List<String> docs = new ArrayList<>();
            c.path("documents").forEach(d -> docs.add(d.asText()));
            AggregatorOutput o = AggregatorOutputParser.parse(c.get("output").asText(), docs);
            List<String> expected = new ArrayList<>();
            c.get("expected").forEach(e -> expected.add(e.asText()));
            boolean parsed = c.path("parsed").asBoolean(true);
            if (!o.answers().equals(expected) || o.parsed() != parsed) {
                wrong.add(c.get("id").asText() + ": expected " + expected + (parsed ? "" : " (unmarked)") + ", got "
                        + o.answers() + (o.parsed() ? "" : " (unmarked)") + " (" + c.path("note").asText() + ")");
            }
        }
        assertThat(wrong).as("aggregator cases parsed differently").isEmpty();
    }

    @Test
    void agentCorpus() throws IOException {
        List<String> wrong = new ArrayList<>();
        for (JsonNode c : corpus("/dev/veracity/methods/madam/agent-corpus.jsonl")) {
            AgentOutput o = AgentOutputParser.parse(c.get("output").asText(), c.path("question").asText());
            String expected = c.get("expected").asText();
            boolean parsed = c.path("parsed").asBoolean(true);
            if (!o.answer().equals(expected) || o.parsed() != parsed) {
                wrong.add(c.get("id").asText() + ": expected '" + expected + "'" + (parsed ? "" : " (unparsed)") + ", got '"
                        + o.answer() + "'" + (o.parsed() ? "" : " (unparsed)") + " (" + c.path("note").asText() + ")");
            }
        }
        assertThat(wrong).as("agent cases parsed differently").isEmpty();
    }

    /** Reasoning Court's judge: the Complete[...] answer, or "FAIL|KIND". */
    @Test
    void courtJudgeCorpus() throws IOException {
        List<String> wrong = new ArrayList<>();
        for (JsonNode c : corpus("/dev/veracity/methods/court/judge-corpus.jsonl")) {
            String got = switch (JudgeOutputParser.parse(c.get("output").asText())) {
                case JudgeVerdict.Complete x -> x.answer();
                case JudgeVerdict.Failed f -> "FAIL|" + f.failure().name();
            };
            if (!got.equals(c.get("expected").asText())) {
                wrong.add(c.get("id").asText() + ": expected " + c.get("expected").asText() + ", got " + got + " ("
                        + c.path("note").asText() + ")");
            }
        }
        assertThat(wrong).as("judge outputs parsed differently").isEmpty();
    }

    static List<JsonNode> corpus(String resource) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(
                ParserCorpusTest.class.getResourceAsStream(resource), StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (!line.isBlank()) {
                    out.add(JSON.readTree(line));
                }
            }
        }
        return out;
    }
}
