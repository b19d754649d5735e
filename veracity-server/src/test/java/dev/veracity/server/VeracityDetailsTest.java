package dev.veracity.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.veracity.method.DetailKey;
import dev.veracity.methods.c3po.C3poDetail;
import dev.veracity.methods.court.CourtDetail;
import dev.veracity.methods.madam.MadamDetail;
import dev.veracity.methods.march.MarchDetail;
import dev.veracity.methods.truthrl.TruthRlDetail;
import dev.veracity.sim.Rule;
import dev.veracity.sim.SimConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What each method did, in the answer's {@code veracity} field (what the playground draws and every client reads):
 * each method's detail under {@code details.<name>} equals the one the method attaches in-process for the same question
 * (typed, read back with its key), streamed or not; the fields the playground reads are at the paths the README names;
 * {@code truncated} says when a token limit cut the output the answer was read from.
 */
class VeracityDetailsTest {

    private static Served served;

    @BeforeAll
    static void start() throws Exception {
        served = Served.start();
    }

    @AfterAll
    static void stop() {
        served.close();
    }

    /** The answer's {@code veracity} field, non-streamed or from the stream's finish chunk. */
    private static JsonNode veracity(String method, boolean stream) {
        Http.Reply r = Http.post(served.v1() + "/chat/completions", Http.chat(method, stream ? "\"stream\": true" : ""));
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        if (!stream) {
            return r.json().path("veracity");
        }
        for (String line : r.events()) {
            if (line.startsWith("data: {") && line.contains("\"veracity\"")) {
                try {
                    return Http.JSON.readTree(line.substring(6)).path("veracity");
                } catch (Exception e) {
                    throw new AssertionError(line, e);
                }
            }
        }
        throw new AssertionError("no finish chunk with veracity: " + r.body());
    }

    private static <T> T served(JsonNode v, DetailKey<T> key) {
        return key.read(v.path("details")).orElseThrow(() -> new AssertionError("no details." + key.name() + " in " + v));
    }

    private static <T> T inProcess(String method, DetailKey<T> key) {
        return served.inProcess(method, Served.QUESTION, Served.DOCS, Map.of()).answer().detail(key).orElseThrow();
    }

    @Test
    void marchsClaimsCheckerAnswersAndVerdicts() {
        for (boolean stream : List.of(false, true)) {
            JsonNode v = veracity("march", stream);
            assertThat(served(v, MarchDetail.KEY)).isEqualTo(inProcess("march", MarchDetail.KEY));
            JsonNode claim = v.at("/details/march/claims/0");
            assertThat(v.at("/details/march/verdict").asText()).isEqualTo(v.at("/verification/verdict").asText());
            assertThat(claim.path("question").isTextual()).isTrue();
            assertThat(claim.path("claimed_answer").isTextual()).isTrue();
            assertThat(claim.path("checker_answers").isArray()).isTrue();
            assertThat(claim.path("verdict").asText()).isIn("confirmed", "fault");
        }
    }

    @Test
    void madamRagsRoundsPerAgentAndTheKeptAndDroppedAnswers() {
        for (boolean stream : List.of(false, true)) {
            JsonNode v = veracity("madam-rag", stream);
            assertThat(served(v, MadamDetail.KEY)).isEqualTo(inProcess("madam-rag", MadamDetail.KEY));
            assertThat(v.at("/details/madam/rounds/0/number").asInt()).isEqualTo(1);
            assertThat(v.at("/details/madam/rounds/0/answers")).hasSize(Served.DOCS.size()); // one agent per document
            assertThat(v.at("/details/madam/kept").isArray()).isTrue();
            assertThat(v.at("/details/madam/dropped").isArray()).isTrue();
            assertThat(v.at("/details/madam/stopped_early").isBoolean()).isTrue();
        }
        // composed with MARCH: the base's detail is kept beside MARCH's
        JsonNode both = veracity("madam-rag+march+abstain", false);
        assertThat(served(both, MadamDetail.KEY)).isEqualTo(inProcess("madam-rag+march+abstain", MadamDetail.KEY));
        assertThat(served(both, MarchDetail.KEY)).isEqualTo(inProcess("madam-rag+march+abstain", MarchDetail.KEY));
    }

    @Test
    void reasoningCourtsTrajectoriesAndTheJudgesChoice() {
        JsonNode v = veracity("court", false);
        CourtDetail court = served(v, CourtDetail.KEY);
        assertThat(court).isEqualTo(inProcess("court", CourtDetail.KEY));
        assertThat(v.at("/details/court/trajectories")).hasSize(2);
        assertThat(v.at("/details/court/trajectories/0/agent").asText()).isEqualTo("agent-1");
        assertThat(v.at("/details/court/trajectories/0/steps/0/thought").isTextual()).isTrue();
        assertThat(v.at("/details/court/judge/choice").asText()).isIn("selected", "synthesised", "fallback");
        assertThat(v.path("candidates")).hasSize(2); // the agents' answers, in their own field as in results.jsonl
    }

    @Test
    void c3posActionsAndTruthRlsAbstentionClass() {
        JsonNode c3po = veracity("c3po", false);
        assertThat(served(c3po, C3poDetail.KEY)).isEqualTo(inProcess("c3po", C3poDetail.KEY));
        assertThat(c3po.at("/details/c3po/actions/0/agent").asText()).isEqualTo("router");
        assertThat(c3po.at("/details/c3po/strategy").isTextual()).isTrue();
        JsonNode truthrl = veracity("truthrl", false);
        TruthRlDetail t = served(truthrl, TruthRlDetail.KEY);
        assertThat(t).isEqualTo(inProcess("truthrl", TruthRlDetail.KEY));
        assertThat(truthrl.at("/details/truthrl/class").asText()).isEqualTo(t.klass())
                .isIn("answer", "abstain", "invalid_premise", "no_box");
        assertThat(truthrl.path("abstained").asBoolean()).isEqualTo(t.klass().equals("abstain"));
    }

    @Test
    void anAnswerReadFromAnOutputItsTokenLimitCutIsMarked() throws Exception {
        assertThat(veracity("standard-rag", false).has("truncated")).as("nothing cut").isFalse();
        try (Served s = Served.start(SimConfig.builder().rules(Rule.of("(?s).*",
                "The Eiffel Tower is located in Paris, the capital of France, on the Champ de Mars.")).build(),
                x -> x, b -> b, Duration.ofSeconds(30))) {
            Http.Reply r = Http.post(s.v1() + "/chat/completions",
                    Http.chat("standard-rag", "\"veracity_options\": {\"max-tokens\": 4}"));
            assertThat(r.status()).as(r.body()).isEqualTo(200);
            JsonNode cut = r.json().at("/veracity/truncated");
            assertThat(cut.path("samples").asInt()).isEqualTo(1);
            assertThat(cut.path("roles").properties()).hasSize(1);
            assertThat(cut.path("roles").elements().next().asInt()).isEqualTo(1);
            assertThat(cut.path("answer").asBoolean()).isTrue();
        }
    }
}
