package dev.veracity.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.exception.InvalidRequestException;
import dev.langchain4j.exception.RetriableException;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.FinishReason;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.content.retriever.ContentRetriever;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.Result;
import dev.langchain4j.service.SystemMessage;
import dev.veracity.llm.client.RetrySettings;
import dev.veracity.methods.march.MarchDetail;
import dev.veracity.sim.Rule;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * VeracityChatModel in LangChain4j's AiServices over the simulator, with scripted agents: the answering method says a
 * year, MARCH's Proposer asks for it (in the paper's format) and the Checker reads the year the documents give. So an
 * answer with a wrong year is rejected by the Checker, and the response's metadata must say so.
 */
class VeracityChatModelTest {

    static final String QUESTION = "When was the Eiffel Tower completed?";

    /** The assistant a user writes. */
    interface Assistant {
        Result<String> answer(String question);
    }

    @TempDir
    Path dir;

    /** The method answers {@code answer}; the Proposer claims the year in it; the Checker reads 1889 from Document-1. */
    static SimServer sim(String answer) {
        String year = answer.replaceAll("\\D", "");
        return SimServer.start(SimConfig.builder().rules(
                Rule.of("You are a data annotation expert",
                        "- Question: In what year was the Eiffel Tower completed? [Answer: " + year + "]"),
                Rule.of("You are a data validation expert",
                        "1. Evidence: Document-1 states that the tower was completed in 1889. [Answer: 1889]"),
                Rule.of("(?s).*", answer)).build());
    }

    static Assistant assistant(VeracityChatModel model) {
        return AiServices.builder(Assistant.class).chatModel(model).build();
    }

    VeracityContentRetriever index() throws Exception {
        Path index = dir.resolve("idx");
        VeracityContentRetrieverTest.writeIndex(index, VeracityContentRetrieverTest.CORPUS);
        return VeracityContentRetriever.builder().index(index).maxResults(3).build();
    }

    @Test
    void theCheckerRejectsAWrongNumberAndTheMetadataSaysFailed() throws Exception {
        try (SimServer sim = sim("The Eiffel Tower was completed in 1899.");
             VeracityContentRetriever docs = index()) {
            VeracityChatModel model = VeracityChatModel.builder().method("standard-rag+march")
                    .baseUrl(sim.baseUrl()).modelName("sim-model").retriever(docs).build();

            Result<String> r = assistant(model).answer(QUESTION);

            assertThat(r.content()).contains("1899");
            VeracityResponseMetadata m = (VeracityResponseMetadata) r.finalResponse().metadata();
            assertThat(m.method()).isEqualTo("standard-rag+march");
            assertThat(m.verdict()).contains("failed");
            assertThat(m.abstained()).isFalse();
            assertThat(m.claims()).hasSize(1);
            MarchDetail.ClaimDetail claim = m.claims().getFirst();
            assertThat(claim.question()).isEqualTo("In what year was the Eiffel Tower completed?");
            assertThat(claim.claimedAnswer()).isEqualTo("1899");
            assertThat(claim.checkerAnswers()).isNotEmpty().allMatch("1889"::equals);
            assertThat(claim.verdict()).isEqualTo("fault");
            // the documents are the index's top 3 for the question; the costs count every call of the method
            assertThat(m.documentIds()).hasSize(3).contains("eiffel-2");
            // the answer, the Proposer and MARCH's 3 Checker samples: every call the simulator saw
            assertThat(m.calls()).isEqualTo(5).isEqualTo(sim.recentGenerations().size());
            assertThat(m.tokenUsage().inputTokenCount()).isEqualTo((int) m.promptTokens()).isPositive();
            assertThat(m.tokenUsage().outputTokenCount()).isEqualTo((int) m.completionTokens()).isPositive();
            assertThat(m.upstreamModel()).isEqualTo("sim-model");
        }
    }

    /** A chat with a system message and a memory, as an assistant that keeps a conversation is written. */
    interface Conversation {
        @SystemMessage("Answer in one sentence.")
        Result<String> chat(String message);
    }

