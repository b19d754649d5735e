package dev.veracity.methods.march;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.llm.LlmRequest;
import dev.veracity.llm.ScriptedBackend;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.method.MethodAnswer;
import dev.veracity.method.MethodContext;
import dev.veracity.qa.QaItem;
import dev.veracity.trace.CallContext;
import dev.veracity.trace.InMemoryTraces;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

class MarchMethodTest {

    private static final QaItem ITEM = new QaItem("g1", AppendixC.QUESTION, AppendixC.DOCUMENTS, List.of(), List.of(),
            null, Map.of(), null);

    private final InMemoryTraces traces = new InMemoryTraces();
    private final List<MarchOutcome> outcomes = new CopyOnWriteArrayList<>();

    private MethodAnswer answer(BiFunction<LlmRequest, Integer, String> model, Map<String, String> options) {
        LlmClient client = LlmClient.builder(ScriptedBackend.perSample(model)).traces(traces).build();
        MethodContext ctx = new MethodContext(client, CallContext.of("run", "g1", "march"), "", false, options);
        return new MarchMethod(outcomes::add).answer(ITEM, ctx);
    }

    /** The paper's model, except that the Solver's first sample misquotes 78% as 87%. */
    private static String wrongFirst(LlmRequest r, int sample) {
        String out = AppendixC.respond(r.promptText());
        if (r.promptText().contains("You must respond based strictly") && sample == 0) {
            return out.replace("78% of patients", "87% of patients");
        }
        if (r.promptText().contains("data annotation expert") && r.promptText().contains("87% of patients")) {
            return out.replace("[Answer: 78]", "[Answer: 87]");
        }
        return out;
    }

    @Test
    void answersWithTheSolverAndVerifiesWithOnePlusOnePlusKCalls() {
        MethodAnswer a = answer((r, i) -> AppendixC.respond(r.promptText()), Map.of());
        assertThat(a.prediction()).startsWith("The clinical presentation of Parkinsonism");
        assertThat(a.parseFailures()).isEmpty();
        assertThat(traces.all()).hasSize(1 + 1 + 3);
        assertThat(traces.all()).extracting(r -> r.context().role()).containsOnly("solver", "proposer", "checker");
        MarchOutcome o = outcomes.getFirst();
        assertThat(o.consistent()).isTrue();
        assertThat(o.ztr()).isZero();
        assertThat(ConsistencyRate.ofOutcomes(outcomes).rate()).isEqualTo(1.0);
    }

    @Test
    void samplesOptionSetsTheCheckerCalls() {
        answer((r, i) -> AppendixC.respond(r.promptText()), Map.of("samples", "5"));
        assertThat(traces.where(r -> r.context().role().equals("checker"))).hasSize(5);
        assertThat(traces.all()).hasSize(7);
    }

    @Test
    void reportKeepsAFaultyAnswerAndAbstainWithholdsIt() {
        MethodAnswer reported = answer(MarchMethodTest::wrongFirst, Map.of());
        assertThat(reported.prediction()).contains("87% of patients");
        assertThat(outcomes.getLast().ztr()).isEqualTo(-1.0);
        MethodAnswer abstained = answer(MarchMethodTest::wrongFirst, Map.of("policy", "abstain"));
        assertThat(abstained.prediction()).isEqualTo(MarchMethod.ABSTENTION);
        assertThat(ConsistencyRate.ofOutcomes(outcomes)).isEqualTo(new ConsistencyRate(2, 0, 0, 0, 0.0));
    }

    @Test
    void regenerateSamplesTheSolverAgainUntilItPasses() {
        MethodAnswer a = answer(MarchMethodTest::wrongFirst, Map.of("policy", "regenerate", "r", "2"));
        assertThat(a.prediction()).contains("78% of patients");
        MarchOutcome o = outcomes.getFirst();
        assertThat(o.attempts()).hasSize(2);
        assertThat(o.consistent()).isTrue();
        assertThat(traces.all()).hasSize(2 * (1 + 1 + 3));
        assertThat(traces.where(r -> r.context().role().equals("solver"))).extracting(r -> r.context().step()).containsExactly(0, 1);
    }

