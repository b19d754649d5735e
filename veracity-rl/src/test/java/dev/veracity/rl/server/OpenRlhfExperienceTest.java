package dev.veracity.rl.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.http.JsonReply;
import dev.veracity.http.JsonServer;
import dev.veracity.rl.PythonDriver;
import dev.veracity.rl.reward.Reward;
import dev.veracity.rl.reward.Rewards;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reward server's OpenRLHF answers through OpenRLHF's own path from reward to training batch, restated in
 * {@code python/openrlhf_experience_driver.py} (OpenRLHF 0.11.0: one sample per request, its {@code extra_logs} turned
 * into {@code info} tensors, micro-batches concatenated key by key and split per sample) and run with torch. Scored
 * samples and fallbacks (a query that does not start with its prompt) share micro-batches: every answer must carry
 * the same {@code extra_logs} keys, or OpenRLHF raises "Size of info[boxed] (1) does not match batch_size (2)". Skipped,
 * saying so, only where neither {@code python3} nor {@code /usr/bin/python3} can import torch (Debian: {@code apt-get
 * install python3-torch}, which {@code .ci/run} does).
 */
class OpenRlhfExperienceTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PROMPT = "<|im_start|>user\nWhere is the Eiffel Tower? Put the final answer in"
            + " \\boxed{}.<|im_end|>\n<|im_start|>assistant\n";

    @TempDir
    Path dir;

    @Test
    void microBatchesMixingScoredSamplesAndFallbacksGoThroughOpenRlhfsExperiencePath() throws Exception {
        Optional<String> python = PythonDriver.withModule("torch");
        Assumptions.assumeTrue(python.isPresent(), "neither python3 nor /usr/bin/python3 can import torch (apt-get install"
                + " python3-torch): the OpenRLHF experience test is skipped");
        Path driver = PythonDriver.script("openrlhf_experience_driver.py", dir);
        // scored, fallback, scored, scored, fallback, fallback: micro-batches of 2 mix them every way
        List<String> responses = List.of("It is in \\boxed{Paris}.", "FALLBACK", "No box at all.", "\\boxed{I don't know}",
                "FALLBACK", "FALLBACK");
        Path samples = dir.resolve("samples.jsonl");
        List<String> lines = new ArrayList<>();
        for (String r : responses) {
            String query = r.equals("FALLBACK") ? "Another prompt entirely. " + r : PROMPT + r + "<|im_end|>";
            lines.add(JSON.writeValueAsString(Map.of("query", query, "prompt", PROMPT, "label", "Paris")));
        }
        Files.write(samples, lines);
        for (String name : List.of("truthrl-ternary", "strict-multi", "c3po-accuracy")) {
            Reward reward = Rewards.byName(name);
            try (RewardServer server = RewardServer.start(reward, RewardServerSettings.defaults().withFallbackScore(-0.5),
                    new LogLines())) {
                JsonNode out = PythonDriver.run(python.get(), dir, Map.of(), driver.toString(), server.baseUrl(),
                        samples.toString(), "2");
                assertThat(out.get("ok").asBoolean()).as(name + ": " + out).isTrue();
                JsonNode info = out.get("info");
                assertThat(info.get("fallback").toString()).as(name).isEqualTo("[0.0,1.0,0.0,0.0,1.0,1.0]");
                // every declared column, with its neutral value for the fallbacks
                reward.numericDetails().forEach((column, neutral) -> {
                    assertThat(info.get(column)).as(name + " " + column).hasSize(6);
                    for (int i : new int[] {1, 4, 5}) {
                        assertThat(info.get(column).get(i).asDouble()).as(name + " " + column).isEqualTo(neutral);
                    }
                });
                assertThat(out.get("rewards").get(1).asDouble()).isEqualTo(-0.5);
                if (name.equals("truthrl-ternary")) {
                    assertThat(info.get("boxed").toString()).isEqualTo("[1.0,0.0,0.0,1.0,0.0,0.0]");
                    assertThat(out.get("rewards").toString()).isEqualTo("[1.0,-0.5,-1.0,0.0,-0.5,-0.5]");
                }
            }
        }
    }

    @Test
    void theDriverRaisesOpenRlhfsErrorForAnswersWhoseKeysDiffer() throws Exception {
        // The check that the test above can fail: a server answering as before (a fallback with only "fallback")
        // through the same driver gives OpenRLHF's own error.
        Optional<String> python = PythonDriver.withModule("torch");
        Assumptions.assumeTrue(python.isPresent(), "neither python3 nor /usr/bin/python3 can import torch (apt-get install"
                + " python3-torch): the OpenRLHF experience test is skipped");
        Path driver = PythonDriver.script("openrlhf_experience_driver.py", dir);
        Path samples = dir.resolve("samples.jsonl");
        Files.write(samples, List.of(JSON.writeValueAsString(Map.of("query", "ok", "prompt", "p", "label", "x")),
                JSON.writeValueAsString(Map.of("query", "fallback", "prompt", "p", "label", "x"))));
        try (JsonServer old = JsonServer.builder().route("POST", "/get_reward", call -> {
            ObjectNode a = JSON.createObjectNode();
            boolean ok = call.body().get("query").get(0).asText().equals("ok");
            a.putArray("rewards").add(ok ? 1.0 : 0.0);
            a.putArray("scores").add(ok ? 1.0 : 0.0);
            ObjectNode logs = a.putObject("extra_logs");
            if (ok) {
                logs.putArray("boxed").add(1.0);
            }
            logs.putArray("fallback").add(ok ? 0.0 : 1.0);
            return JsonReply.ok(a);
        }).start()) {
            JsonNode out = PythonDriver.run(python.get(), dir, Map.of(), driver.toString(), old.baseUrl(), samples.toString(), "2");
            assertThat(out.get("ok").asBoolean()).isFalse();
            assertThat(out.get("error").asText()).isEqualTo("ValueError: Size of info[boxed] (1) does not match batch_size (2)");
        }
    }
}
