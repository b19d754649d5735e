package dev.veracity.sim.reader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.veracity.llm.BackendCapabilities;
import dev.veracity.llm.Completion;
import dev.veracity.llm.FinishReason;
import dev.veracity.llm.LlmBackend;
import dev.veracity.llm.LlmRequest;
import dev.veracity.llm.LlmResponse;
import dev.veracity.llm.TokenUsage;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.method.MethodAnswer;
import dev.veracity.method.MethodContext;
import dev.veracity.methods.Methods;
import dev.veracity.methods.court.Candidate;
import dev.veracity.qa.Document;
import dev.veracity.qa.QaItem;
import dev.veracity.retrieval.react.PageStore;
import dev.veracity.testing.CpuBudget;
import dev.veracity.trace.CallContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Reasoning Court and every one of its baselines against the built-in reader, through the real methods: every agent
 * turn, judge verdict, debater, refinement and moderator output is in the format its method parses, so nothing fails
 * to parse; the agent searches the question's names, follows "Similar:" lists and finishes from what it observed.
 */
class CourtReaderTest {

    static final QaItem HOTPOT = new QaItem("h1", "Were Scott Derrickson and Ed Wood of the same nationality?", List.of(
            Document.of("0", "Ed Wood (film)", "Ed Wood is a 1994 American biographical period comedy-drama film directed"
                    + " and produced by Tim Burton."),
            Document.of("1", "Scott Derrickson", "Scott Derrickson (born July 16, 1966) is an American director,"
                    + " screenwriter and producer. He lives in Los Angeles, California."),
            Document.of("2", "Ed Wood", "Edward Davis Wood Jr. (October 10, 1924 - December 10, 1978) was an American"
                    + " filmmaker, actor, writer, producer, and director.")), List.of(), List.of(), null, Map.of(), null);

    /** The reader behind an LlmBackend that applies stop sequences as a server does. */
    static final class ReaderBackend implements LlmBackend {
        final List<LlmRequest> requests = Collections.synchronizedList(new ArrayList<>());
        final List<String> outputs = Collections.synchronizedList(new ArrayList<>());

        @Override
        public String id() {
            return "reader";
        }

        @Override
        public String defaultModel() {
            return "reader";
        }

        @Override
        public BackendCapabilities capabilities() {
            return new BackendCapabilities(true, true, false, true, false, true);
        }

        @Override
        public LlmResponse generate(LlmRequest request, Duration timeout) {
            requests.add(request);
            String text = ExtractiveReader.classPath().respond(request.promptText()).orElse("I don't know.");
            for (String stop : request.stop()) {
                int at = text.indexOf(stop);
                if (at >= 0) {
                    text = text.substring(0, at);
                }
            }
            outputs.add(text);
            return new LlmResponse("reader", List.of(Completion.of(request.firstSampleIndex(), text, FinishReason.STOP,
                    TokenUsage.of(1, 1))), TokenUsage.of(1, 1));
        }

        @Override
        public void close() {
        }
    }

    private static MethodAnswer run(String method, QaItem item, String dataset, ReaderBackend backend, PageStore pages) {
        LlmClient client = LlmClient.builder(backend).concurrency(8).build();
        return Methods.byName(method).answer(item, new MethodContext(client, CallContext.of("r", item.id(), method),
                dataset, false, Map.of(), null, null, pages));
    }

    @Test
    void theAgentSearchesTheQuestionsNamesAndTheJudgeCompletes() {
        ReaderBackend backend = new ReaderBackend();
        MethodAnswer a = run("court", HOTPOT, "hotpotqa", backend, null);
        assertThat(a.parseFailures()).isEmpty();
        assertThat(a.signals()).containsEntry("judge_parsed", 1.0).containsEntry("forced_finishes", 0.0)
                .containsEntry("action_retries", 0.0);
        List<String> steps = backend.requests.stream().map(LlmRequest::promptText).filter(p -> p.endsWith("Thought 3:")).toList();
        assertThat(steps).isNotEmpty().allSatisfy(p -> assertThat(p).contains("Action 1: Search[Scott Derrickson]\nObservation 1:"
                + " Scott Derrickson (born July 16, 1966) is an American director, screenwriter and producer.")
                .contains("Action 2: Search[Ed Wood]\nObservation 2: Edward Davis Wood Jr."));
        // the invented observation after each action never reached the agent: the stop sequence cut it
        assertThat(backend.outputs).noneMatch(o -> o.contains("the reader imagines one"));
        assertThat(Candidate.of(a)).allSatisfy(c -> assertThat(c.answer()).isNotBlank());
        assertThat(a.prediction()).isEqualTo(Candidate.of(a).getFirst().answer());
    }

