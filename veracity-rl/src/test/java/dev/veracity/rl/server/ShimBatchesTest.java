package dev.veracity.rl.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.http.HttpProblem;
import dev.veracity.http.JsonReply;
import dev.veracity.http.JsonServer;
import dev.veracity.http.ServerLimits;
import dev.veracity.rl.PythonDriver;
import dev.veracity.rl.reward.Label;
import dev.veracity.rl.reward.Reward;
import dev.veracity.rl.reward.RewardInput;
import dev.veracity.rl.reward.RewardResult;
import dev.veracity.rl.reward.Rewards;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The TRL and VeRL shims ({@code python/veracity_rl}, through {@code reward_client.py}) with batches larger than the
 * server takes and a server that is busy or restarting, run by {@code python3} as their trainers call them
 * ({@code python/shim_batch_driver.py}) against a reward server started here. Every reward they return equals the Java
 * API's. Skipped, saying so, only without python3.
 */
class ShimBatchesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Reward TERNARY = Rewards.byName("truthrl-ternary");

    @TempDir
    Path dir;

    private Path driver;

    @BeforeEach
    void python() throws Exception {
        Assumptions.assumeTrue(PythonDriver.available(),
                "python3 is not installed: the Python shim batch tests (python/veracity_rl against serve-rewards) are skipped");
        driver = PythonDriver.script("shim_batch_driver.py", dir);
    }

    @Test
    void aBatchOf2048CompletionsIsSplitToTheServersLimitOnceItsLimitIsKnown() throws Exception {
        List<Map<String, String>> rows = rows(2048, 0);
        LogLines log = new LogLines();
        try (RewardServer s = RewardServer.start(TERNARY, RewardServerSettings.defaults(), log)) {
            // TRL: two training steps of 2,048 completions; the first learns the limit from the 413, the second does not ask
            JsonNode trl = run(s, "trl", rows, 2);
            assertThat(trl.has("error")).as(trl.toString()).isFalse();
            for (JsonNode step : trl.get("calls")) {
                assertThat(numbers(step)).isEqualTo(expected(rows));
            }
            // VeRL's batch manager: the whole batch in one call, loaded by path (its own copy of the client)
            JsonNode verl = run(s, "verl_batch", rows, 1);
            assertThat(verl.has("error")).as(verl.toString()).isFalse();
            JsonNode scores = verl.get("calls").get(0);
            assertThat(scores).hasSize(2048);
            List<Double> got = new ArrayList<>();
            scores.forEach(r -> {
                got.add(r.get("score").asDouble());
                assertThat(r.get("fallback").asBoolean()).isFalse();
            });
            assertThat(got).isEqualTo(expected(rows));
            String metrics = Http.get(s.baseUrl() + "/metrics").body();
            // one refusal per client (TRL's and VeRL's), then halves of 1,024: 2 + 2 + 2
            assertThat(metrics).contains("veracity_http_requests_total{route=\"/v1/rewards\",status=\"413\"} 2")
                    .contains("veracity_http_requests_total{route=\"/v1/rewards\",status=\"200\"} 6");
            assertThat(log.warnings()).allSatisfy(l -> assertThat(l).contains("413 \"items\" has 2,048 items; this server"
                    + " takes at most 1,024 per request"));
        }
    }

    @Test
    void aBatchOverTheBodyLimitIsSplitByBytesAndAnItemTooLargeAloneIsNamed() throws Exception {
        List<Map<String, String>> rows = rows(60, 200); // about 15 KB of JSON
        RewardServerSettings small = RewardServerSettings.defaults().withLimits(ServerLimits.defaults().withMaxBodyBytes(4096));
        try (RewardServer s = RewardServer.start(TERNARY, small, new LogLines())) {
            JsonNode trl = run(s, "trl", rows, 1);
            assertThat(trl.has("error")).as(trl.toString()).isFalse();
            assertThat(numbers(trl.get("calls").get(0))).isEqualTo(expected(rows));
            String metrics = Http.get(s.baseUrl() + "/metrics").body();
            assertThat(metrics).contains("veracity_http_requests_total{route=\"/v1/rewards\",status=\"413\"} 1");

            List<Map<String, String>> huge = List.of(Map.of("question", "q", "response", "x".repeat(5000), "label", "Paris"));
            JsonNode alone = run(s, "verl_batch", huge, 1);
            assertThat(alone.get("error").asText()).startsWith("veracity reward server " + s.baseUrl() + "/v1/rewards:"
                    + " item 0 alone (5,").contains("HTTP 413: the body has").contains("at most 4,096 bytes");
        }
    }

    @Test
    void a50MbBodyToTheDefaultServerIsAnsweredWithA413ThatUrllibReads() throws Exception {
        // urllib writes the whole body before it reads: the server used to close under it (a broken pipe)
        List<Map<String, String>> huge = List.of(Map.of("question", "q", "response", "x".repeat(50_000_000), "label", "Paris"));
        try (RewardServer s = RewardServer.start(TERNARY, RewardServerSettings.defaults(), new LogLines())) {
            JsonNode out = run(s, "trl", huge, 1);
            assertThat(out.get("error").asText()).contains("item 0 alone (50,000,").contains("HTTP 413: the body has 50,000,")
                    .contains("at most 16,777,216 bytes");
        }
    }

    @Test
    void aBusyServersRetryAfterIsHonouredAndTheBatchScored() throws Exception {
        // One request at a time and no queue: while a held request runs, the shim's gets 429 with Retry-After: 1
        Gate gate = new Gate();
        RewardServerSettings one = RewardServerSettings.defaults().withLimits(ServerLimits.defaults()
                .withMaxConcurrentRequests(1).withQueueWait(Duration.ZERO));
        List<Map<String, String>> rows = rows(5, 0);
        try (RewardServer s = RewardServer.start(gate, one, new LogLines())) {
            CompletableFuture<Http.Reply> held = CompletableFuture.supplyAsync(() -> Http.post(s.baseUrl() + "/v1/rewards",
                    Http.json(Map.of("items", List.of(Map.of("response", Gate.HOLD, "label", "Paris"))))));
            assertThat(gate.entered.await(30, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<JsonNode> shim = CompletableFuture.supplyAsync(() -> run(s, "trl", rows, 1));
            awaitMetric(s, "veracity_http_requests_total{route=\"/v1/rewards\",status=\"429\"}");
            gate.release.countDown();
            JsonNode out = shim.get(60, TimeUnit.SECONDS);
            assertThat(out.has("error")).as(out.toString()).isFalse();
            assertThat(numbers(out.get("calls").get(0))).isEqualTo(expected(rows));
            assertThat(held.get(30, TimeUnit.SECONDS).status()).isEqualTo(200);
            assertThat(Http.get(s.baseUrl() + "/metrics").body())
                    .contains("veracity_http_requests_total{route=\"/v1/rewards\",status=\"200\"} 2");
        }
    }

    @Test
    void aServerRestartingIsRetriedAfterIts503StoppingAndTheNewOneScores() throws Exception {
        Gate gate = new Gate();
        LogLines firstLog = new LogLines();
        RewardServer first = RewardServer.start(gate, RewardServerSettings.defaults()
                .withLimits(ServerLimits.defaults().withStopGrace(Duration.ofMillis(200))), firstLog);
        int port = first.port();
        List<Map<String, String>> rows = List.of(Map.of("question", "q", "response", Gate.HOLD, "label", "Paris"),
                Map.of("question", "q", "response", "\\boxed{Paris}", "label", "Paris"));
        CompletableFuture<JsonNode> shim = CompletableFuture.supplyAsync(() -> run(first.baseUrl(), "trl", rows, 1));
        assertThat(gate.entered.await(30, TimeUnit.SECONDS)).isTrue();
        first.close(); // the held request is answered 503 stopping, Retry-After: 1, at the end of the grace
        assertThat(firstLog.lines).anySatisfy(l -> assertThat(l).contains("1 request still running was cancelled"));
        try (RewardServer second = RewardServer.start(TERNARY, RewardServerSettings.defaults().withPort(port), new LogLines())) {
            JsonNode out = shim.get(60, TimeUnit.SECONDS);
            assertThat(out.has("error")).as(out.toString()).isFalse();
            assertThat(numbers(out.get("calls").get(0))).containsExactly(-1.0, 1.0);
            assertThat(Http.get(second.baseUrl() + "/metrics").body())
                    .contains("veracity_http_requests_total{route=\"/v1/rewards\",status=\"200\"} 1");
        }
    }

    @Test
    void a413ThatStatesNoLimitHalvesTheBatchAndRetryAfterMayBeADate() throws Exception {
        // A proxy in front of the server: it refuses more than 3 items with a bare 413, and its first answer is a 503
        // whose Retry-After is an HTTP date. Behind it, item i scores i.
        AtomicInteger calls = new AtomicInteger();
        List<Integer> sizes = Collections.synchronizedList(new ArrayList<>());
        try (JsonServer proxy = JsonServer.builder().route("POST", "/v1/rewards", call -> {
            JsonNode items = call.body().get("items");
            sizes.add(items.size());
            if (calls.getAndIncrement() == 0) {
                String soon = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC).plusSeconds(1));
                throw new HttpProblem(503, "unavailable", "try later").withHeader("Retry-After", soon);
            }
            if (items.size() > 3) {
                throw HttpProblem.tooLarge("too_large", "the proxy takes at most 3 items");
            }
            ObjectNode out = JSON.createObjectNode();
            ArrayNode results = out.putArray("results");
            items.forEach(item -> results.addObject().put("reward", Double.parseDouble(item.get("question").asText()))
                    .putObject("details"));
            return JsonReply.ok(out);
        }).start()) {
            List<Map<String, String>> rows = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                rows.add(Map.of("question", Integer.toString(i), "response", "r", "label", "x"));
            }
            JsonNode out = run(proxy.baseUrl(), "trl", rows, 1);
            assertThat(out.has("error")).as(out.toString()).isFalse();
            assertThat(numbers(out.get("calls").get(0))).containsExactly(0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0);
            // 10 (503), 10 (413), 5 (413), 2, 3, 5 (413), 2, 3
            assertThat(sizes).containsExactly(10, 10, 5, 2, 3, 5, 2, 3);
        }
    }

    /** truthrl-ternary that holds the response {@link #HOLD} until released. */
    private static final class Gate implements Reward {
        static final String HOLD = "hold";
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public String name() {
            return "gate";
        }

        @Override
        public RewardResult score(RewardInput input) {
            if (input.response().equals(HOLD)) {
                entered.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return RewardResult.fallback(0.0, "interrupted");
                }
            }
            return TERNARY.score(input);
        }
    }

    /** {@code n} rows cycling through a correct, an abstaining and an unboxed response, each padded with {@code pad} chars. */
    private static List<Map<String, String>> rows(int n, int pad) {
        List<Map<String, String>> out = new ArrayList<>();
        String[] responses = {"It is \\boxed{Paris}.", "\\boxed{I don't know}", "Paris, no box."};
        for (int i = 0; i < n; i++) {
            out.add(Map.of("question", "Where is the Eiffel Tower? (" + i + ")",
                    "response", "y".repeat(pad) + responses[i % 3], "label", "Paris"));
        }
        return out;
    }

    private static List<Double> expected(List<Map<String, String>> rows) {
        return rows.stream().map(r -> TERNARY.score(RewardInput.of(r.get("question"), r.get("response"),
                Label.of(r.get("label")))).score()).toList();
    }

    private static List<Double> numbers(JsonNode list) {
        List<Double> out = new ArrayList<>();
        list.forEach(n -> out.add(n.asDouble()));
        return out;
    }

    private JsonNode run(RewardServer s, String kind, List<Map<String, String>> rows, int calls) {
        return run(s.baseUrl(), kind, rows, calls);
    }

    private JsonNode run(String url, String kind, List<Map<String, String>> rows, int calls) {
        try {
            Path file = Files.createTempFile(dir, "rows", ".jsonl");
            List<String> lines = new ArrayList<>();
            for (Map<String, String> r : rows) {
                lines.add(JSON.writeValueAsString(r));
            }
            Files.write(file, lines);
            return PythonDriver.run(dir, Map.of("VERACITY_REWARD_URL", url), driver.toString(),
                    PythonDriver.SHIMS.toString(), kind, file.toString(), Integer.toString(calls));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void awaitMetric(RewardServer s, String series) throws InterruptedException {
        for (int i = 0; i < 600 && !Http.get(s.baseUrl() + "/metrics").body().contains(series); i++) {
            Thread.sleep(50);
        }
        assertThat(Http.get(s.baseUrl() + "/metrics").body()).contains(series);
    }
}
