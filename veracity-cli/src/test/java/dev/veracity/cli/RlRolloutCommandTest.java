package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.method.AgentRecord;
import dev.veracity.rl.rollout.HotpotSample;
import dev.veracity.sim.ArealSession;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import dev.veracity.sim.Tokenizer;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rl rollout --areal} against the simulator's AReaL gateway, and {@code --return-token-ids}: the records of
 * MARCH's eval and of the C-3PO rollout keep the engine's token ids.
 */
class RlRolloutCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private String err;
    private String out;

    private int run(String... args) {
        CliRun.Result r = CliRun.run(args);
        err = r.err();
        out = r.out();
        return r.code();
    }

    private Path ramdocs(int n) throws Exception {
        Path data = dir.resolve("ramdocs.jsonl");
        try (InputStream in = VeracityCli.class.getResourceAsStream("/dev/veracity/cli/demo/ramdocs-20.jsonl")) {
            List<String> lines = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).lines().limit(n).toList();
            Files.write(data, lines);
        }
        return data;
    }

    @Test
    void marchOnlineRolloutEndsOneSessionPerQuestionAndResumes() throws Exception {
        Path data = ramdocs(3);
        Path r = dir.resolve("online");
        try (SimServer sim = SimServer.start(SimConfig.builder().areal("areal-admin-key").build())) {
            String[] args = {"rl", "rollout", "--method", "march", "--areal", sim.arealUrl(), "--dataset", "ramdocs",
                    "--data", data.toString(), "--out", r.toString(), "--llm-base-url", sim.baseUrl(), "--model", "sim-model",
                    "--cache", "off"};
            assertThat(run(args)).as(err).isZero();
            assertThat(err).contains("3 sessions ended now");
            assertThat(JSON.readTree(out).get("questions").asInt()).isEqualTo(3);
            assertThat(sim.arealSessions()).hasSize(3).allMatch(ArealSession::ended)
                    .allSatisfy(s -> assertThat(s.interactions()).hasSize(2)
                            .allSatisfy(i -> assertThat(i.rewardsSet()).isEqualTo(1)));
            assertThat(run(args)).as(err).isZero();
            assertThat(err).contains("3 already done, 0 sessions ended now");
            assertThat(sim.arealSessions()).hasSize(3);
        }
        assertThat(Files.readAllLines(r.resolve("records.jsonl"))).hasSize(6);
        assertThat(Files.readAllLines(r.resolve("rewards.jsonl"))).hasSize(6);
        assertThat(run("rl", "inspect", r.resolve("records.jsonl").toString())).as(err).isZero();
    }

    @Test
    void aBadMethodOrAGatewayDownIsOneLine() throws Exception {
        Path data = ramdocs(1);
        assertThat(run("rl", "rollout", "--method", "madam", "--areal", "http://127.0.0.1:9", "--dataset", "ramdocs",
                "--data", data.toString(), "--out", dir.resolve("x").toString(), "--no-preflight")).isEqualTo(2);
        assertThat(err.strip()).endsWith("rl rollout: --method must be march or c3po, was 'madam'").doesNotContain("\n");
        try (SimServer sim = SimServer.start()) {
            assertThat(run("rl", "rollout", "--method", "march", "--areal", "http://127.0.0.1:9", "--dataset", "ramdocs",
                    "--data", data.toString(), "--out", dir.resolve("y").toString(), "--llm-base-url", sim.baseUrl(),
                    "--model", "sim-model", "--cache", "off")).isEqualTo(1);
            assertThat(err).contains("failed ramdocs-0: http://127.0.0.1:9/rl/start_session: no answer (");
        }
    }

    @Test
    void returnTokenIdsPutsTheEnginesIdsIntoMarchAndC3poRecords() throws Exception {
        Path data = ramdocs(2);
        Path hotpot = HotpotSample.write(dir.resolve("hotpot.json"), 2);
        try (SimServer sim = SimServer.start()) {
            assertThat(run("eval", "--method", "march", "--dataset", "ramdocs", "--data", data.toString(), "--out",
                    dir.resolve("e").toString(), "--llm-base-url", sim.baseUrl(), "--model", "sim-model", "--cache", "off",
                    "--return-token-ids")).as(err).isZero();
            assertThat(run("rollout", "c3po", "--dataset", "hotpotqa", "--data", hotpot.toString(), "--out",
                    dir.resolve("c").toString(), "--llm-base-url", sim.baseUrl(), "--model", "sim-model", "--cache", "off",
                    "--return-token-ids")).as(err).isZero();
            assertThat(run("eval", "--method", "march", "--dataset", "ramdocs", "--data", data.toString(), "--out",
                    dir.resolve("plain").toString(), "--llm-base-url", sim.baseUrl(), "--model", "sim-model", "--cache", "off"))
                    .as(err).isZero();
        }
        List<String> march = Files.readAllLines(dir.resolve("e/march-records.jsonl"));
        assertThat(march).hasSize(4);
        for (String line : march) {
            AgentRecord r = AgentRecord.fromJson(JSON.readTree(line));
            assertThat(r.promptIds()).isEqualTo(Tokenizer.ids(r.messages().getFirst().content()));
            assertThat(r.responseIds()).isEqualTo(Tokenizer.ids(r.response())).isNotEmpty();
            assertThat(r.logprobs()).hasSameSizeAs(r.responseIds()).allMatch(lp -> lp <= 0);
        }
        int forced = 0;
        for (String line : Files.readAllLines(dir.resolve("c/records.jsonl"))) {
            JsonNode n = JSON.readTree(line);
            if (n.path("forced").asBoolean()) {
                forced++; // written, not sampled: no tokens to keep
                assertThat(n.has("response_ids")).isFalse();
            } else {
                AgentRecord r = AgentRecord.fromJson(n);
                String prompt = r.messages().get(0).content() + "\n\n" + r.messages().get(1).content();
                assertThat(r.promptIds()).isEqualTo(Tokenizer.ids(prompt));
                assertThat(r.responseIds()).isEqualTo(Tokenizer.ids(r.response()));
                assertThat(r.logprobs()).hasSameSizeAs(r.responseIds());
            }
        }
        assertThat(forced).isEqualTo(6);
        // without the flag the records simply lack the fields
        assertThat(Files.readAllLines(dir.resolve("plain/march-records.jsonl"))).isNotEmpty()
                .allSatisfy(l -> assertThat(JSON.readTree(l).has("prompt_ids")).isFalse());
    }
}
