package dev.veracity.eval.judge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.veracity.llm.client.LlmClient;
import dev.veracity.llm.openai.OpenAiCompatibleBackend;
import dev.veracity.sim.Rule;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import dev.veracity.trace.CallContext;
import dev.veracity.trace.InMemoryTraces;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The judges through the real HTTP stack: simulator rules script the judge's outputs sample by sample. */
class SimulatorJudgeTest {

    private static final List<String> CRAG_OUTPUTS = List.of(
            "Let me check.\n```json\n{\"explanation\": \"matches\", \"score\": 1}\n```",
            "The prediction is right.",
            "{\"explanation\": \"no\", \"score\": 0}",
            "{'explanation': 'ok', 'score': '1'}",
            "I think {\"score\": 0} but actually {\"explanation\": \"yes\", \"score\": 1}",
            "I would need more context.", // (an empty text is now a retried server fault, not a verdict)
            "{\"score\": true} Hope this helps!",
            "{\"score\": 0}");

    private static SimServer sim;
    private static OpenAiCompatibleBackend backend;

    @BeforeAll
    static void start() {
        sim = SimServer.start(SimConfig.builder().rules(
                Rule.of("Assume you are (a )?human expert", m -> CRAG_OUTPUTS.get(m.sample() % CRAG_OUTPUTS.size())),
                Rule.of("precise answer validator", m -> m.sample() < 3 ? "**False**" : "Answer: true"))
                .build());
        backend = OpenAiCompatibleBackend.builder().baseUrl(sim.baseUrl()).model("sim-model").build();
    }

    @AfterAll
    static void stop() {
        backend.close();
        sim.close();
    }

    @Test
    void cragMajorityOfEightOverHttp() {
        InMemoryTraces traces = new InMemoryTraces();
        LlmClient client = LlmClient.builder(backend).traces(traces).build();
        CragJudge judge = new CragJudge(client, JudgeOptions.majorityOf(8, 0.7));
        Verdict v = judge.judge(JudgeInput.of("Q?", "pred", "gold"), CallContext.of("r", "q", "truthrl"));

        assertThat(v.votes()).extracting(Vote::outcome).containsExactly(Outcome.CORRECT, Outcome.UNPARSEABLE,
                Outcome.INCORRECT, Outcome.CORRECT, Outcome.CORRECT, Outcome.UNPARSEABLE, Outcome.CORRECT,
                Outcome.INCORRECT);
        assertThat(v.outcome()).isEqualTo(Outcome.CORRECT);
        assertThat(judge.stats().unparseableSamples()).isEqualTo(2);
        assertThat(traces.all()).singleElement().satisfies(r -> {
            assertThat(r.context().role()).isEqualTo("judge");
            assertThat(r.outputs()).hasSize(8);
        });
        assertThat(sim.recentRequests().getLast().body().get("n").asInt()).isEqualTo(8);
    }

    @Test
    void trueFalseMajorityOverHttp() {
        LlmClient client = LlmClient.builder(backend).build();
        TrueFalseJudge judge = new TrueFalseJudge(client, JudgeOptions.majorityOf(8, 0.7));
        Verdict v = judge.judge(JudgeInput.of("Q?", "pred", "a", "b"), CallContext.NONE);
        assertThat(v.correctVotes()).isEqualTo(5);
        assertThat(v.incorrectVotes()).isEqualTo(3);
        assertThat(v.outcome()).isEqualTo(Outcome.CORRECT);
    }
}
