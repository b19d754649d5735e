package dev.veracity.rl.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.http.ServerLog;
import dev.veracity.rl.PythonDriver;
import dev.veracity.rl.reward.Reward;
import dev.veracity.rl.reward.Rewards;
import dev.veracity.rl.reward.RewardsTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Python shims we ship ({@code python/veracity_rl}), imported by {@code python3} as their trainers load them and
 * called against a reward server started here: every reward they return equals the Java API's. No trainer is
 * installed; the shims need nothing beyond Python's standard library. Skipped, saying so, only without python3.
 */
class PythonShimsTest {

    private static final Path SHIMS = PythonDriver.SHIMS;

    @TempDir
    Path dir;

    @Test
    void theVerlAndTrlShimsReturnTheJavaApisRewards() throws Exception {
        Assumptions.assumeTrue(PythonDriver.available(),
                "python3 is not installed: the Python shim test (python/veracity_rl against serve-rewards) is skipped");
        assertThat(SHIMS.resolve("veracity_rl/verl_reward.py")).exists();
        Path driver = PythonDriver.script("shim_driver.py", dir);
        int compared = 0;
        for (String name : List.of("truthrl-ternary", "f1", "strict-multi")) {
            List<RewardsTable.Row> rows = RewardsTable.byReward().get(name);
            Reward reward = Rewards.byName(name);
            List<ObjectNode> api = RewardsTable.javaApi(reward, rows);
            Path rowsFile = dir.resolve(name + ".jsonl");
            List<String> lines = new ArrayList<>();
            rows.forEach(r -> lines.add(r.row().toString()));
            Files.write(rowsFile, lines);
            try (RewardServer server = RewardServer.start(reward, RewardServerSettings.defaults(), ServerLog.none())) {
                JsonNode out = runDriver(driver, rowsFile, server.baseUrl());
                for (int i = 0; i < rows.size(); i++) {
                    double expected = api.get(i).get("reward").asDouble();
                    String where = name + " row " + rows.get(i).line();
                    assertThat(out.get("verl").get(i).get("score").asDouble()).as(where + " verl").isEqualTo(expected);
                    assertThat(out.get("verl").get(i).get("fallback").asBoolean()).as(where).isFalse();
                    assertThat(out.get("verl_async").get(i).get("score").asDouble()).as(where + " verl async").isEqualTo(expected);
                    assertThat(out.get("trl").get(i).asDouble()).as(where + " trl").isEqualTo(expected);
                    assertThat(out.get("trl_chat").get(i).asDouble()).as(where + " trl chat").isEqualTo(expected);
                    compared++;
                }
                assertThat(out.get("verl_url_kwarg").get("score").asDouble()).isEqualTo(api.get(0).get("reward").asDouble());
                // the row without a label is None for TRL (left out of its mean and std)
                assertThat(out.get("trl").get(rows.size()).isNull()).isTrue();
                assertThat(out.get("trl").size()).isEqualTo(rows.size() + 1);
                assertThat(out.get("metrics").toString()).isEqualTo(
                        "[[\"veracity/fallback_share\",0.0],[\"veracity/fallback_share\",0.0]]");
                assertThat(out.get("bad_label").asText()).startsWith("veracity reward server " + server.baseUrl()
                        + "/v1/rewards: HTTP 400: ").contains("items[0].label: the label starts with '{' but is not JSON");
            }
        }
        assertThat(compared).isGreaterThanOrEqualTo(8);
    }

    private JsonNode runDriver(Path driver, Path rowsFile, String url) throws IOException, InterruptedException {
        return PythonDriver.run(dir, Map.of("VERACITY_REWARD_URL", url), driver.toString(), SHIMS.toString(),
                rowsFile.toString());
    }
}
