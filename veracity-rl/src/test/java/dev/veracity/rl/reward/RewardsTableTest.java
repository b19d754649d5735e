package dev.veracity.rl.reward;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.eval.metrics.Metrics;
import dev.veracity.llm.cache.CacheMode;
import dev.veracity.llm.cache.ResponseCache;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.llm.openai.OpenAiCompatibleBackend;
import dev.veracity.sim.Rule;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.veracity.http.ServerLog;
import dev.veracity.rl.server.RewardServer;
import dev.veracity.rl.server.RewardServerSettings;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The shared table (50+ rows) through the Java API (every row gives the reward and details worked out by hand) and through
 * the reward server's three doors, which must give exactly what the Java API gives. The command-line door runs the
 * same table in veracity-cli's {@code RewardCommandTest}.
 */
class RewardsTableTest {

    @Test
    void theTableHasFiftyRowsCoveringEveryRewardKind() {
        List<RewardsTable.Row> rows = RewardsTable.rows();
        assertThat(rows).hasSizeGreaterThanOrEqualTo(50);
        Set<String> names = new HashSet<>(RewardsTable.byReward().keySet());
        // every registered reward has rows, so a new reward cannot skip the three-door agreement
        assertThat(names).containsAll(Rewards.names()).containsAll(Metrics.names());
    }

    @Test
    void theJavaApiGivesEveryExpectedRewardAndDetail() {
        try (SimServer sim = SimServer.start(SimConfig.builder().rules(RewardsTable.simRules().toArray(Rule[]::new)).build());
             OpenAiCompatibleBackend backend = OpenAiCompatibleBackend.builder().baseUrl(sim.baseUrl()).model("sim-model").build();
             LlmClient client = LlmClient.builder(backend).concurrency(8).cache(ResponseCache.NONE, CacheMode.OFF).build()) {
            RewardSettings settings = RewardSettings.defaults().withLlm(client);
            int checked = 0;
            for (Map.Entry<String, List<RewardsTable.Row>> e : RewardsTable.byReward().entrySet()) {
                List<ObjectNode> got = RewardsTable.javaApi(Rewards.byName(e.getKey(), settings), e.getValue());
                for (int i = 0; i < got.size(); i++) {
                    RewardsTable.assertExpected(e.getValue().get(i), got.get(i));
                    checked++;
                }
            }
            assertThat(checked).isEqualTo(RewardsTable.rows().size());
        }
    }

    @Test
    void theServerGivesWhatTheJavaApiGivesThroughEachOfItsThreeDoors() throws Exception {
        try (SimServer sim = SimServer.start(SimConfig.builder().rules(RewardsTable.simRules().toArray(Rule[]::new)).build());
             OpenAiCompatibleBackend backend = OpenAiCompatibleBackend.builder().baseUrl(sim.baseUrl()).model("sim-model").build();
             LlmClient client = LlmClient.builder(backend).concurrency(8).cache(ResponseCache.NONE, CacheMode.OFF).build()) {
            RewardSettings settings = RewardSettings.defaults().withLlm(client);
            int compared = 0;
            for (Map.Entry<String, List<RewardsTable.Row>> e : RewardsTable.byReward().entrySet()) {
                Reward reward = Rewards.byName(e.getKey(), settings);
                List<RewardsTable.Row> rows = e.getValue();
                List<ObjectNode> api = RewardsTable.javaApi(reward, rows);
                try (RewardServer server = RewardServer.start(reward, RewardServerSettings.defaults(), ServerLog.none())) {
                    // native: the whole group in one batch
                    ObjectNode batch = JSON.createObjectNode();
                    ArrayNode items = batch.putArray("items");
                    rows.forEach(r -> items.addObject().put("question", r.row().get("question").asText())
                            .put("response", r.row().get("response").asText()).set("label", r.row().get("label")));
                    JsonNode nativeResults = post(server.baseUrl() + "/v1/rewards", batch).get("results");
                    for (int i = 0; i < rows.size(); i++) {
                        RewardsTable.Row row = rows.get(i);
                        String where = "row " + row.line() + " (" + e.getKey() + ")";
                        assertThat(nativeResults.get(i)).as(where + " native").isEqualTo(api.get(i));
                        RewardsTable.assertExpected(row, nativeResults.get(i));

                        // OpenRLHF: one sample per request, as its executor sends; the query carries the chat template
                        String prompt = "<|im_start|>user\n" + row.row().get("question").asText() + "<|im_end|>\n<|im_start|>assistant\n";
                        ObjectNode o = JSON.createObjectNode();
                        o.putArray("query").add(prompt + row.row().get("response").asText() + "<|im_end|>");
                        o.putArray("prompts").add(prompt);
                        o.putArray("labels").add(row.row().get("label"));
                        JsonNode openRlhf = post(server.baseUrl() + "/get_reward", o);
                        double expected = api.get(i).get("reward").asDouble();
                        assertThat(openRlhf.get("rewards").get(0).asDouble()).as(where + " openrlhf").isEqualTo(expected);
                        assertThat(openRlhf.get("scores").get(0).asDouble()).as(where + " openrlhf").isEqualTo(expected);
                        // extra_logs: exactly the reward's declared numeric details and fallback, whatever the row
                        JsonNode logs = openRlhf.get("extra_logs");
                        List<String> keys = new ArrayList<>(reward.numericDetails().keySet());
                        keys.add("fallback");
                        List<String> sent = new ArrayList<>();
                        logs.fieldNames().forEachRemaining(sent::add);
                        assertThat(sent).as(where + " extra_logs keys").isEqualTo(keys);
                        assertThat(logs.get("fallback").get(0).asDouble()).isZero();
                        JsonNode details = api.get(i).get("details");
                        details.properties().forEach(d -> {
                            JsonNode v = d.getValue();
                            if (v.isNumber() || v.isBoolean()) {
                                // every numeric detail a reward gives is declared (so it reaches extra_logs)
                                assertThat(logs.get(d.getKey())).as(where + " " + d.getKey() + " declared").isNotNull();
                                assertThat(logs.get(d.getKey()).get(0).asDouble()).as(where + " " + d.getKey())
                                        .isEqualTo(v.isBoolean() ? (v.asBoolean() ? 1.0 : 0.0) : v.asDouble());
                            }
                        });
                        reward.numericDetails().forEach((column, neutral) -> {
                            if (!details.has(column)) {
                                assertThat(logs.get(column).get(0).asDouble()).as(where + " " + column).isEqualTo(neutral);
                            }
                        });

                        // slime: {"reward": r, ...details}
                        ObjectNode sl = JSON.createObjectNode().put("prompt", prompt).put("response", row.row().get("response").asText());
                        sl.set("label", row.row().get("label"));
                        JsonNode slime = post(server.baseUrl() + "/slime", sl);
                        ObjectNode apiFlat = JSON.createObjectNode().put("reward", expected);
                        apiFlat.setAll((ObjectNode) api.get(i).get("details"));
                        assertThat(slime).as(where + " slime").isEqualTo(apiFlat);
                        compared++;
                    }
                }
            }
            assertThat(compared).isEqualTo(RewardsTable.rows().size());
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static JsonNode post(String url, JsonNode body) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(url + ": " + r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }
}
