package dev.veracity.eval.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.veracity.eval.results.ResultLine;
import dev.veracity.eval.results.ResultsJson;
import dev.veracity.eval.results.TestLines;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.trace.CallContext;
import dev.veracity.trace.CallRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Reasoning Court's Table 4 per role: calls, samples, the span of a role's calls and its model seconds. */
class RoleStatsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * A call of {@code role} from {@code start} to {@code end} (microseconds): answered by the model, or by the cache
     * ({@code cachedLatency} >= 0: the latency the request that stored it had; -1: not recorded).
     */
    private static CallRecord call(String role, long start, long end, long cachedLatency) {
        boolean cached = cachedLatency != 0;
        return new CallRecord("c" + start, CallContext.of("r", "q", "m").role(role), "b", "m", "p", "{}", List.of("x"),
                List.of("stop"), cached ? 0 : 10, cached ? 0 : 2, 1, cached ? 1 : 0, cached ? 10 : 0, cached ? 2 : 0,
                cachedLatency, start, start, end, cached, cached ? 0 : 1, 0, null);
    }

    @Test
    void aRolesModelSecondsCountWhatItsCachedRequestsTookWhenTheyWereMade() {
        // agent-1's two calls came from the cache in 1 ms each; their requests took 400 and 600 ms when made
        JsonNode line = ResultsJson.tree(RoleStats.ofQuestion(List.of(
                call("agent-1", 0, 1_000, 400_000), call("agent-1", 1_000, 2_000, 600_000),
                call("judge", 2_000, 302_000, 0))));
        assertThat(line.at("/agent-1/calls").asInt()).isEqualTo(2);
        assertThat(line.at("/agent-1/seconds").asDouble()).isEqualTo(0.002); // as run: two lookups
        assertThat(line.at("/agent-1/model_seconds").asDouble()).isEqualTo(1.0);
        assertThat(line.at("/judge/seconds").asDouble()).isEqualTo(0.3);
        assertThat(line.at("/judge/model_seconds").asDouble()).isEqualTo(0.3);
        // a cache entry stored without its latency: unknown, not 0
        JsonNode unknown = ResultsJson.tree(RoleStats.ofQuestion(List.of(call("agent-1", 0, 1_000, -1), call("judge", 0, 1_000, 0))));
        assertThat(unknown.path("agent-1").has("model_seconds")).isFalse();
        assertThat(unknown.at("/judge/model_seconds").asDouble()).isEqualTo(0.001);
    }

    @Test
    void theRunsModelSecondsPerQuestionAverageTheLinesThatRecordThem() throws Exception {
        List<ResultLine> lines = TestLines.of(
                ("{\"roles\": {\"agent-1\": {\"calls\": 2, \"samples\": 2, \"seconds\": 0.002,"
                        + " \"model_seconds\": 1.0}, \"judge\": {\"calls\": 1, \"samples\": 1, \"seconds\": 0.3,"
                        + " \"model_seconds\": 0.3}}}"),
                ("{\"roles\": {\"agent-1\": {\"calls\": 1, \"samples\": 1, \"seconds\": 0.5,"
                        + " \"model_seconds\": 0.5}}}"),
                // written before model seconds were: left out of them, counted in calls and seconds
                ("{\"roles\": {\"agent-1\": {\"calls\": 3, \"samples\": 3, \"seconds\": 0.7}}}"));
        JsonNode run = ResultsJson.tree(RoleStats.ofRun(lines));
        assertThat(run.at("/agent-1/calls_per_question").asDouble()).isEqualTo(2.0);
        assertThat(run.at("/agent-1/seconds_per_question").asDouble()).isEqualTo((0.002 + 0.5 + 0.7) / 3);
        assertThat(run.at("/agent-1/model_seconds_per_question").asDouble()).isEqualTo(0.75);
        assertThat(run.at("/judge/model_seconds_per_question").asDouble()).isEqualTo(0.15);
        JsonNode old = ResultsJson.tree(RoleStats.ofRun(lines.subList(2, 3)));
        assertThat(old.path("agent-1").has("model_seconds_per_question")).isFalse();
    }
}
