package dev.veracity.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.JsonValue;
import com.openai.core.http.HttpResponseFor;
import com.openai.core.http.StreamResponse;
import com.openai.errors.NotFoundException;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionStreamOptions;
import com.openai.models.completions.CompletionUsage;
import com.openai.models.models.Model;
import dev.veracity.method.Capability;
import dev.veracity.methods.Methods;
import dev.veracity.qa.Document;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The official openai-java client pointed at {@code veracity serve} (the simulator upstream): every method by its
 * {@code eval} name answers exactly what the method answers in-process, streamed or not.
 */
class OpenAiJavaClientTest {

    private static Served served;
    private static OpenAIClient client;

    @BeforeAll
    static void start() throws Exception {
        served = Served.start();
        client = OpenAIOkHttpClient.builder().baseUrl(served.v1()).apiKey("unused-locally").maxRetries(0).build();
    }

    @AfterAll
    static void stop() {
        client.close();
        served.close();
    }

    private static ChatCompletionCreateParams.Builder ask(String model, List<Document> docs) {
        List<Map<String, String>> documents = docs.stream().map(d -> Map.of("id", d.id(), "text", d.text())).toList();
        return ChatCompletionCreateParams.builder().model(model)
                .addSystemMessage("You are a helpful assistant.")
                .addUserMessage(Served.QUESTION)
                .putAdditionalBodyProperty("documents", JsonValue.from(documents));
    }

    private static JsonNode veracity(Map<String, JsonValue> extra) {
        return extra.get("veracity").convert(JsonNode.class);
    }

    @Test
    void everyMethodIsServedByItsEvalNameWithTheAnswerItGivesInProcess() {
        List<String> names = new ArrayList<>(Methods.names());
        names.removeIf(n -> Methods.byName(n).needs(Capability.EMBEDDER) || Methods.byName(n).needs(Capability.RETRIEVER)); // tested with an index
        names.addAll(List.of("standard-rag+march", "madam-rag+march+abstain"));
        for (String name : names) {
            Served.Reference expected = served.inProcess(name, Served.QUESTION, Served.DOCS, Map.of());
            ChatCompletion c = client.chat().completions().create(ask(name, Served.DOCS).build());
            assertThat(c.choices()).hasSize(1);
            assertThat(c.choices().getFirst().message().content()).as(name).hasValue(expected.answer().prediction());
            assertThat(c.choices().getFirst().finishReason().asString()).isEqualTo("stop");
            assertThat(c.model()).isEqualTo(name);
            CompletionUsage usage = c.usage().orElseThrow();
            assertThat(usage.totalTokens()).as(name + ": every upstream token").isEqualTo(expected.stats().totalTokens());
            assertThat(usage.promptTokens()).isEqualTo(expected.stats().promptTokens());
            JsonNode v = veracity(c._additionalProperties());
            assertThat(v.path("method").asText()).isEqualTo(name);
            assertThat(v.path("calls").path("count").asInt()).as(name).isEqualTo(expected.stats().calls());
            assertThat(v.path("calls").path("samples").asInt()).as(name).isEqualTo(expected.stats().samples());
            if (name.equals("cot-sc")) { // one request for 21 samples: 21 model calls in the papers' accounting
                assertThat(v.path("calls").path("count").asInt()).isEqualTo(1);
                assertThat(v.path("calls").path("samples").asInt()).isEqualTo(21);
            }
            List<String> answers = new ArrayList<>();
            v.path("answers").forEach(a -> answers.add(a.asText()));
            assertThat(answers).as(name).isEqualTo(expected.answer().answers());
            assertThat(v.path("documents").path("source").asText()).isEqualTo(
                    Methods.byName(name).needs(Capability.DOCUMENTS) ? "request" : "none");
        }
    }

    @Test
    void aStreamAccumulatesToTheNonStreamedAnswerAndEndsWithUsageAndTheReport() {
        for (String name : List.of("standard-rag", "madam-rag", "march", "madam-rag+march+abstain")) {
            String whole = client.chat().completions().create(ask(name, Served.DOCS).build()).choices().getFirst()
                    .message().content().orElseThrow();
            ChatCompletionCreateParams params = ask(name, Served.DOCS)
                    .streamOptions(ChatCompletionStreamOptions.builder().includeUsage(true).build()).build();
            StringBuilder text = new StringBuilder();
            List<String> finishes = new ArrayList<>();
            List<CompletionUsage> usages = new ArrayList<>();
            List<JsonNode> reports = new ArrayList<>();
            int chunks = 0;
            try (StreamResponse<ChatCompletionChunk> stream = client.chat().completions().createStreaming(params)) {
                for (ChatCompletionChunk chunk : (Iterable<ChatCompletionChunk>) stream.stream()::iterator) {
                    chunks++;
                    assertThat(chunk.model()).isEqualTo(name);
                    chunk.usage().ifPresent(usages::add);
                    if (chunk._additionalProperties().containsKey("veracity")) {
                        reports.add(veracity(chunk._additionalProperties()));
                    }
                    for (ChatCompletionChunk.Choice choice : chunk.choices()) {
                        choice.delta().content().ifPresent(text::append);
                        choice.finishReason().ifPresent(f -> finishes.add(f.asString()));
                    }
                }
            }
            assertThat(text.toString()).as(name).isEqualTo(whole);
            assertThat(chunks).as("role, pieces, finish, usage").isGreaterThanOrEqualTo(3);
            assertThat(finishes).containsExactly("stop");
            assertThat(usages).hasSize(1);
            Served.Reference expected = served.inProcess(name, Served.QUESTION, Served.DOCS, Map.of());
            assertThat(usages.getFirst().totalTokens()).isEqualTo(expected.stats().totalTokens());
            assertThat(reports).hasSize(1);
            assertThat(reports.getFirst().path("method").asText()).isEqualTo(name);
        }
    }