    @Test
    void aMissFollowsTheSimilarListAndFeverFinishesWithALabel() {
        QaItem claim = new QaItem("c1", "Nikolaj Coster-Waldau worked with the Fox Broadcasting Company.", List.of(),
                List.of(), List.of(), null, Map.of(), null);
        try (PageStore pages = PageStore.of(List.of(new dev.veracity.retrieval.corpus.Document("1",
                "Nikolaj Coster-Waldau (actor)", "Nikolaj Coster-Waldau is a Danish actor. He worked with the Fox"
                + " Broadcasting Company on New Amsterdam.")))) {
            ReaderBackend backend = new ReaderBackend();
            MethodAnswer a = run("court", claim, "fever", backend, pages);
            assertThat(a.parseFailures()).isEmpty();
            String step2 = backend.requests.stream().map(LlmRequest::promptText).filter(p -> p.endsWith("Thought 2:"))
                    .findFirst().orElseThrow();
            assertThat(step2).contains("Action 1: Search[Nikolaj Coster-Waldau]\nObservation 1: Could not find"
                    + " Nikolaj Coster-Waldau. Similar: ['Nikolaj Coster-Waldau (actor)'");
            String step3 = backend.requests.stream().map(LlmRequest::promptText).filter(p -> p.endsWith("Thought 3:"))
                    .findFirst().orElseThrow();
            assertThat(step3).contains("Action 2: Search[Nikolaj Coster-Waldau (actor)]\nObservation 2: Nikolaj");
            assertThat(a.prediction()).isEqualTo("SUPPORTS");
        }
    }

    @Test
    void everyCourtMethodRunsWithNothingUnparsed() {
        for (String m : List.of("court", "court-no-judge", "react", "react-sc", "react-cot-sc", "cot-sc-react",
                "react-self-refine", "react-mad", "react-judge", "cot-judge", "mad")) {
            ReaderBackend backend = new ReaderBackend();
            MethodAnswer a = run(m, HOTPOT, "hotpotqa", backend, null);
            assertThat(a.parseFailures()).as(m).isEmpty();
            assertThat(a.prediction()).as(m).isNotBlank();
        }
    }

    @Test
    void tenMegabyteAgentAndJudgePromptsAreQuick() {
        String prompt = "Solve a question answering task.\nQuestion: q?\nThought 1: x\nAction 1: Search[A]\nObservation 1: "
                + "Could not find A. Similar: [" + "'a b', ".repeat(400_000) + "'Ed Wood'].\nThought 2: y\nAction 2:"
                + " Search[Ed Wood]\nObservation 2: " + "word ".repeat(1_000_000) + "Ed Wood was a filmmaker.\n"
                + "Question: Who was Ed Wood?\nThought 1: z\nAction 1: Search[Ed Wood]\nObservation 1: "
                + "Could not find Ed Wood. Similar: [" + "'x', ".repeat(300_000) + "].\nThought 2:";
        String judge = "You are given two solutions from different agents addressing a multi-hop question.\n\nQuestion:"
                + " Who?\n\nAgent 1:\nThought 1: a\nAction 1: Search[x]\nObservation 1: " + "Complete[ ".repeat(500_000)
                + "\nFinal answer: (none: the agent did not finish within its steps)";
        CpuBudget.run(Duration.ofSeconds(3), "the reader on a 10 MB agent and a 5 MB judge prompt", () -> {
            assertThat(ExtractiveReader.classPath().respond(prompt)).hasValueSatisfying(o -> assertThat(o).contains("Action 2: "));
            assertThat(ExtractiveReader.classPath().respond(judge)).hasValueSatisfying(o -> assertThat(o).contains("Action: Complete["));
        });
    }

    @Test
    void musiqueLooksUpTheTitleNearestTheQuestion() {
        QaItem q = new QaItem("m1", "Who founded the company that distributed the film UHF?", List.of(
                Document.of("0", "Mike Medavoy", "Morris Mike Medavoy is an American film producer, co-founder of Orion Pictures."),
                Document.of("1", "UHF (film)", "The film UHF was distributed by Orion Pictures.")),
                List.of(), List.of(), null, Map.of(), null);
        ReaderBackend backend = new ReaderBackend();
        MethodAnswer a = run("court", q, "musique", backend, null);
        assertThat(a.parseFailures()).isEmpty();
        assertThat(backend.requests.stream().map(LlmRequest::promptText).filter(p -> p.endsWith("Thought 2:")).findFirst()
                .orElseThrow()).contains("Action 1: Lookup[UHF (film)]\nObservation 1: The film UHF was distributed by Orion Pictures.");
    }
}