    @Test
    void trainingRecordsHoldTheSolverAndOneCheckerTrajectoryWithTheZtr() throws Exception {
        answer(MarchMethodTest::wrongFirst, Map.of("policy", "regenerate", "r", "1"));
        List<dev.veracity.method.AgentRecord> records = outcomes.getFirst().trainingRecords("run-1");
        assertThat(records).extracting(dev.veracity.method.AgentRecord::role).containsExactly("solver", "checker", "solver", "checker");
        assertThat(records).extracting(dev.veracity.method.AgentRecord::reward).containsExactly(-1.0, -1.0, 0.0, 0.0);
        assertThat(records).extracting(dev.veracity.method.AgentRecord::nodeId)
                .containsExactly("solver-0", "checker-0-0", "solver-1", "checker-1-0");
        assertThat(records).extracting(dev.veracity.method.AgentRecord::parentId)
                .containsExactly(null, "solver-0", null, "solver-1");
        JsonNode checker = records.get(1).toJson();
        assertThat(dev.veracity.method.AgentRecord.fromJson(checker)).isEqualTo(records.get(1));
        assertThat(checker.get("role").asText()).isEqualTo("checker");
        assertThat(checker.get("question_id").asText()).isEqualTo("g1");
        assertThat(checker.get("method").asText()).isEqualTo("march");
        assertThat(checker.get("run").asText()).isEqualTo("run-1");
        assertThat(checker.at("/messages/0/role").asText()).isEqualTo("user");
        assertThat(checker.at("/messages/0/content").asText()).contains("You are a data validation expert")
                .doesNotContain("87% of patients");
        assertThat(checker.get("response").asText()).contains("Evidence");
        assertThat(checker.get("reward").asDouble()).isEqualTo(-1.0);
    }

    @Test
    void optionsAreValidated() {
        assertThatThrownBy(() -> MarchSettings.fromOptions(Map.of("sample", "3"))).hasMessageContaining("unknown option 'sample' for method march");
        assertThatThrownBy(() -> MarchSettings.fromOptions(Map.of("samples", "0"))).hasMessageContaining("samples");
        assertThatThrownBy(() -> MarchSettings.fromOptions(Map.of("policy", "retry"))).hasMessageContaining("report, abstain, regenerate");
        assertThatThrownBy(() -> MarchSettings.fromOptions(Map.of("min-pairs", "x"))).hasMessageContaining("min-pairs");
        assertThatThrownBy(() -> MarchSettings.fromOptions(Map.of("match", "fuzzy"))).hasMessageContaining("match");
        MarchSettings s = MarchSettings.fromOptions(Map.of("claims", "typed", "scalar", "0/1"));
        assertThat(s.match()).isEqualTo("typed");
        assertThat(s.scalar()).isEqualTo(ZeroToleranceReward.Scalar.INCENTIVE);
        assertThat(new Proposer(s).prompt("r")).contains("a date, a name, or a yes/no fact");
    }

    @Test
    void aMinPairsAboveTheDefaultMaxRaisesItUnlessMaxPairsIsGiven() {
        // as veracity verify --min-pairs 12 has always done, now for every caller (the MCP verify tool too)
        MarchSettings raised = MarchSettings.fromOptions(Map.of("min-pairs", "12"));
        assertThat(raised.minPairs()).isEqualTo(12);
        assertThat(raised.maxPairs()).isEqualTo(12);
        assertThat(MarchSettings.fromOptions(Map.of("min-pairs", "4")).maxPairs())
                .isEqualTo(MarchSettings.defaults().maxPairs());
        assertThatThrownBy(() -> MarchSettings.fromOptions(Map.of("min-pairs", "12", "max-pairs", "10")))
                .hasMessageContaining("12").hasMessageContaining("10");
    }

    @Test
    void typedClaimsUseTheExtensionPrompts() {
        MarchSettings s = MarchSettings.fromOptions(Map.of("claims", "typed"));
        assertThat(new Checker(s).prompt(new CheckerInput(AppendixC.DOCUMENTS, List.of("When?"))))
                .contains("dates as YYYY-MM-DD").contains("- Question 1: When?");
        assertThat(new Checker(MarchSettings.defaults()).prompt(new CheckerInput(List.of(), List.of("q"))))
                .contains("It is important to note that all answers are pure numbers.");
    }
}