    @Test
    void theHeadersAndTheReportCarryAnswersVerdictAbstentionAndCallsPerRole() {
        HttpResponseFor<ChatCompletion> raw = client.chat().completions().withRawResponse()
                .create(ask("madam-rag+march", Served.DOCS).build());
        ChatCompletion c = raw.parse();
        JsonNode v = veracity(c._additionalProperties());
        Served.Reference expected = served.inProcess("madam-rag+march", Served.QUESTION, Served.DOCS, Map.of());
        assertThat(raw.headers().values("X-Veracity-Method")).containsExactly("madam-rag+march");
        assertThat(raw.headers().values("X-Veracity-Upstream-Model")).containsExactly("sim-model");
        assertThat(raw.headers().values("X-Veracity-Calls")).containsExactly(Integer.toString(expected.stats().calls()));
        String verdict = v.path("verification").path("verdict").asText();
        assertThat(verdict).isIn("passed", "failed", "no_claims", "unparseable");
        assertThat(raw.headers().values("X-Veracity-Verification")).containsExactly(verdict);
        assertThat(v.path("signals").path("consistent").asDouble()).isEqualTo(expected.answer().signals().get("consistent"));
        assertThat(raw.headers().values("X-Veracity-Abstained")).containsExactly(v.path("abstained").asText());
        // per-role calls: MADAM-RAG's agents and aggregator, then MARCH's proposer (and checker when it made claims)
        assertThat(v.path("calls").path("by_role").fieldNames()).toIterable().contains("agent-1", "aggregator", "proposer");
        StringBuilder byRole = new StringBuilder();
        v.path("calls").path("by_role").properties().forEach(e -> byRole.append(byRole.isEmpty() ? "" : ",")
                .append(e.getKey()).append('=').append(e.getValue().path("calls").asInt()));
        assertThat(byRole.toString()).isEqualTo(expected.roles());
        assertThat(raw.headers().values("X-Veracity-Roles")).containsExactly(expected.roles());
        assertThat(raw.headers().values("X-Veracity-Answers").getFirst())
                .isEqualTo(VeracityReport.answersHeader(expected.answer().answers()));
    }

    @Test
    void modelsAreListedWithTheirDescriptionsAndAnUnknownModelIsTheClientsNotFound() {
        List<String> ids = new ArrayList<>();
        client.models().list().autoPager().forEach(m -> ids.add(m.id()));
        assertThat(ids).containsAll(Methods.names()).contains("madam-rag+march+abstain").doesNotContain("march+march");
        Model one = client.models().retrieve("madam-rag+march@other-model");
        assertThat(one.id()).isEqualTo("madam-rag+march@other-model");
        assertThat(one._additionalProperties().get("description").convert(String.class)).contains("MARCH");
        assertThatThrownBy(() -> client.chat().completions().create(ask("gpt-4o", Served.DOCS).build()))
                .isInstanceOf(NotFoundException.class).hasMessageContaining("gpt-4o");
        assertThatThrownBy(() -> client.models().retrieve("standard-rag@not-served"))
                .isInstanceOf(NotFoundException.class).hasMessageContaining("not-served");
    }

    /** The Java example of the README's "Use it from your app", line for line (the base URL and key aside). */
    @Test
    void theReadmesJavaExampleAnswers() {
        String baseUrl = served.v1();
        OpenAIClient client = OpenAIOkHttpClient.builder().baseUrl(baseUrl).apiKey("KEY").build();
        ChatCompletion c = client.chat().completions().create(ChatCompletionCreateParams.builder()
                .model("madam-rag+march+abstain").addUserMessage("Where is the Eiffel Tower?")
                .putAdditionalBodyProperty("documents", JsonValue.from(List.of("The Eiffel Tower is in Paris.",
                        "It was completed in 1889."))).build());
        String answer = c.choices().get(0).message().content().orElse("");
        assertThat(answer).isEqualTo(served.inProcess("madam-rag+march+abstain", "Where is the Eiffel Tower?",
                List.of(Document.of("1", "", "The Eiffel Tower is in Paris."), Document.of("2", "", "It was completed in 1889.")),
                Map.of()).answer().prediction());
        client.close();
    }

    @Test
    void anotherUpstreamModelIsNamedAfterAnAt() {
        ChatCompletion c = client.chat().completions().create(ask("standard-rag@other-model", Served.DOCS).build());
        assertThat(veracity(c._additionalProperties()).path("upstream_model").asText()).isEqualTo("other-model");
        assertThat(served.sim.recentGenerations().getLast().body().path("model").asText()).isEqualTo("other-model");
    }
}
