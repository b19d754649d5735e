package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.sim.SimServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class SimCommandTest {

    @TempDir
    Path dir;

    private static SimServer start(String... args) throws Exception {
        SimCommand cmd = new SimCommand();
        new CommandLine(cmd).parseArgs(args);
        return cmd.startServer();
    }

    private static JsonNode post(SimServer sim, String json) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(sim.baseUrl() + "/chat/completions")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return new ObjectMapper().readTree(r.body());
    }

    @Test
    void answersNEquals2WithTwoChoicesAndAUsageBlock() throws Exception {
        Path rules = dir.resolve("rules.json");
        Files.writeString(rules, """
                {"rules": [{"pattern": "capital of (\\\\w+)", "responses": ["{{1}}: Paris? ({{sample}})", "{{1}}: Lyon? ({{sample}})"]}]}
                """);
        try (SimServer sim = start("--port", "0", "--rules", rules.toString(), "--model", "m1,m2")) {
            JsonNode r = post(sim, "{\"model\":\"m1\",\"n\":2,\"messages\":[{\"role\":\"user\",\"content\":\"capital of France\"}]}");

            assertThat(r.get("choices")).hasSize(2);
            assertThat(r.get("choices").get(0).get("message").get("content").asText()).startsWith("France: ");
            assertThat(r.get("choices").get(1).get("index").asInt()).isEqualTo(1);
            JsonNode usage = r.get("usage");
            assertThat(usage.get("prompt_tokens").asInt()).isPositive();
            assertThat(usage.get("completion_tokens").asInt()).isPositive();
            assertThat(usage.get("total_tokens").asInt())
                    .isEqualTo(usage.get("prompt_tokens").asInt() + usage.get("completion_tokens").asInt());
            assertThat(sim.config().models()).containsExactly("m1", "m2");
        }
    }

    @Test
    void flagsReachTheServerConfiguration() throws Exception {
        try (SimServer sim = start("--port", "0", "--ttft-ms", "30", "--tpot-ms", "2", "--capacity", "3",
                "--faults", "rate_limit=0.25", "--refuse-n", "--retry-after-ms", "1500")) {
            assertThat(sim.config().capacity()).isEqualTo(3);
            assertThat(sim.config().latency().timeToFirstToken().toMillis()).isEqualTo(30);
            assertThat(sim.config().latency().perOutputToken().toMillis()).isEqualTo(2);
            assertThat(sim.config().refuseN()).isTrue();
            assertThat(sim.config().faults().rate(dev.veracity.sim.FaultKind.RATE_LIMIT)).isEqualTo(0.25);
            assertThat(sim.config().retryAfter().toMillis()).isEqualTo(1500);
        }
    }

    @Test
    void readerAndBodyCapFlags() throws Exception {
        try (SimServer sim = start("--port", "0")) {
            assertThat(sim.config().reader()).isTrue();
            assertThat(sim.config().maxRequestBytes()).isEqualTo(32L << 20);
        }
        try (SimServer sim = start("--port", "0", "--no-reader", "--max-request-bytes", "4096")) {
            assertThat(sim.config().reader()).isFalse();
            assertThat(sim.config().maxRequestBytes()).isEqualTo(4096);
        }
    }

    @Test
    void modelFlagServesOnlyTheNamedModelsWhileTheDefaultAnswersAnyName() throws Exception {
        String body = "{\"model\":\"gpt-9\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
        try (SimServer sim = start("--port", "0")) {
            assertThat(post(sim, body).get("model").asText()).isEqualTo("gpt-9");
            assertThat(sim.config().models()).containsExactly("sim-model");
        }
        try (SimServer sim = start("--port", "0", "--model", "m1,m2")) {
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                            URI.create(sim.baseUrl() + "/chat/completions")).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(404);
            assertThat(new ObjectMapper().readTree(r.body()).get("error").get("code").asText()).isEqualTo("model_not_found");
        }
    }
}
