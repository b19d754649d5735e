package dev.veracity.llm.openai;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.veracity.llm.Completion;
import dev.veracity.llm.LlmRequest;
import dev.veracity.llm.TokenLogprob;
import dev.veracity.llm.cache.CacheMode;
import dev.veracity.llm.cache.SqliteResponseCache;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.sim.RecordedRequest;
import dev.veracity.sim.Rule;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import dev.veracity.sim.Tokenizer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Token fidelity over real HTTP: the backend asks for vLLM's {@code return_token_ids} and logprobs, reads the ids from
 * the raw answer, and the response cache gives them back; a server that ignores the flag costs only the ids.
 */
class OpenAiTokenIdsTest {

    @TempDir
    Path dir;

    private static SimServer sim() {
        return SimServer.start(SimConfig.builder().rules(Rule.of("capital", "Paris is the capital.")).build());
    }

    private static OpenAiCompatibleBackend backend(String url, boolean ids) {
        return OpenAiCompatibleBackend.builder().baseUrl(url).model("sim-model").returnTokenIds(ids).build();
    }

    @Test
    void theBackendAsksForIdsAndLogprobsAndTheCompletionCarriesTheEnginesIds() {
        try (SimServer sim = sim(); OpenAiCompatibleBackend backend = backend(sim.baseUrl(), true)) {
            LlmClient client = LlmClient.builder(backend).build();
            Completion c = client.call(LlmRequest.user("What is the capital?").temperature(0.0).build()).first();

            RecordedRequest sent = sim.recentGenerations().getLast();
            assertThat(sent.body().get("return_token_ids").asBoolean()).isTrue();
            assertThat(sent.body().get("logprobs").asBoolean()).isTrue();
            assertThat(c.tokenIds()).isPresent();
            assertThat(c.tokenIds().get().prompt()).isEqualTo(Tokenizer.ids("What is the capital?"));
            assertThat(c.tokenIds().get().response()).isEqualTo(Tokenizer.ids("Paris is the capital."));
            assertThat(c.logprobs().orElseThrow()).hasSameSizeAs(c.tokenIds().get().response())
                    .extracting(TokenLogprob::token).containsExactly("Paris", " is", " the", " capital", ".");
            assertThat(c.responseId()).startsWith("chatcmpl-sim-");
            assertThat(backend.id()).endsWith(" +token-ids");
        }
    }

    @Test
    void withoutTheFlagNothingIsAskedAndNothingComesBack() {
        try (SimServer sim = sim(); OpenAiCompatibleBackend backend = backend(sim.baseUrl(), false)) {
            Completion c = LlmClient.builder(backend).build().call(LlmRequest.user("capital?").build()).first();
            assertThat(sim.recentGenerations().getLast().body().has("return_token_ids")).isFalse();
            assertThat(sim.recentGenerations().getLast().body().has("logprobs")).isFalse();
            assertThat(c.tokenIds()).isEmpty();
            assertThat(c.logprobs()).isEmpty();
            assertThat(c.responseId()).startsWith("chatcmpl-sim-");
        }
    }

    @Test
    void aCachedSampleKeepsItsIdsAndASampleCachedWithoutTheFlagIsNotServedToARequestWithIt() {
        try (SimServer sim = sim(); SqliteResponseCache cache = SqliteResponseCache.open(dir.resolve("cache.db"))) {
            LlmRequest request = LlmRequest.user("What is the capital?").temperature(0.0).build();
            try (OpenAiCompatibleBackend plain = backend(sim.baseUrl(), false)) {
                LlmClient.builder(plain).cache(cache, CacheMode.READ_WRITE).build().call(request);
            }
            try (OpenAiCompatibleBackend withIds = backend(sim.baseUrl(), true)) {
                LlmClient client = LlmClient.builder(withIds).cache(cache, CacheMode.READ_WRITE).build();
                Completion live = client.call(request).first();
                assertThat(sim.counters().generationRequests()).isEqualTo(2); // the plain entry was not a hit
                Completion replay = client.call(request).first();
                assertThat(sim.counters().generationRequests()).isEqualTo(2);
                assertThat(replay.tokenIds()).isEqualTo(live.tokenIds()).isPresent();
                assertThat(replay.logprobs()).isEqualTo(live.logprobs());
                assertThat(replay.responseId()).isNull();
            }
        }
    }

    @Test
    void aServerThatIgnoresTheFlagOrSendsSomethingElseLeavesTheCompletionWithoutIds() throws Exception {
        String ignoring = "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"created\":1,\"model\":\"m\",\"choices\":["
                + "{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"Paris.\"},\"logprobs\":null,"
                + "\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":2,\"total_tokens\":5}}";
        String odd = ignoring.replace("\"finish_reason\":\"stop\"}", "\"finish_reason\":\"stop\",\"token_ids\":[1,\"2\"]}")
                .replace("\"usage\"", "\"prompt_token_ids\":[5,6,7],\"usage\"");
        for (String answer : List.of(ignoring, odd)) {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.createContext("/", ex -> {
                ex.getRequestBody().readAllBytes();
                byte[] b = answer.getBytes(StandardCharsets.UTF_8);
                ex.getResponseHeaders().set("Content-Type", "application/json");
                ex.sendResponseHeaders(200, b.length);
                ex.getResponseBody().write(b);
                ex.close();
            });
            server.start();
            try (OpenAiCompatibleBackend backend = backend("http://127.0.0.1:" + server.getAddress().getPort() + "/v1", true)) {
                Completion c = LlmClient.builder(backend).build().call(LlmRequest.user("capital?").build()).first();
                assertThat(c.text()).isEqualTo("Paris.");
                assertThat(c.tokenIds()).isEmpty();
                assertThat(c.logprobs()).isEmpty();
            } finally {
                server.stop(0);
            }
        }
    }

    @Test
    void singleSampleRequestsSendNSamplesAsNRequestsWithoutN() {
        try (SimServer sim = sim();
             OpenAiCompatibleBackend backend = OpenAiCompatibleBackend.builder().baseUrl(sim.baseUrl())
                     .singleSampleRequests(true).build()) {
            assertThat(backend.capabilities().nativeN()).isFalse();
            List<String> texts = LlmClient.builder(backend).build().call(LlmRequest.user("capital?").n(3).build()).texts();
            assertThat(texts).hasSize(3);
            assertThat(sim.recentGenerations()).hasSize(3).allSatisfy(r -> assertThat(r.body().has("n")).isFalse());
        }
    }
}
