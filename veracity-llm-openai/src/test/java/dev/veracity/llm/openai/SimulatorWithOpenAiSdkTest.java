package dev.veracity.llm.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.http.StreamResponse;
import com.openai.errors.NotFoundException;
import com.openai.helpers.ChatCompletionAccumulator;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionStreamOptions;
import com.openai.models.completions.Completion;
import com.openai.models.completions.CompletionChoice;
import com.openai.models.completions.CompletionCreateParams;
import com.openai.models.completions.CompletionUsage;
import dev.veracity.sim.Rule;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The simulator as a stand-in for an OpenAI server, seen through the bare openai-java SDK (no backend in between):
 * streamed chat and completions add up to the non-streamed answers, and a model it does not serve is the SDK's 404.
 */
class SimulatorWithOpenAiSdkTest {

    private static final ChatCompletionStreamOptions WITH_USAGE = ChatCompletionStreamOptions.builder().includeUsage(true).build();

    private static SimServer sim;
    private static OpenAIClient client;

    @BeforeAll
    static void start() {
        sim = SimServer.start(SimConfig.builder().models("sim-model").seed(5).rules(
                Rule.of("capital of (\\w+)", List.of("The capital of {{1}} is on the map, sample {{sample}} says.",
                        "I believe {{1}} has a capital city; sample {{sample}}.")),
                Rule.of("^Q: (.*)\\nA:", " The answer to {{1}} is 42, as everyone knows."))
                .build());
        client = OpenAIOkHttpClient.builder().baseUrl(sim.baseUrl()).apiKey("no-key").maxRetries(0).build();
    }

    @AfterAll
    static void stop() {
        client.close();
        sim.close();
    }

    @Test
    void streamedChatAccumulatesToTheNonStreamedAnswerWithUsage() {
        ChatCompletionCreateParams params = ChatCompletionCreateParams.builder().model("sim-model")
                .addUserMessage("What is the capital of France?").n(2).build();
        ChatCompletion whole = client.chat().completions().create(params);

        ChatCompletionAccumulator accumulator = ChatCompletionAccumulator.create();
        Map<Long, Integer> contentChunks = new HashMap<>();
        try (StreamResponse<ChatCompletionChunk> stream = client.chat().completions()
                .createStreaming(params.toBuilder().streamOptions(WITH_USAGE).build())) {
            stream.stream().forEach(chunk -> {
                accumulator.accumulate(chunk);
                chunk.choices().forEach(c -> c.delta().content().filter(s -> !s.isEmpty())
                        .ifPresent(s -> contentChunks.merge(c.index(), 1, Integer::sum)));
            });
        }
        ChatCompletion streamed = accumulator.chatCompletion();

        assertThat(streamed.choices()).hasSize(2);
        for (int i = 0; i < 2; i++) {
            ChatCompletion.Choice s = streamed.choices().get(i);
            ChatCompletion.Choice w = whole.choices().get(i);
            assertThat(s.index()).isEqualTo(i);
            assertThat(s.message().content()).isPresent().isEqualTo(w.message().content());
            assertThat(s.finishReason()).isEqualTo(ChatCompletion.Choice.FinishReason.STOP).isEqualTo(w.finishReason());
            assertThat(contentChunks.get((long) i)).as("the answer came in pieces").isGreaterThan(5);
        }
        assertThat(streamed.model()).isEqualTo("sim-model");
        assertThat(streamed.usage()).isPresent();
        assertThat(streamed.usage().get().completionTokens()).isEqualTo(whole.usage().get().completionTokens()).isPositive();
        assertThat(streamed.usage().get().promptTokens()).isEqualTo(whole.usage().get().promptTokens());
        assertThat(streamed.usage().get().totalTokens()).isEqualTo(whole.usage().get().totalTokens());
    }

    @Test
    void streamedChatCutByMaxTokensEndsWithLength() {
        ChatCompletionCreateParams params = ChatCompletionCreateParams.builder().model("sim-model")
                .addUserMessage("capital of Peru").maxCompletionTokens(3).build();
        ChatCompletion whole = client.chat().completions().create(params);
        ChatCompletionAccumulator accumulator = ChatCompletionAccumulator.create();
        try (StreamResponse<ChatCompletionChunk> stream = client.chat().completions()
                .createStreaming(params.toBuilder().streamOptions(WITH_USAGE).build())) {
            stream.stream().forEach(accumulator::accumulate);
        }
        ChatCompletion streamed = accumulator.chatCompletion();
        assertThat(streamed.choices().getFirst().message().content()).isEqualTo(whole.choices().getFirst().message().content());
        assertThat(streamed.choices().getFirst().finishReason()).isEqualTo(ChatCompletion.Choice.FinishReason.LENGTH);
        assertThat(streamed.usage().get().completionTokens()).isEqualTo(3);
    }

    @Test
    void streamedCompletionsAddUpToTheNonStreamedTexts() {
        CompletionCreateParams params = CompletionCreateParams.builder().model("sim-model").prompt("Q: life\nA:").n(2)
                .maxTokens(6).build();
        Completion whole = client.completions().create(params);

        Map<Long, StringBuilder> texts = new HashMap<>();
        Map<Long, String> finishes = new HashMap<>();
        List<CompletionUsage> usages = new ArrayList<>();
        int[] chunks = {0};
        try (StreamResponse<Completion> stream = client.completions()
                .createStreaming(params.toBuilder().streamOptions(WITH_USAGE).build())) {
            stream.stream().forEach(chunk -> {
                chunks[0]++;
                for (CompletionChoice c : chunk.choices()) {
                    texts.computeIfAbsent(c.index(), k -> new StringBuilder()).append(c.text());
                    c._finishReason().asKnown().ifPresent(f -> finishes.put(c.index(), f.asString()));
                }
                chunk.usage().ifPresent(usages::add);
            });
        }

        assertThat(chunks[0]).isGreaterThan(2 * 6);
        for (CompletionChoice w : whole.choices()) {
            assertThat(texts.get(w.index())).hasToString(w.text());
            assertThat(finishes.get(w.index())).isEqualTo("length").isEqualTo(w.finishReason().asString());
        }
        assertThat(usages).hasSize(1);
        assertThat(usages.getFirst().completionTokens()).isEqualTo(whole.usage().get().completionTokens()).isEqualTo(12);
        assertThat(usages.getFirst().totalTokens()).isEqualTo(whole.usage().get().totalTokens());
    }

    @Test
    void aModelTheSimulatorDoesNotServeIsNotFound() {
        ChatCompletionCreateParams chat = ChatCompletionCreateParams.builder().model("gpt-9").addUserMessage("hi").build();
        assertThatThrownBy(() -> client.chat().completions().create(chat))
                .isInstanceOfSatisfying(NotFoundException.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(404);
                    assertThat(e.code()).contains("model_not_found");
                    assertThat(e.param()).contains("model");
                    assertThat(e.getMessage()).contains("The model `gpt-9` does not exist.");
                });
        assertThatThrownBy(() -> {
            try (StreamResponse<ChatCompletionChunk> stream = client.chat().completions().createStreaming(chat)) {
                stream.stream().forEach(c -> { });
            }
        }).isInstanceOf(NotFoundException.class);
        assertThatThrownBy(() -> client.completions().create(
                CompletionCreateParams.builder().model("gpt-9").prompt("hi").build())).isInstanceOf(NotFoundException.class);
    }
}
