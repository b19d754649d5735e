package dev.veracity.llm.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.openai.core.JsonValue;
import com.openai.core.ObjectMappers;
import com.openai.errors.OpenAIException;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.completions.CompletionChoice;
import com.openai.models.completions.CompletionCreateParams;
import dev.veracity.llm.ChatMessage;
import dev.veracity.llm.FinishReason;
import dev.veracity.llm.LlmRequest;
import dev.veracity.llm.TokenIds;
import dev.veracity.llm.TokenLogprob;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Our protocol code against openai-java, the reference it replaced: the same requests written by both are the same
 * JSON, and a corpus of answers in the shapes real servers send (OpenAI, vLLM with logprobs and token ids, the
 * llama.cpp server, Ollama, n choices, tool calls, reasoning fields, text that imitates the protocol) reads the same
 * through both, field by field; answers the SDK cannot read, we cannot either, except for the three shapes where we
 * are deliberately more lenient (each asserted on its own).
 */
class WireConformanceTest {

    private static final ObjectMapper SDK_JSON = ObjectMappers.jsonMapper();
    private static final ObjectMapper PLAIN = new ObjectMapper();

    // ---- requests ----------------------------------------------------------------------------------------------

    private static List<LlmRequest> chatRequests() {
        return List.of(
                LlmRequest.user("What is the capital of Peru?").build(),
                LlmRequest.chat(ChatMessage.system("You are terse."), ChatMessage.user("Q: \"quoted\"\n\tA:"),
                        ChatMessage.assistant("Lima."), ChatMessage.user("Sure? \u00e9\u4e2d\ud83d\ude00")).build(),
                LlmRequest.user("sample").n(4).temperature(0.7).topP(0.95).maxTokens(256).seed(42L).build(),
                LlmRequest.user("react").stop("\nObservation 1:", "</answer>").temperature(0.0).build(),
                LlmRequest.user("logprobs").logprobs(0).build(),
                LlmRequest.user("top logprobs").logprobs(5).build(),
                LlmRequest.user("vendor").topK(40).extra("min_p", 0.05).extra("repetition_penalty", 1.1)
                        .extra("chat_template_kwargs", Map.of("enable_thinking", false)).build());
    }

    @Test
    void chatRequestsAreTheJsonTheSdkWrites() throws Exception {
        for (LlmRequest r : chatRequests()) {
            for (boolean tokenIds : new boolean[] {false, true}) {
                boolean logprobs = r.logprobs() != null || tokenIds;
                JsonNode ours = PLAIN.readTree(WireRequests.chat(r, "m", logprobs, tokenIds));
                JsonNode sdk = PLAIN.readTree(SDK_JSON.writeValueAsString(sdkChat(r, "m", logprobs, tokenIds)._body()));
                assertThat(ours).as("%s, token ids %s", r, tokenIds).isEqualTo(sdk);
            }
        }
    }

    @Test
    void completionRequestsAreTheJsonTheSdkWrites() throws Exception {
        List<LlmRequest> requests = List.of(
                LlmRequest.completion("Question: capital of Niger?\nAnswer:").build(),
                LlmRequest.completion("p").n(3).temperature(1.0).topP(0.5).maxTokens(16).seed(1L).stop("\n").build(),
                LlmRequest.completion("p").logprobs(0).build(),
                LlmRequest.completion("p").logprobs(3).topK(5).extra("ignore_eos", true).build());
        for (LlmRequest r : requests) {
            JsonNode ours = PLAIN.readTree(WireRequests.completion(r, "m"));
            JsonNode sdk = PLAIN.readTree(SDK_JSON.writeValueAsString(sdkCompletion(r, "m")._body()));
            assertThat(ours).as(r.toString()).isEqualTo(sdk);
        }
    }

