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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The shared table (50+ rows) through the Java API: every row gives the reward and details worked out by hand. */
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
}
