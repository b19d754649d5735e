package dev.veracity.examples.assistant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.exception.InvalidRequestException;
import dev.veracity.langchain4j.VeracityChatModel;
import dev.veracity.langchain4j.VeracityContentRetriever;
import dev.veracity.langchain4j.VeracityResponseMetadata;
import dev.veracity.retrieval.corpus.Document;
import dev.veracity.retrieval.lucene.IndexBuilder;
import dev.veracity.sim.Rule;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The assistant over a tiny index and the simulator with scripted agents: the model says a year, MARCH's Proposer asks
 * for it, the Checker reads another year from the passage, so the answer is withdrawn and the metadata says why.
 */
class VerifiedAssistantTest {

    @TempDir
    Path dir;

    /** A tiny index, as {@code ./veracity index --corpus corpus.jsonl --out DIR} builds it. */
    private Path index() throws Exception {
        Path out = dir.resolve("index");
        try (IndexBuilder b = IndexBuilder.builder().open(out)) {
            b.addAll(List.of(
                    new Document("eiffel", "Eiffel Tower", "Gustave Eiffel's company completed the tower in 1889."),
                    new Document("louvre", "Louvre", "The Louvre in Paris is the world's most-visited museum."),
                    new Document("colosseum", "Colosseum", "The Colosseum in Rome was completed in 80 AD.")));
        }
        return out;
    }

    private static SimServer model(String answer) {
        String year = answer.replaceAll("\\D", "");
        return SimServer.start(SimConfig.builder().rules(
                Rule.of("You are a data annotation expert", // MARCH's Proposer
                        "- Question: In what year was the Eiffel Tower completed? [Answer: " + year + "]"),
                Rule.of("You are a data validation expert", // MARCH's Checker, which sees the passages only
                        "1. Evidence: Document-1 states that the tower was completed in 1889. [Answer: 1889]"),
                Rule.of("(?s).*", answer)).build()); // the answer
    }

    @Test
    void aWrongYearIsWithdrawnAndTheMetadataSaysWhy() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        try (SimServer sim = model("It was completed in 1899.");
             VeracityContentRetriever docs = VeracityContentRetriever.builder().index(index()).maxResults(2).build();
             VeracityChatModel chat = VerifiedAssistant.model(docs, sim.baseUrl(), "sim-model",
                     "standard-rag+march+abstain")) {
            VerifiedAssistant.Assistant assistant = VerifiedAssistant.create(chat);

            VeracityResponseMetadata m = VerifiedAssistant.ask(assistant, "When was the Eiffel Tower completed?",
                    new PrintStream(printed, true, StandardCharsets.UTF_8));

            assertThat(m.verdict()).contains("failed");
            assertThat(m.abstained()).isTrue();
            assertThat(m.claims()).singleElement().satisfies(c -> {
                assertThat(c.claimedAnswer()).isEqualTo("1899");
                assertThat(c.checkerAnswers()).containsOnly("1889");
                assertThat(c.verdict()).isEqualTo("fault");
            });
            assertThat(m.documentIds()).first().isEqualTo("eiffel");
            assertThat(m.calls()).isEqualTo(sim.recentGenerations().size());
        }
        String out = printed.toString(StandardCharsets.UTF_8);
        assertThat(out).doesNotContain("It was completed in 1899")
                .contains("verdict failed, abstained true").contains("fault: In what year was the Eiffel Tower completed? -> 1899");
    }

    @Test
    void aRightYearPasses() throws Exception {
        try (SimServer sim = model("It was completed in 1889.");
             VeracityContentRetriever docs = VeracityContentRetriever.builder().index(index()).build();
             VeracityChatModel chat = VerifiedAssistant.model(docs, sim.baseUrl(), "sim-model",
                     "standard-rag+march+abstain")) {
            VeracityResponseMetadata m = VerifiedAssistant.ask(VerifiedAssistant.create(chat),
                    "When was the Eiffel Tower completed?", new PrintStream(
                    new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            assertThat(m.verdict()).contains("passed");
            assertThat(m.abstained()).isFalse();
            assertThat(m.answers()).singleElement().asString().contains("1889");
        }
    }

    @Test
    void anUnknownMethodIsRefusedWithTheReason() throws Exception {
        try (VeracityContentRetriever docs = VeracityContentRetriever.builder().index(index()).build()) {
            assertThatThrownBy(() -> VerifiedAssistant.model(docs, "http://localhost:1/v1", "m", "marsh"))
                    .isInstanceOf(InvalidRequestException.class).hasMessageContaining("unknown method 'marsh'");
        }
    }

    @Test
    void theApplicationDoesNotGetJetty() {
        // Veracity's HTTP servers stay out of a LangChain4j application's class path
        assertThatThrownBy(() -> Class.forName("org.eclipse.jetty.server.Server"))
                .isInstanceOf(ClassNotFoundException.class);
    }
}
