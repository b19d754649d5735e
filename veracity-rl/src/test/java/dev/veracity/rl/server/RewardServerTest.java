package dev.veracity.rl.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.http.ServerLimits;
import dev.veracity.rl.reward.Rewards;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The reward server's doors over real HTTP with rewards that need no model. */
class RewardServerTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static RewardServer start(String reward, RewardServerSettings settings, LogLines log) throws IOException {
        return RewardServer.start(Rewards.byName(reward), settings, log);
    }

    private static RewardServer start(String reward) throws IOException {
        return start(reward, RewardServerSettings.defaults(), new LogLines());
    }

    private static byte[] payload(String name) throws IOException {
        try (InputStream in = RewardServerTest.class.getResourceAsStream("/trainer-payloads/" + name)) {
            return in.readAllBytes();
        }
    }

    /**
     * The request bodies are what the trainers' own client code sends, byte for byte: the payload dict their source
     * builds, serialised by aiohttp's {@code json=} (Python's {@code json.dumps}: ", " and ": " separators, non-ASCII
     * escaped), generated with {@code json.dumps} from these dicts:
     * <ul>
     *   <li>OpenRLHF 0.11.0 (commit 3c3be6234e0cb353e76bb8019947db9dfe99fca7), {@code openrlhf/utils/agent.py},
     *       {@code SingleTurnAgentExecutor._fetch_rewards_via_http}: {@code {"query": queries, "prompts": prompts,
     *       "labels": labels}} posted with {@code session.post(url, json=data)}; {@code query} is
     *       {@code hf_tokenizer.decode(prompt_ids + response_ids, skip_special_tokens=False)} (Qwen's and Llama 3's chat
     *       templates here). The answer has the shape of its {@code openrlhf/cli/serve_rm.py} ({@code {"rewards",
     *       "scores", "extra_logs"}}), which {@code execute} reads with {@code rewards_info.get("rewards")} etc.</li>
     *   <li>slime (commit 624b824a898ab0ec1fcb4d373004c7f3852bf515), {@code slime/rollout/rm_hub/__init__.py},
     *       {@code remote_rm}: {@code {"prompt": sample.prompt, "response": sample.response, "label": sample.label}}
     *       posted with {@code session.post(args.rm_url, json=payload)}; the JSON answer becomes the sample's reward
     *       and {@code --reward-key reward} picks the number.</li>
     * </ul>
     */
    @Test
    void openRlhfPayloadsAsItsSourceSendsThemGetItsAnswerShapeByteForByte() throws Exception {
        try (RewardServer s = start("truthrl-ternary")) {
            for (String path : List.of("/get_reward", "/")) {
                Http.Reply r = Http.post(s.baseUrl() + path, payload("openrlhf-request.json"));
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.raw().headers().firstValue("Content-Type")).hasValue("application/json");
                assertThat(r.body()).isEqualTo("{\"rewards\":[1.0],\"scores\":[1.0],\"extra_logs\":{\"boxed\":[1.0],\"fallback\":[0.0]}}");
            }
            // the label as a JSON string with answers and ook; Llama 3's template; a boxed "I don't know" is 0
            Http.Reply idk = Http.post(s.baseUrl() + "/get_reward", payload("openrlhf-request-json-label.json"));
            assertThat(idk.body()).isEqualTo("{\"rewards\":[0.0],\"scores\":[0.0],\"extra_logs\":{\"boxed\":[1.0],\"fallback\":[0.0]}}");
        }
    }

    @Test
    void slimePayloadsAsItsSourceSendsThemGetTheRewardAndItsDetailsByteForByte() throws Exception {
        try (RewardServer s = start("truthrl-ternary")) {
            Http.Reply r = Http.post(s.baseUrl() + "/slime", payload("slime-request.json"));
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("{\"reward\":1.0,\"outcome\":\"correct\",\"boxed\":true}");
            // a chat-message prompt (slime's Sample.prompt may be a list of messages)
            Http.Reply messages = Http.post(s.baseUrl() + "/slime", payload("slime-request-messages.json"));
            assertThat(messages.body()).isEqualTo("{\"reward\":-1.0,\"outcome\":\"hallucinate\",\"boxed\":true}");
        }
    }

    @Test
    void theNativeBatchAnswersEachItemInOrderWithTheRowShapeOfTheFileDoor() throws Exception {
        try (RewardServer s = start("f1")) {
            String body = Http.json(Map.of("reward", "f1", "items", List.of(
                    Map.of("question", "q", "response", "Paris", "label", "Paris"),
                    Map.of("response", "the city of Paris", "label", List.of("Paris", "City of Light")),
                    Map.of("response", "London", "label", "{\"answers\": [\"Paris\"]}", "context", Map.of("data_source", "nq")))));
            Http.Reply r = Http.post(s.baseUrl() + "/v1/rewards", body);
            assertThat(r.status()).as(r.body()).isEqualTo(200);
            JsonNode results = r.json().get("results");
            assertThat(r.json().get("reward").asText()).isEqualTo("f1");
            assertThat(results).hasSize(3);
            assertThat(results.get(0).get("reward").asDouble()).isEqualTo(1.0);
            assertThat(results.get(1).get("reward").asDouble()).isCloseTo(2 * 0.5 * 1.0 / 1.5, org.assertj.core.data.Offset.offset(1e-12));
            assertThat(results.get(2).get("reward").asDouble()).isEqualTo(0.0);
            assertThat(results.get(2).get("details")).isEqualTo(JSON.readTree("{}"));

            Http.Reply wrong = Http.post(s.baseUrl() + "/v1/rewards", "{\"reward\": \"em\", \"items\": []}");
            assertThat(wrong.status()).isEqualTo(400);
            assertThat(wrong.errorMessage()).startsWith("this server scores with f1, not \"em\"");
            assertThat(Http.post(s.baseUrl() + "/v1/rewards", "{\"items\": []}").body())
                    .isEqualTo("{\"reward\":\"f1\",\"results\":[]}");
        }
    }

    @Test
    void aBadOrUnparseableResponseIsScoredNeverRefused() throws Exception {
        try (RewardServer s = start("truthrl-ternary")) {
            for (String response : List.of("", "no box at all", "\\boxed{", "}}}{{{\\boxed{\\boxed{", " ".repeat(200_000),
                    "\uD800 lone surrogate", "<think>unclosed", "\u0000\u0001 control")) {
                Http.Reply r = Http.post(s.baseUrl() + "/slime", Http.json(Map.of("prompt", "q", "response", response, "label", "Paris")));
                assertThat(r.status()).as(response.length() > 30 ? "long whitespace" : response).isEqualTo(200);
                assertThat(r.json().get("reward").asDouble()).isEqualTo(-1.0);
            }
        }
    }

    @Test
    void badRequestsAre400Or413WithTheReasonAndNoItemOfThemIsScored() throws Exception {
        LogLines log = new LogLines();
        RewardServerSettings settings = RewardServerSettings.defaults()
                .withLimits(ServerLimits.defaults().withMaxBatch(4).withMaxBodyBytes(12L << 20));
        try (RewardServer s = start("truthrl-ternary", settings, log)) {
            String url = s.baseUrl() + "/get_reward";
            String q = "Q:";
            String good = "Q:\\boxed{Paris}";
            record Case(String body, int status, String code, String message) {
            }
            String tenMb = "x".repeat(10 << 20);
            List<Case> cases = List.of(
                    new Case("{\"query\": [\"" + good + "\"], \"prompts\": [\"" + q + "\"], \"labels\": [\"Paris\"]",
                            400, "bad_json", "the body is not JSON at line 1"),
                    new Case("[1, 2]", 400, "bad_request", "the body must be a JSON object {\"query\": [...], \"prompts\": [...], \"labels\": [...]}, was a list"),
                    new Case("{\"query\": [\"" + good + "\", \"" + good + "\"], \"prompts\": [\"" + q + "\"], \"labels\": [\"Paris\", \"Paris\"]}",
                            400, "bad_request", "\"query\" has 2 items, \"prompts\" 1 and \"labels\" 2: they must be the same length"),
                    new Case("{\"query\": [\"" + good + "\", \"" + good + "\"], \"prompts\": [\"" + q + "\", \"" + q
                            + "\"], \"labels\": [\"Paris\", \"{\\\"answers\\\": [\\\"Paris\\\"\"]}",
                            400, "bad_request", "labels[1]: the label starts with '{' but is not JSON"),
                    new Case("{\"query\": [\"" + good + "\"], \"prompts\": [\"" + q + "\"], \"labels\": [\"\"]}",
                            400, "bad_request", "labels[0] (OpenRLHF sends \"\" when --data.label_key is not set): the label is empty"),
                    new Case("{\"query\": [\"" + good + "\", 7], \"prompts\": [\"" + q + "\", \"" + q + "\"], \"labels\": [\"Paris\", \"Paris\"]}",
                            400, "bad_request", "query[1] must be a string, was a number"),
                    new Case("{\"prompts\": [], \"labels\": []}", 400, "bad_request", "missing \"query\" (a list)"),
                    new Case("{\"query\": [\"" + good + "\", \"" + q + tenMb + "\"], \"prompts\": [\"" + q + "\", \"" + q
                            + "\"], \"labels\": [\"Paris\", \"Paris\"]}",
                            400, "bad_request", "the response in query[1] has 10,485,760 characters; this server scores responses of at most 1,000,000"),
                    new Case("{\"query\": [\"" + tenMb + tenMb + "\"], \"prompts\": [\"\"], \"labels\": [\"Paris\"]}",
                            413, "body_too_large", "this server takes at most 12,582,912 bytes"),
                    new Case("{\"query\": [\"a\", \"a\", \"a\", \"a\", \"a\"], \"prompts\": [\"\", \"\", \"\", \"\", \"\"], "
                            + "\"labels\": [\"a\", \"a\", \"a\", \"a\", \"a\"]}",
                            413, "batch_too_large", "\"query\" has 5 items; this server takes at most 4 per request"));
            for (Case c : cases) {
                Http.Reply r = Http.post(url, c.body());
                String what = c.code() + " " + c.message();
                assertThat(r.status()).as(what + ": " + abbreviate(r.body())).isEqualTo(c.status());
                assertThat(r.errorCode()).as(what).isEqualTo(c.code());
                assertThat(r.errorMessage()).as(what).contains(c.message());
            }
            // slime and native refuse the same way
            Http.Reply slime = Http.post(s.baseUrl() + "/slime", "{\"prompt\": \"q\", \"response\": \"x\", \"label\": null}");
            assertThat(slime.status()).isEqualTo(400);
            assertThat(slime.errorMessage()).startsWith("missing \"label\"");
            Http.Reply nat = Http.post(s.baseUrl() + "/v1/rewards", "{\"items\": [{\"response\": \"x\", \"label\": \"Paris\"}, "
                    + "{\"response\": \"x\", \"label\": [\"\"], \"question\": 3}]}");
            assertThat(nat.status()).isEqualTo(400);
            assertThat(nat.errorMessage()).isEqualTo("items[1].question must be a string, was a number");
            // not one item of these requests was scored, though their first items were good
            assertThat(Http.get(s.baseUrl() + "/metrics").body()).doesNotContain("veracity_rewards_total{");
            // each refusal is one line in the server log with its reason (trainers' clients often show only the status)
            assertThat(log.warnings()).hasSize(cases.size() + 2)
                    .contains("WARN POST /get_reward: 400 labels[1]: the label starts with '{' but is not JSON (Unexpected"
                            + " end-of-input: expected close marker for Array (start marker at [line: 1, column: 13]))")
                    .contains("WARN POST /v1/rewards: 400 items[1].question must be a string, was a number");
        }
    }

    @Test
    void aQueryThatDoesNotStartWithItsPromptGetsTheFallbackFlaggedNotAScoreOfThePrompt() throws Exception {
        LogLines log = new LogLines();
        try (RewardServer s = start("substring", RewardServerSettings.defaults().withFallbackScore(-0.25), log)) {
            // the prompt holds the gold answer: scoring the whole query would give 1
            String prompt = "Document: Paris is the capital.\nQuestion: capital of France?\n";
            String body = Http.json(Map.of("query", List.of("Other text. " + prompt + "Lyon", prompt + "Paris<|im_end|>"),
                    "prompts", List.of(prompt, prompt), "labels", List.of("Paris", "Paris")));
            Http.Reply r = Http.post(s.baseUrl() + "/get_reward", body);
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.json().get("rewards")).isEqualTo(JSON.readTree("[-0.25, 1.0]"));
            // the fallback has every column a scored item has, at its neutral value (counted: 1)
            assertThat(r.json().get("extra_logs")).isEqualTo(JSON.readTree(
                    "{\"empty_gold\": [0.0, 0.0], \"counted\": [1.0, 1.0], \"fallback\": [1.0, 0.0]}"));
            assertThat(log.warnings()).singleElement().asString()
                    .isEqualTo("WARN substring openrlhf item 1 of 2: fallback score -0.25: query[0] does not start with"
                            + " prompts[0], so the response in it is unknown");
        }
    }

    @Test
    void everyOpenRlhfAnswerHasTheSameExtraLogsKeysFallbacksIncluded() throws Exception {
        // OpenRLHF asks one sample per request and concatenates extra_logs key by key across a micro-batch: a fallback
        // answer with fewer keys than a scored one stopped the training step (OpenRlhfExperienceTest runs that path)
        try (RewardServer s = start("truthrl-ternary")) {
            String prompt = "<|im_start|>user\nWhere?<|im_end|>\n<|im_start|>assistant\n";
            Http.Reply scored = Http.post(s.baseUrl() + "/get_reward", Http.json(Map.of("query",
                    List.of(prompt + "\\boxed{Paris}<|im_end|>"), "prompts", List.of(prompt), "labels", List.of("Paris"))));
            Http.Reply fallback = Http.post(s.baseUrl() + "/get_reward", Http.json(Map.of("query",
                    List.of("not the prompt \\boxed{Paris}"), "prompts", List.of(prompt), "labels", List.of("Paris"))));
            assertThat(scored.body()).isEqualTo("{\"rewards\":[1.0],\"scores\":[1.0],\"extra_logs\":{\"boxed\":[1.0],"
                    + "\"fallback\":[0.0]}}");
            assertThat(fallback.body()).isEqualTo("{\"rewards\":[0.0],\"scores\":[0.0],\"extra_logs\":{\"boxed\":[0.0],"
                    + "\"fallback\":[1.0]}}");
        }
    }

    @Test
    void metricsCountRequestsLatencyAndTheRewardDistributionPerRewardName() throws Exception {
        try (RewardServer s = start("truthrl-ternary")) {
            Http.post(s.baseUrl() + "/get_reward", payload("openrlhf-request.json"));
            Http.post(s.baseUrl() + "/slime", payload("slime-request-messages.json"));
            Http.post(s.baseUrl() + "/v1/rewards", "{\"items\": [{\"response\": \"\\\\boxed{I don't know}\", \"label\": \"x\"}]}");
            String m = Http.get(s.baseUrl() + "/metrics").body();
            assertThat(m)
                    .contains("veracity_rewards_total{door=\"openrlhf\",reward=\"truthrl-ternary\",status=\"ok\"} 1")
                    .contains("veracity_rewards_total{door=\"slime\",reward=\"truthrl-ternary\",status=\"ok\"} 1")
                    .contains("veracity_rewards_total{door=\"native\",reward=\"truthrl-ternary\",status=\"ok\"} 1")
                    .contains("veracity_reward_value_bucket{reward=\"truthrl-ternary\",le=\"-1.0\"} 1")
                    .contains("veracity_reward_value_bucket{reward=\"truthrl-ternary\",le=\"0.0\"} 2")
                    .contains("veracity_reward_value_bucket{reward=\"truthrl-ternary\",le=\"1.0\"} 3")
                    .contains("veracity_reward_value_sum{reward=\"truthrl-ternary\"} 0.0")
                    .contains("veracity_http_requests_total{route=\"/get_reward\",status=\"200\"} 1")
                    .contains("veracity_http_request_duration_seconds_count{route=\"/slime\"} 1");
            assertThat(Http.get(s.baseUrl() + "/health").body()).isEqualTo("{\"status\":\"ok\"}");
        }
    }

    private static String abbreviate(String s) {
        return s.length() < 300 ? s : s.substring(0, 297) + "...";
    }
}