    @Test
    void aChatsOtherMessagesAndSamplingParametersAreSaidToBeIgnoredAndACutAnswerEndsWithLength() {
        try (SimServer sim = SimServer.start(SimConfig.builder().rules(Rule.of("(?s).*",
                "The Eiffel Tower was completed in 1889 on the Champ de Mars in Paris.")).build());
             VeracityChatModel model = VeracityChatModel.builder().method("no-rag").baseUrl(sim.baseUrl())
                     .modelName("sim-model").build();
             VeracityChatModel cut = VeracityChatModel.builder().method("no-rag").option("max-tokens", "4")
                     .baseUrl(sim.baseUrl()).modelName("sim-model").build()) {
            Conversation chat = AiServices.builder(Conversation.class).chatModel(model)
                    .chatMemory(MessageWindowChatMemory.withMaxMessages(10)).build();
            VeracityResponseMetadata first = (VeracityResponseMetadata) chat.chat(QUESTION).finalResponse().metadata();
            assertThat(first.ignored()).containsExactly("1 other message (a method answers the last user message alone)");
            Result<String> second = chat.chat("And where is it?");
            VeracityResponseMetadata m = (VeracityResponseMetadata) second.finalResponse().metadata();
            // the system message, the first question and its answer: the method saw the last question alone
            assertThat(m.ignored()).containsExactly("3 other messages (a method answers the last user message alone)");
            assertThat(second.finishReason()).isEqualTo(FinishReason.STOP);
            assertThat(m.truncation().any()).isFalse();

            ChatResponse r = cut.chat(ChatRequest.builder().messages(UserMessage.from(QUESTION)).temperature(0.2)
                    .maxOutputTokens(64).build());
            VeracityResponseMetadata c = (VeracityResponseMetadata) r.metadata();
            assertThat(r.finishReason()).isEqualTo(FinishReason.LENGTH);
            assertThat(c.truncation().answer()).isTrue();
            assertThat(c.truncation().samples()).isEqualTo(1);
            assertThat(c.ignored()).containsExactly("temperature, max_output_tokens (each method samples as its paper"
                    + " says; set its options instead)");
        }
    }

    @Test
    void aRightNumberPasses() throws Exception {
        try (SimServer sim = sim("The Eiffel Tower was completed in 1889.");
             VeracityContentRetriever docs = index()) {
            VeracityChatModel model = VeracityChatModel.builder().method("standard-rag+march")
                    .baseUrl(sim.baseUrl()).modelName("sim-model").retriever(docs).build();

            VeracityResponseMetadata m = (VeracityResponseMetadata) assistant(model).answer(QUESTION).finalResponse()
                    .metadata();

            assertThat(m.verdict()).contains("passed");
            assertThat(m.claims()).singleElement().satisfies(c -> assertThat(c.verdict()).isEqualTo("confirmed"));
        }
    }

    @Test
    void abstainsByPolicyWhenTheCheckerRejects() throws Exception {
        try (SimServer sim = sim("The Eiffel Tower was completed in 1899.");
             VeracityContentRetriever docs = index()) {
            VeracityChatModel model = VeracityChatModel.builder().method("standard-rag+march+abstain")
                    .baseUrl(sim.baseUrl()).modelName("sim-model").retriever(docs).build();

            Result<String> r = assistant(model).answer(QUESTION);

            VeracityResponseMetadata m = (VeracityResponseMetadata) r.finalResponse().metadata();
            assertThat(m.verdict()).contains("failed");
            assertThat(m.abstained()).isTrue();
            assertThat(m.abstainedByPolicy()).isTrue();
            assertThat(r.content()).doesNotContain("1899");
        }
    }

    @Test
    void anyContentRetrieverGivesTheDocumentsAndAClosedBookMethodNeedsNone() {
        AtomicInteger asked = new AtomicInteger();
        ContentRetriever fixed = q -> {
            asked.incrementAndGet();
            return List.of(Content.from(TextSegment.from("Gustave Eiffel's company completed the tower in 1889.")));
        };
        try (SimServer sim = sim("It was completed in 1889.")) {
            VeracityChatModel rag = VeracityChatModel.builder().method("standard-rag").baseUrl(sim.baseUrl())
                    .retriever(fixed).build();
            ChatResponse r = rag.chat(UserMessage.from(QUESTION));
            VeracityResponseMetadata m = (VeracityResponseMetadata) r.metadata();
            assertThat(r.aiMessage().text()).contains("1889");
            assertThat(m.documentIds()).containsExactly("1");
            assertThat(m.verdict()).isEmpty();
            assertThat(m.claims()).isEmpty();
            assertThat(asked).hasValue(1);

            VeracityChatModel closed = VeracityChatModel.builder().method("no-rag").baseUrl(sim.baseUrl())
                    .retriever(fixed).build();
            VeracityResponseMetadata c = (VeracityResponseMetadata) closed.chat(UserMessage.from(QUESTION)).metadata();
            assertThat(c.documentIds()).isEmpty();
            assertThat(asked).hasValue(1); // a closed-book method does not retrieve
            assertThat(c.calls()).isEqualTo(1);
        }
    }

