package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.eval.run.DatasetProfile;
import dev.veracity.eval.run.DocumentSource;
import dev.veracity.eval.run.EvalRunner;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.llm.openai.OpenAiCompatibleBackend;
import dev.veracity.methods.march.ConsistencyRate;
import dev.veracity.methods.march.MarchMethod;
import dev.veracity.methods.march.MarchOutcome;
import dev.veracity.methods.march.Verification;
import dev.veracity.retrieval.Passage;
import dev.veracity.retrieval.Retriever;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import dev.veracity.testing.Shared;
import dev.veracity.trace.InMemoryTraces;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The MARCH demo and the march method end to end through the evaluation runner, both against the simulator. */
class MarchDemoTest {

    @TempDir
    Path dir;

    private static LlmClient client(SimServer sim, InMemoryTraces traces) {
        return LlmClient.builder(OpenAiCompatibleBackend.builder().baseUrl(sim.baseUrl()).model("sim-model").build())
                .closeBackend(true).traces(traces).build();
    }

    @Test
    void theDemoPrintsFiveConfirmedClaims() {
        InMemoryTraces traces = new InMemoryTraces();
        try (SimServer sim = SimServer.start(SimConfig.builder().rules(MarchDemo.simRules().toArray(dev.veracity.sim.Rule[]::new)).build());
             LlmClient client = client(sim, traces)) {
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            Verification v = MarchDemo.run(new PrintStream(buf, true, StandardCharsets.UTF_8), client, "march-demo");
            String out = buf.toString(StandardCharsets.UTF_8);
            assertThat(v.consistent()).isTrue();
            assertThat(out).contains("5 claims, 5 confirmed, 0 faults; zero-tolerance reward 0")
                    .contains("4 calls: 1 Proposer + 3 Checker samples").contains("dysautonomia").contains("89 / 89 / 89");
            assertThat(traces.all()).extracting(r -> r.context().role()).containsOnly("proposer", "checker");
        }
    }

    @ParameterizedTest
    @CsvSource({"hotpotqa, hotpotqa/hotpot_dev_v1_simplified.json", "ramdocs, ramdocs/RAMDocs_test.jsonl"})
    void evalRunsMarchWithOnePlusOnePlusKCallsPerQuestion(String dataset, String file) {
        Path data = Shared.data(file);
        List<MarchOutcome> outcomes = new CopyOnWriteArrayList<>();
        EvalRunner.QuestionTraces traces = new EvalRunner.QuestionTraces(new InMemoryTraces());
        try (SimServer sim = SimServer.start(SimConfig.builder().rules(MarchDemo.simRules().toArray(dev.veracity.sim.Rule[]::new)).build());
             LlmClient client = LlmClient.builder(OpenAiCompatibleBackend.builder().baseUrl(sim.baseUrl())
                     .model("sim-model").build()).closeBackend(true).traces(traces).build()) {
            int k = 3;
            // the simplified HotpotQA file has no paragraphs: MARCH needs documents, so they come from a retriever
            DocumentSource documents = dataset.equals("hotpotqa")
                    ? DocumentSource.index(Retriever.of((q, n) -> List.of(new Passage("p1", "Note",
                            "The population of the town was 12,500 in 2010.", 1.0))), Path.of("in-memory"), null, 1, "bm25")
                    : DocumentSource.dataset();
            EvalRunner.Spec spec = new EvalRunner.Spec(new MarchMethod(outcomes::add), dataset, data, 3,
                    dir.resolve(dataset), 2, DatasetProfile.of(dataset), Map.of("samples", Integer.toString(k)),
                    EvalRunner.labels("model", "sim-model"), null, null, null, documents);
            EvalRunner.Outcome outcome = EvalRunner.run(spec, client, traces, "march-eval", p -> {
            });
            assertThat(outcome.failures()).isEmpty();
            dev.veracity.eval.results.Summary summary = outcome.summary();
            assertThat(summary.n()).isEqualTo(3);
            assertThat(summary.method()).isEqualTo("march");
            assertThat(summary.callsPerQuestion()).isEqualTo(1 + 1 + k);
            assertThat(outcomes).hasSize(3).allSatisfy(o -> assertThat(o.last().verification().claims()).isNotEmpty());
            ConsistencyRate rate = ConsistencyRate.ofOutcomes(outcomes);
            assertThat(rate.answers()).isEqualTo(3);
            assertThat(rate.rate()).isBetween(0.0, 1.0);
            assertThat(dir.resolve(dataset).resolve("results.jsonl")).exists();
        }
    }
}