    @Test
    void anExtraNamedLikeAStandardFieldReplacesItAndIsSentOnce() throws Exception {
        LlmRequest r = LlmRequest.user("q").temperature(0.2).maxTokens(10).extra("temperature", 0.9)
                .extra("max_completion_tokens", 12).build();
        String json = new String(WireRequests.chat(r, "m", false, false), StandardCharsets.UTF_8);
        assertThat(json.split("\"temperature\"", -1)).hasSize(2);
        JsonNode tree = PLAIN.readTree(json);
        assertThat(tree.get("temperature").asDouble()).isEqualTo(0.9);
        assertThat(tree.get("max_tokens").asInt()).isEqualTo(10);
        assertThat(tree.get("max_completion_tokens").asInt()).isEqualTo(12);
    }

    @Test
    void anExtraJacksonCannotWriteIsAClearErrorBeforeAnyCall() {
        LlmRequest r = LlmRequest.user("q").extra("odd", new Object()).build();
        assertThatThrownBy(() -> WireRequests.chat(r, "m", false, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cannot be sent as JSON");
    }

    /** The SDK's builders, as this backend used them before (the reference). */
    private static ChatCompletionCreateParams sdkChat(LlmRequest r, String model, boolean logprobs, boolean tokenIds) {
        ChatCompletionCreateParams.Builder p = ChatCompletionCreateParams.builder().model(model);
        for (ChatMessage m : r.messages()) {
            switch (m.role()) {
                case SYSTEM -> p.addSystemMessage(m.content());
                case USER -> p.addUserMessage(m.content());
                case ASSISTANT -> p.addAssistantMessage(m.content());
            }
        }
        sdkSampling(r, p::n, p::temperature, p::topP, p::maxTokens, p::seed);
        if (!r.stop().isEmpty()) {
            p.stop(ChatCompletionCreateParams.Stop.ofStrings(r.stop()));
        }
        if (logprobs) {
            p.logprobs(true);
            if (r.logprobs() != null && r.logprobs() > 0) {
                p.topLogprobs(r.logprobs().longValue());
            }
        }
        if (tokenIds) {
            p.putAdditionalBodyProperty("return_token_ids", JsonValue.from(true));
        }
        sdkExtras(r).forEach(p::putAdditionalBodyProperty);
        return p.build();
    }

    private static CompletionCreateParams sdkCompletion(LlmRequest r, String model) {
        CompletionCreateParams.Builder p = CompletionCreateParams.builder().model(model).prompt(r.prompt());
        sdkSampling(r, p::n, p::temperature, p::topP, p::maxTokens, p::seed);
        if (!r.stop().isEmpty()) {
            p.stop(CompletionCreateParams.Stop.ofStrings(r.stop()));
        }
        if (r.logprobs() != null) {
            p.logprobs(r.logprobs().longValue());
        }
        sdkExtras(r).forEach(p::putAdditionalBodyProperty);
        return p.build();
    }

    /** The sampling fields of both SDK builders (different types with the same setters). */
    private static void sdkSampling(LlmRequest r, java.util.function.LongConsumer n,
                                    java.util.function.DoubleConsumer temperature, java.util.function.DoubleConsumer topP,
                                    java.util.function.LongConsumer maxTokens, java.util.function.LongConsumer seed) {
        if (r.n() > 1) {
            n.accept(r.n());
        }
        if (r.temperature() != null) {
            temperature.accept(r.temperature());
        }
        if (r.topP() != null) {
            topP.accept(r.topP());
        }
        if (r.maxTokens() != null) {
            maxTokens.accept(r.maxTokens());
        }
        if (r.seed() != null) {
            seed.accept(r.seed());
        }
    }

    private static Map<String, JsonValue> sdkExtras(LlmRequest r) {
        Map<String, JsonValue> out = new TreeMap<>();
        if (r.topK() != null) {
            out.put("top_k", JsonValue.from(r.topK()));
        }
        r.extras().forEach((k, v) -> out.put(k, JsonValue.from(v)));
        return out;
    }

    // ---- answers -----------------------------------------------------------------------------------------------

    /** Chat answers as servers send them. */
    static final List<String> CHAT_ANSWERS = List.of(
            // OpenAI, with the fields of 2025 (refusal, annotations, usage details, service tier)
            """
            {"id":"chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT","object":"chat.completion","created":1741569952,
             "model":"gpt-4.1-2025-04-14","choices":[{"index":0,"message":{"role":"assistant",
             "content":"Lima is the capital of Peru.","refusal":null,"annotations":[]},"logprobs":null,
             "finish_reason":"stop"}],"usage":{"prompt_tokens":19,"completion_tokens":10,"total_tokens":29,
             "prompt_tokens_details":{"cached_tokens":0,"audio_tokens":0},"completion_tokens_details":{
             "reasoning_tokens":0,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}},
             "service_tier":"default","system_fingerprint":"fp_b1442291a8"}""",
            // vLLM with logprobs, top logprobs (with bytes), token ids and its own extras
            """
            {"id":"chatcmpl-8f0c","object":"chat.completion","created":1752000000,"model":"Qwen/Qwen3-8B",
             "choices":[{"index":0,"message":{"role":"assistant","reasoning_content":null,"content":"Lima",
             "tool_calls":[]},"logprobs":{"content":[{"token":"L","logprob":-0.01,"bytes":[76],"top_logprobs":[
             {"token":"L","logprob":-0.01,"bytes":[76]},{"token":"Cus","logprob":-4.6,"bytes":[67,117,115]}]},
             {"token":"ima","logprob":-0.0002,"bytes":[105,109,97],"top_logprobs":[{"token":"ima","logprob":-0.0002,
             "bytes":[105,109,97]}]}]},"finish_reason":"stop","stop_reason":null,"token_ids":[43,2861]}],
             "usage":{"prompt_tokens":12,"total_tokens":14,"completion_tokens":2,"prompt_tokens_details":null},
             "prompt_logprobs":null,"prompt_token_ids":[151644,872,198,3838,374,279,6722],"kv_transfer_params":null}""",
            // the llama.cpp server (timings, its fingerprint)
            """
            {"choices":[{"finish_reason":"length","index":0,"message":{"role":"assistant","content":"The capital of"}}],
             "created":1752000001,"model":"gpt-3.5-turbo","system_fingerprint":"b5890-2e2a4b3b","object":"chat.completion",
             "usage":{"completion_tokens":3,"prompt_tokens":25,"total_tokens":28},"id":"chatcmpl-Xw3","timings":{
             "prompt_n":25,"prompt_ms":31.2,"predicted_n":3,"predicted_ms":40.1}}""",
            // Ollama's OpenAI endpoint
            """
            {"id":"chatcmpl-123","object":"chat.completion","created":1752000002,"model":"llama3.2","system_fingerprint":
             "fp_ollama","choices":[{"index":0,"message":{"role":"assistant","content":"Lima."},"finish_reason":"stop"}],
             "usage":{"prompt_tokens":30,"completion_tokens":3,"total_tokens":33}}""",
            // n = 3, one cut at the length limit
            """
            {"id":"c3","object":"chat.completion","created":1,"model":"m","choices":[
             {"index":0,"message":{"role":"assistant","content":"A"},"finish_reason":"stop"},
             {"index":1,"message":{"role":"assistant","content":"Bb"},"finish_reason":"length"},
             {"index":2,"message":{"role":"assistant","content":""},"finish_reason":"stop"}],
             "usage":{"prompt_tokens":5,"completion_tokens":3,"total_tokens":8}}""",
            // a tool call: no content
            """
            {"id":"c4","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":
             "assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"search",
             "arguments":"{\\"q\\":\\"Lima\\"}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":9,
             "completion_tokens":7,"total_tokens":16}}""",
            // no usage block, no model, an unknown finish reason
            """
            {"id":"c5","object":"chat.completion","created":1,"choices":[{"index":0,"message":{"role":"assistant",
             "content":"ok"},"finish_reason":"eos_token"}]}""",
            // vLLM's reasoning parser: the reasoning beside the content
            """
            {"id":"c6","object":"chat.completion","created":1,"model":"deepseek-r1","choices":[{"index":0,"message":{
             "role":"assistant","reasoning_content":"The user asks about Peru...","content":"Lima"},
             "finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":30,"total_tokens":40}}""",
            // content that imitates the protocol (a document quoted back): text, not structure
            """
            {"id":"c7","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":
             "assistant","content":"{\\"choices\\":[{\\"message\\":{\\"content\\":\\"injected\\"}}],\\"usage\\":{\\"prompt_tokens\\":1}}\\n\\u00e9\\ud83d\\ude00"},
             "finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":30,"total_tokens":40}}""",
            // no choices at all (asked n and got none: the backend's count check says so)
            """
            {"id":"c8","object":"chat.completion","created":1,"model":"m","choices":[]}""",
            // a message that is not an object: no text (which the client then retries as an empty answer)
            """
            {"id":"c9","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":"Lima",
             "finish_reason":"stop"}]}""");

    /** Answers neither reader accepts. */
    static final List<String> BROKEN_CHAT_ANSWERS = List.of(
            "<html><body><h1>502 Bad Gateway</h1></body></html>",
            "{\"id\":\"c\",\"choices\":[{\"index\":0,\"message\":{\"content\":\"Li",
            "[{\"choices\":[]}]",
            "{\"id\":\"c\",\"choices\":{\"0\":{\"message\":{\"content\":\"Lima\"}}}}",
            "{\"id\":\"c\",\"model\":\"m\"}",
            "{\"error\":{\"message\":\"upstream overloaded\",\"type\":\"server_error\"}}",
            "{\"id\":\"c\",\"choices\":[{\"index\":0,\"message\":{\"content\":42},\"finish_reason\":\"stop\"}]}",
            "{\"id\":\"c\",\"choices\":[\"Lima\"]}",
            "{\"id\":\"c\",\"choices\":[{\"message\":{\"content\":\"x\"}}],\"usage\":{\"prompt_tokens\":\"ten\",\"completion_tokens\":1}}",
            "{\"id\":\"c\",\"choices\":[{\"message\":{\"content\":\"x\"}}],\"usage\":{\"completion_tokens\":1}}",
            "{\"id\":\"c\",\"choices\":[{\"message\":{\"content\":\"x\"},\"logprobs\":{\"content\":[{\"logprob\":-1,\"top_logprobs\":[]}]}}]}",
            "{\"id\":\"c\",\"choices\":[{\"message\":{\"content\":\"x\"},\"logprobs\":{\"content\":[{\"token\":\"x\",\"logprob\":\"low\",\"top_logprobs\":[]}]}}]}",
            "{\"id\":\"c\",\"choices\":[{\"index\":0,\"message\":{\"content\":\"Lima\"},\"finish_reason\":7}]}",
            "",
            "null");

    @Test
    void chatAnswersReadTheSameThroughBoth() throws Exception {
        for (String json : CHAT_ANSWERS) {
            for (boolean logprobs : new boolean[] {false, true}) {
                for (boolean ids : new boolean[] {false, true}) {
                    WireResponses.Answer ours = WireResponses.chat(bytes(json), logprobs, ids);
                    assertThat(ours).as("%s (logprobs %s, ids %s)", json, logprobs, ids)
                            .isEqualTo(sdkReadChat(json, logprobs, ids));
                }
            }
        }
    }

    @Test
    void theCorpusCoversWhatItClaims() throws Exception {
        // so that a reader that drops a field cannot pass by the corpus lacking it
        WireResponses.Answer vllm = WireResponses.chat(bytes(CHAT_ANSWERS.get(1)), true, true);
        assertThat(vllm.logprobs().getFirst().orElseThrow()).extracting(TokenLogprob::token).containsExactly("L", "ima");
        assertThat(vllm.logprobs().getFirst().orElseThrow().getFirst().top()).hasSize(2);
        assertThat(vllm.tokenIds().getFirst()).contains(new TokenIds(List.of(151644, 872, 198, 3838, 374, 279, 6722),
                List.of(43, 2861)));
        assertThat(vllm.usage()).contains(new WireResponses.Usage(12, 2));
        WireResponses.Answer three = WireResponses.chat(bytes(CHAT_ANSWERS.get(4)), false, false);
        assertThat(three.texts()).containsExactly("A", "Bb", "");
        assertThat(three.reasons()).containsExactly(FinishReason.STOP, FinishReason.LENGTH, FinishReason.STOP);
        assertThat(WireResponses.chat(bytes(CHAT_ANSWERS.get(5)), false, false).reasons())
                .containsExactly(FinishReason.TOOL_CALLS);
        WireResponses.Answer bare = WireResponses.chat(bytes(CHAT_ANSWERS.get(6)), false, false);
        assertThat(bare.model()).isNull();
        assertThat(bare.usage()).isEmpty();
        assertThat(WireResponses.chat(bytes(CHAT_ANSWERS.get(8)), false, false).texts().getFirst())
                .startsWith("{\"choices\":[{\"message\"").endsWith("\u00e9\ud83d\ude00");
        assertThat(WireResponses.chat(bytes(CHAT_ANSWERS.get(9)), false, false).texts()).isEmpty();
        assertThat(WireResponses.chat(bytes(CHAT_ANSWERS.get(10)), false, false).texts()).containsExactly("");
    }

    @Test
    void chatAnswersTheSdkCannotReadWeCannotEither() {
        for (String json : BROKEN_CHAT_ANSWERS) {
            assertThat(sdkReadChat(json, true, true)).as("the SDK on %s", json).isNull();
            assertThatThrownBy(() -> WireResponses.chat(bytes(json), true, true)).as(json)
                    .isInstanceOf(WireResponses.Malformed.class).hasMessageNotContaining("\n");
        }
    }

    @Test
    void anErrorSentWithStatus200SaysTheServersWords() {
        assertThatThrownBy(() -> WireResponses.chat(bytes(BROKEN_CHAT_ANSWERS.get(5)), false, false))
                .hasMessageContaining("upstream overloaded");
    }

    @Test
    void threeShapesTheSdkRefusesWeReadOnPurpose() throws Exception {
        // content as a list of text parts (some gateways and multimodal servers)
        String parts = "{\"choices\":[{\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"Li\"},"
                + "{\"type\":\"text\",\"text\":\"ma\"}]},\"finish_reason\":\"stop\"}]}";
        assertThat(sdkReadChat(parts, false, false)).isNull();
        assertThat(WireResponses.chat(bytes(parts), false, false).texts()).containsExactly("Lima");
        // logprobs without top_logprobs (servers asked for none), and a null logprob
        String lps = "{\"choices\":[{\"message\":{\"content\":\"ab\"},\"logprobs\":{\"content\":["
                + "{\"token\":\"a\",\"logprob\":-0.5},{\"token\":\"b\",\"logprob\":null,\"top_logprobs\":[]}]}}]}";
        assertThat(sdkReadChat(lps, true, false)).isNull();
        assertThat(WireResponses.chat(bytes(lps), true, false).logprobs().getFirst().orElseThrow()).containsExactly(
                new TokenLogprob("a", -0.5, List.of()), new TokenLogprob("b", Double.NEGATIVE_INFINITY, List.of()));
    }

    @Test
    void deeplyNestedOrHugeAnswersFailQuickly() {
        String deep = "{\"choices\":" + "[".repeat(5_000) + "]".repeat(5_000) + "}";
        assertThatThrownBy(() -> WireResponses.chat(bytes(deep), false, false))
                .isInstanceOf(WireResponses.Malformed.class).hasMessageContaining("nesting");
    }

    /** Completions answers: vLLM with logprobs (a null first logprob), the llama.cpp server, no usage. */
    static final List<String> COMPLETION_ANSWERS = List.of(
            """
            {"id":"cmpl-1","object":"text_completion","created":1,"model":"Qwen/Qwen3-8B","choices":[{"index":0,
             "text":" Niamey","logprobs":{"text_offset":[0,3],"token_logprobs":[-0.1,-0.02],"tokens":[" Ni","amey"],
             "top_logprobs":[{" Ni":-0.1," Z":-3.2},{"amey":-0.02}]},"finish_reason":"stop","stop_reason":null,
             "prompt_logprobs":null}],"usage":{"prompt_tokens":9,"total_tokens":11,"completion_tokens":2}}""",
            """
            {"id":"cmpl-2","object":"text_completion","created":1,"model":"m","choices":[{"index":0,"text":"a",
             "logprobs":{"tokens":["a"],"token_logprobs":[null],"top_logprobs":[null]},"finish_reason":"length"}],
             "usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}""",
            """
            {"choices":[{"text":" Niamey.","index":0,"logprobs":null,"finish_reason":"stop"}],"created":1,
             "model":"gpt-3.5-turbo-instruct","system_fingerprint":"b5890","object":"text_completion","id":"cmpl-x",
             "usage":{"completion_tokens":3,"prompt_tokens":8,"total_tokens":11}}""",
            """
            {"id":"cmpl-3","object":"text_completion","created":1,"choices":[{"index":0,"text":"x","finish_reason":null},
             {"index":1,"text":"yy","finish_reason":"stop"}]}""");

    @Test
    void completionAnswersReadTheSameThroughBoth() throws Exception {
        for (String json : COMPLETION_ANSWERS) {
            for (boolean logprobs : new boolean[] {false, true}) {
                assertThat(WireResponses.completion(bytes(json), logprobs)).as("%s (logprobs %s)", json, logprobs)
                        .isEqualTo(sdkReadCompletion(json, logprobs));
            }
        }
        assertThat(WireResponses.completion(bytes(COMPLETION_ANSWERS.getFirst()), true).logprobs().getFirst()
                .orElseThrow().getFirst()).isEqualTo(new TokenLogprob(" Ni", -0.1, List.of(
                new TokenLogprob.Alternative(" Ni", -0.1), new TokenLogprob.Alternative(" Z", -3.2))));
    }

    @Test
    void embeddingsAnswersReadTheSameThroughBoth() throws Exception {
        List<String> answers = List.of(
                // OpenAI
                """
                {"object":"list","data":[{"object":"embedding","index":0,"embedding":[0.0023,-0.0093,0.5]},
                 {"object":"embedding","index":1,"embedding":[1,0,-2.5e-3]}],"model":"text-embedding-3-small",
                 "usage":{"prompt_tokens":8,"total_tokens":8}}""",
                // vLLM, out of order, with its id and created
                """
                {"id":"embd-1","object":"list","created":1,"model":"BAAI/bge-small-en-v1.5","data":[
                 {"index":1,"object":"embedding","embedding":[0.25,0.5]},{"index":0,"object":"embedding","embedding":[1.0,0.0]}],
                 "usage":{"prompt_tokens":6,"total_tokens":6,"completion_tokens":0,"prompt_tokens_details":null}}""");
        for (String json : answers) {
            com.openai.models.embeddings.CreateEmbeddingResponse sdk = SDK_JSON.readValue(json,
                    com.openai.models.embeddings.CreateEmbeddingResponse.class);
            List<WireResponses.Vector> ours = WireResponses.embeddings(bytes(json));
            assertThat(ours).hasSameSizeAs(sdk.data());
            for (int k = 0; k < ours.size(); k++) {
                assertThat(ours.get(k).index()).isEqualTo(sdk.data().get(k).index());
                List<Float> theirs = sdk.data().get(k).embedding();
                float[] expected = new float[theirs.size()];
                for (int j = 0; j < expected.length; j++) {
                    expected[j] = theirs.get(j);
                }
                assertThat(ours.get(k).values()).containsExactly(expected);
            }
        }
        for (String broken : List.of("{\"data\":[{\"index\":0,\"embedding\":\"AAAAPw==\"}]}", "{\"object\":\"list\"}",
                "{\"data\":[{\"embedding\":[1.0]}]}", "{\"data\":[{\"index\":0,\"embedding\":[1.0,\"x\"]}]}")) {
            assertThatThrownBy(() -> WireResponses.embeddings(bytes(broken))).as(broken)
                    .isInstanceOf(WireResponses.Malformed.class);
        }
        assertThat(new String(WireRequests.embeddings("bge", List.of("a", "b\n")), StandardCharsets.UTF_8))
                .isEqualTo("{\"model\":\"bge\",\"input\":[\"a\",\"b\\n\"],\"encoding_format\":\"float\"}");
    }

    // ---- the SDK's reading, as this backend used it before -------------------------------------------------------

    /** What the SDK reads from a chat answer, or null where reading it fails. */
    private static WireResponses.Answer sdkReadChat(String json, boolean wantLogprobs, boolean returnTokenIds) {
        try {
            ChatCompletion resp = SDK_JSON.readValue(json, ChatCompletion.class);
            if (resp == null) {
                return null;
            }
            List<WireResponses.Choice> choices = new ArrayList<>();
            Optional<List<Integer>> promptIds = returnTokenIds
                    ? tokenIds(resp._additionalProperties().get("prompt_token_ids")) : Optional.empty();
            for (ChatCompletion.Choice c : resp.choices()) {
                choices.add(new WireResponses.Choice(
                        c._message().asKnown().flatMap(m -> m.content()).orElse(""),
                        FinishReason.fromWire(c._finishReason().asKnown().map(f -> f.asString()).orElse(null)),
                        !wantLogprobs ? Optional.empty() : c.logprobs().flatMap(l -> l.content()).map(
                                list -> list.stream().map(t -> new TokenLogprob(t.token(), t.logprob(),
                                        t.topLogprobs().stream().map(a -> new TokenLogprob.Alternative(a.token(),
                                                a.logprob())).toList())).toList()),
                        promptIds.flatMap(prompt -> tokenIds(c._additionalProperties().get("token_ids"))
                                .map(response -> new TokenIds(prompt, response)))));
            }
            return new WireResponses.Answer(resp._model().asKnown().orElse(null), resp._id().asKnown().orElse(null),
                    choices, resp.usage().map(u -> new WireResponses.Usage((int) u.promptTokens(),
                    (int) u.completionTokens())));
        } catch (OpenAIException | java.io.IOException | IllegalArgumentException e) {
            return null;
        }
    }

    private static WireResponses.Answer sdkReadCompletion(String json, boolean wantLogprobs) {
        try {
            com.openai.models.completions.Completion resp = SDK_JSON.readValue(json,
                    com.openai.models.completions.Completion.class);
            if (resp == null) {
                return null;
            }
            List<WireResponses.Choice> choices = new ArrayList<>();
            for (CompletionChoice c : resp.choices()) {
                choices.add(new WireResponses.Choice(c._text().asKnown().orElse(""),
                        FinishReason.fromWire(c._finishReason().asKnown().map(f -> f.asString()).orElse(null)),
                        !wantLogprobs ? Optional.empty() : c.logprobs().map(WireConformanceTest::sdkTextLogprobs),
                        Optional.empty()));
            }
            return new WireResponses.Answer(resp._model().asKnown().orElse(null), resp._id().asKnown().orElse(null),
                    choices, resp.usage().map(u -> new WireResponses.Usage((int) u.promptTokens(),
                    (int) u.completionTokens())));
        } catch (OpenAIException | java.io.IOException | IllegalArgumentException e) {
            return null;
        }
    }

    private static List<TokenLogprob> sdkTextLogprobs(CompletionChoice.Logprobs l) {
        List<String> tokens = l.tokens().orElse(List.of());
        List<Double> lps = l.tokenLogprobs().orElse(List.of());
        List<CompletionChoice.Logprobs.TopLogprob> tops = l.topLogprobs().orElse(List.of());
        List<TokenLogprob> out = new ArrayList<>();
        for (int i = 0; i < tokens.size(); i++) {
            List<TokenLogprob.Alternative> alts = new ArrayList<>();
            if (i < tops.size() && tops.get(i) != null) {
                tops.get(i)._additionalProperties().forEach((tok, v) -> v.asNumber()
                        .ifPresent(num -> alts.add(new TokenLogprob.Alternative(tok, ((Number) num).doubleValue()))));
            }
            Double lp = i < lps.size() ? lps.get(i) : null;
            out.add(new TokenLogprob(tokens.get(i), lp == null ? Double.NEGATIVE_INFINITY : lp, alts));
        }
        return out;
    }

    private static Optional<List<Integer>> tokenIds(JsonValue v) {
        return v == null ? Optional.empty() : WireResponses.ids(v.convert(JsonNode.class));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
