package dev.veracity.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.model.openai.OpenAiChatRequestParameters;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * LangChain4j's OpenAI chat models pointed at {@code veracity serve}: a Java team's existing code changes its base URL
 * and model name, and gets the method's answer (documents as a system message, or through custom parameters).
 */
class LangChain4jClientTest {

    private static Served served;

    @BeforeAll
    static void start() throws Exception {
        served = Served.start();
    }

    @AfterAll
    static void stop() {
        served.close();
    }

    private static OpenAiChatModel model(String name) {
        return OpenAiChatModel.builder().baseUrl(served.v1()).apiKey("unused-locally").modelName(name)
                .maxRetries(0).timeout(Duration.ofSeconds(30)).build();
    }

    private static String documentsMessage() {
        StringBuilder b = new StringBuilder("Documents:");
        for (int i = 0; i < Served.DOCS.size(); i++) {
            b.append("\n[").append(i + 1).append("] ").append(Served.DOCS.get(i).text());
        }
        return b.toString();
    }

    @Test
    void theChatModelGetsTheMethodsAnswerWithDocumentsInASystemMessage() {
        for (String method : List.of("standard-rag", "madam-rag", "march", "madam-rag+march+abstain")) {
            ChatResponse r = model(method).chat(ChatRequest.builder()
                    .messages(SystemMessage.from(documentsMessage()), UserMessage.from(Served.QUESTION)).build());
            Served.Reference expected = served.inProcess(method, Served.QUESTION, Served.DOCS, Map.of());
            assertThat(r.aiMessage().text()).as(method).isEqualTo(expected.answer().prediction());
            assertThat(r.tokenUsage().totalTokenCount()).as(method).isEqualTo((int) expected.stats().totalTokens());
            assertThat(r.metadata().modelName()).isEqualTo(method);
        }
    }

    @Test
    void documentsAndOptionsTravelAsCustomParameters() {
        ChatResponse r = model("madam-rag").chat(ChatRequest.builder().messages(UserMessage.from(Served.QUESTION))
                .parameters(OpenAiChatRequestParameters.builder().customParameters(Map.of(
                        "documents", Served.DOCS.stream().map(d -> d.text()).toList(),
                        "veracity_options", Map.of("rounds", 1))).build()).build());
        Served.Reference expected = served.inProcess("madam-rag", Served.QUESTION, Served.DOCS, Map.of("rounds", "1"));
        assertThat(r.aiMessage().text()).isEqualTo(expected.answer().prediction());
        assertThat(r.tokenUsage().totalTokenCount()).isEqualTo((int) expected.stats().totalTokens());
    }

    @Test
    void theStreamingChatModelAccumulatesTheSameAnswer() throws Exception {
        OpenAiStreamingChatModel streaming = OpenAiStreamingChatModel.builder().baseUrl(served.v1()).apiKey("unused")
                .modelName("madam-rag").timeout(Duration.ofSeconds(30)).build();
        StringBuilder partials = new StringBuilder();
        CompletableFuture<ChatResponse> done = new CompletableFuture<>();
        streaming.chat(ChatRequest.builder().messages(SystemMessage.from(documentsMessage()), UserMessage.from(Served.QUESTION))
                .build(), new StreamingChatResponseHandler() {
                    @Override
                    public void onPartialResponse(String partial) {
                        partials.append(partial);
                    }

                    @Override
                    public void onCompleteResponse(ChatResponse complete) {
                        done.complete(complete);
                    }

                    @Override
                    public void onError(Throwable error) {
                        done.completeExceptionally(error);
                    }
                });
        ChatResponse complete = done.get(30, TimeUnit.SECONDS);
        String expected = served.inProcess("madam-rag", Served.QUESTION, Served.DOCS, Map.of()).answer().prediction();
        assertThat(partials.toString()).isEqualTo(expected);
        assertThat(complete.aiMessage().text()).isEqualTo(expected);
    }

    @Test
    void anUnknownMethodIsAnErrorTheClientRaises() {
        assertThatThrownBy(() -> model("gpt-4o").chat(Served.QUESTION)).hasMessageContaining("does not exist");
    }
}