    @Test
    void badInputFailsAtBuildWithTheReason() {
        assertThatThrownBy(() -> VeracityChatModel.builder().method("standard-rgg").baseUrl("http://localhost:1/v1")
                .build()).isInstanceOf(InvalidRequestException.class).hasMessageContaining("unknown method 'standard-rgg'");
        assertThatThrownBy(() -> VeracityChatModel.builder().method("march").option("samples", "many")
                .baseUrl("http://localhost:1/v1").retriever(q -> List.of()).build())
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("samples");
        assertThatThrownBy(() -> VeracityChatModel.builder().method("standard-rag").option("no-such", "1")
                .baseUrl("http://localhost:1/v1").retriever(q -> List.of()).build())
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("no-such");
        assertThatThrownBy(() -> VeracityChatModel.builder().method("standard-rag+march").baseUrl("http://localhost:1/v1")
                .build()).isInstanceOf(InvalidRequestException.class).hasMessageContaining("answers from documents");
        assertThatThrownBy(() -> VeracityChatModel.builder().method("no-rag").build())
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining(".baseUrl(");
        assertThatThrownBy(() -> VeracityChatModel.builder().build())
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("name a method");
        // Speculative RAG compares documents by embedding: without the embed part (not on this class path), say so
        assertThatThrownBy(() -> VeracityChatModel.builder().method("speculative-rag").baseUrl("http://localhost:1/v1")
                .retriever(q -> List.of()).build())
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("compares documents by embedding")
                .hasMessageContaining("veracity-embed-onnx");
        assertThat(VeracityChatModel.builder().method("speculative-rag").baseUrl("http://localhost:1/v1")
                .retriever(q -> List.of()).embedder(VeracityContentRetrieverTest.WORDS).build().method())
                .isEqualTo("speculative-rag");
    }

    @Test
    void anUpstreamThatIsDownIsARetriableExceptionThroughTheService() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort(); // closed again: nothing listens there
        }
        VeracityChatModel model = VeracityChatModel.builder().method("no-rag").baseUrl("http://127.0.0.1:" + port + "/v1")
                .retry(RetrySettings.NONE).timeout(Duration.ofSeconds(10)).build();
        assertThatThrownBy(() -> assistant(model).answer(QUESTION))
                .isInstanceOf(RetriableException.class)
                .hasMessageStartingWith("the upstream model failed (connection, 1 attempt)")
                .hasMessageNotContaining("\n");
    }

    @Test
    void aCachedQuestionIsAnsweredWithoutTheModel() throws Exception {
        try (SimServer sim = sim("The Eiffel Tower was completed in 1889.");
             VeracityContentRetriever docs = index();
             dev.veracity.llm.cache.SqliteResponseCache cache = dev.veracity.llm.cache.SqliteResponseCache.open(
                     dir.resolve("cache.db"))) {
            VeracityChatModel model = VeracityChatModel.builder().method("standard-rag+march").baseUrl(sim.baseUrl())
                    .retriever(docs).cache(cache, dev.veracity.llm.cache.CacheMode.READ_WRITE).build();
            Result<String> first = assistant(model).answer(QUESTION);
            int calls = sim.recentGenerations().size();
            Result<String> again = assistant(model).answer(QUESTION);
            assertThat(sim.recentGenerations()).hasSize(calls);
            assertThat(again.content()).isEqualTo(first.content());
            VeracityResponseMetadata m = (VeracityResponseMetadata) again.finalResponse().metadata();
            assertThat(m.verdict()).contains("passed");
            assertThat(m.callStats().cacheHits()).isEqualTo(m.calls()).isEqualTo(calls);
        }
    }

    /** Tools a service might offer: the model refuses them rather than ignore them. */
    static final class Clock {
        @dev.langchain4j.agent.tool.Tool("the current year")
        int year() {
            return 2026;
        }
    }

    @Test
    void toolsAreRefusedWithTheReason() {
        VeracityChatModel model = VeracityChatModel.builder().method("no-rag").baseUrl("http://127.0.0.1:1/v1").build();
        Assistant withTools = AiServices.builder(Assistant.class).chatModel(model).tools(new Clock()).build();
        assertThatThrownBy(() -> withTools.answer(QUESTION))
                .isInstanceOf(dev.langchain4j.exception.UnsupportedFeatureException.class)
                .hasMessageContaining("calls no tools");
    }

    @Test
    void runsOnALangChain4jChatModelAsItsBackend() {
        try (SimServer sim = sim("Paris.")) {
            OpenAiChatModel upstream = OpenAiChatModel.builder().baseUrl(sim.baseUrl()).apiKey("no-key")
                    .modelName("sim-model").maxRetries(0).build();
            VeracityChatModel model = VeracityChatModel.builder().method("no-rag").backend(upstream).build();
            ChatResponse r = model.chat(UserMessage.from("Where is the Eiffel Tower?"));
            assertThat(r.aiMessage().text()).contains("Paris");
            assertThat(((VeracityResponseMetadata) r.metadata()).upstreamModel()).isEqualTo("sim-model");
            assertThat(sim.recentGenerations()).hasSize(1);
        }
    }
}
