package dev.veracity.eval.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.llm.Completion;
import dev.veracity.llm.FinishReason;
import dev.veracity.llm.LlmRequest;
import dev.veracity.llm.ScriptedBackend;
import dev.veracity.llm.TokenUsage;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.llm.client.RetrySettings;
import dev.veracity.method.MethodAnswer;
import dev.veracity.method.MethodContext;
import dev.veracity.method.MethodSpec;
import dev.veracity.method.QaMethod;
import dev.veracity.method.Truncation;
import dev.veracity.qa.QaItem;
import dev.veracity.trace.InMemoryTraces;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An output a token limit cut is never scored as a whole answer: asked again, failed, or kept and marked. */
class TruncationTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final RetrySettings FAST = new RetrySettings(3, Duration.ofMillis(1), Duration.ofMillis(5), 2.0,
            0.2, Duration.ofSeconds(1));
    private static final int MAX = 50;

    @TempDir
    Path dir;

    /** One agent reads the question (limit MAX tokens); a second call, the "writer", gives the final answer. */
    private static final QaMethod TWO_STEP = new QaMethod() {
        @Override
        public String name() {
            return "two-step";
        }

        @Override
        public MethodSpec spec() {
            return MethodSpec.named(name()).withNeeds();
        }

        @Override
        public MethodAnswer answer(QaItem item, MethodContext ctx) {
            String notes = ctx.llm().call(ctx.role("reader", 0),
                    LlmRequest.user("read: " + item.question()).maxTokens(MAX).build()).text();
            String out = ctx.llm().call(ctx.role("writer", 0),
                    LlmRequest.user("write: " + item.question() + " | " + notes).maxTokens(MAX).build()).text();
            String answer = out.replaceFirst("(?s)^The answer is ", "").replaceFirst("\\.$", "");
            return new MethodAnswer(answer, List.of(answer), List.of()).withRaw(out);
        }
    };

    private Path nq() throws Exception {
        Path f = dir.resolve("nq.jsonl");
        Files.writeString(f, """
                {"question": "capital of france", "answer": ["Paris"]}
                {"question": "capital of italy", "answer": ["Rome"]}
                {"question": "capital of spain", "answer": ["Madrid"]}
                """);
        return f;
    }

    private static Completion done(String text) {
        return Completion.of(0, text, FinishReason.STOP, TokenUsage.of(10, ScriptedBackend.tokens(text)));
    }

    private static Completion cut(String text, int tokens) {
        return Completion.of(0, text, FinishReason.LENGTH, TokenUsage.of(10, tokens));
    }

    private static String capital(String prompt) {
        return prompt.contains("france") ? "Paris" : prompt.contains("italy") ? "Rome" : "Madrid";
    }

    private EvalRunner.Outcome run(String out, BiFunction<LlmRequest, Integer, Completion> server,
                                   Truncation.Policy policy) throws Exception {
        ScriptedBackend backend = ScriptedBackend.completions(server);
        EvalRunner.QuestionTraces traces = new EvalRunner.QuestionTraces(new InMemoryTraces());
        LlmClient client = LlmClient.builder(backend).retry(FAST).traces(traces).build();
        EvalRunner.Spec spec = new EvalRunner.Spec(TWO_STEP, "nq-open", nq(), 0, dir.resolve(out), 1,
                DatasetProfile.of("nq-open"), Map.of(), Map.of(), null, null, null, null, null, null, null, policy);
        return EvalRunner.run(spec, client, traces, "run-1", p -> { });
    }

    private List<JsonNode> lines(String out) throws Exception {
        return Files.readAllLines(dir.resolve(out).resolve("results.jsonl")).stream().map(l -> {
            try {
                return JSON.readTree(l);
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }).toList();
    }

    @Test
    void anAnswerTheServerCutBelowTheMethodsLimitIsAskedAgainAndScoredWhole() throws Exception {
        // The server's first writer answer about France is cut at 4 of the 50 tokens asked (a glitch, as the
        // simulator's TRUNCATED fault): scored as read, "The answer is Pa" would be a wrong answer.
        AtomicInteger franceWriter = new AtomicInteger();
        EvalRunner.Outcome o = run("out", (r, i) -> {
            String p = r.promptText();
            if (p.startsWith("read: ")) {
                return done("notes on " + capital(p));
            }
            if (p.contains("france") && franceWriter.getAndIncrement() == 0) {
                return cut("The answer is Pa", 4);
            }
            return done("The answer is " + capital(p) + ".");
        }, Truncation.Policy.FAIL);

        assertThat(o.answered()).isEqualTo(3);
        assertThat(o.failures()).isEmpty();
        assertThat(o.summary().toJson().at("/metrics/nq-em").asDouble()).isEqualTo(1.0);
        assertThat(franceWriter.get()).isEqualTo(2);
        assertThat(lines("out")).allSatisfy(l -> assertThat(l.has("truncated")).isFalse());
        assertThat(o.summary().toJson().at("/truncated/questions").asLong()).isZero();
    }

    @Test
    void anAnswerReadFromAnOutputItsOwnLimitCutFailsTheQuestionByDefaultWithWhatToDo() throws Exception {
        // The writer's answer about Italy runs to the whole 50-token budget: asking again would say the same.
        EvalRunner.Outcome o = run("out", (r, i) -> {
            String p = r.promptText();
            if (p.startsWith("read: ")) {
                return done("notes on " + capital(p));
            }
            return p.contains("italy") ? cut("The answer is Rome, or perhaps Milan, depending on", MAX)
                    : done("The answer is " + capital(p) + ".");
        }, Truncation.Policy.FAIL);

        assertThat(o.answered()).isEqualTo(2);
        assertThat(o.failures()).singleElement().asString().contains("writer's output")
                .contains("max_tokens of 50").contains("--truncated keep");
        JsonNode failure = lines("out").stream().filter(l -> l.has("failed")).findFirst().orElseThrow();
        assertThat(failure.get("failed_kind").asText()).isEqualTo("TRUNCATED");
        JsonNode s = o.summary().toJson();
        assertThat(s.get("failed").asInt()).isEqualTo(1);
        assertThat(s.at("/truncated/failed").asLong()).isEqualTo(1);
        assertThat(s.at("/truncated/answers").asLong()).isZero();
        assertThat(s.at("/truncated/policy").asText()).isEqualTo("fail");
        assertThat(s.at("/metrics/nq-em").asDouble()).isEqualTo(1.0); // over the two whole answers only
        assertThat(s.get("n").asInt()).isEqualTo(2);
    }

    @Test
    void keepScoresTheCutAnswerAsReadAndMarksAndCountsIt() throws Exception {
        EvalRunner.Outcome o = run("out", (r, i) -> {
            String p = r.promptText();
            if (p.startsWith("read: ")) {
                return done("notes on " + capital(p));
            }
            return p.contains("italy") ? cut("The answer is Rome, or perhaps Milan, depending on", MAX)
                    : done("The answer is " + capital(p) + ".");
        }, Truncation.Policy.KEEP);

        assertThat(o.answered()).isEqualTo(3);
        JsonNode italy = lines("out").stream().filter(l -> l.get("question").asText().contains("italy")).findFirst()
                .orElseThrow();
        assertThat(italy.at("/truncated/samples").asInt()).isEqualTo(1);
        assertThat(italy.at("/truncated/roles/writer").asInt()).isEqualTo(1);
        assertThat(italy.at("/truncated/answer").asBoolean()).isTrue();
        JsonNode s = o.summary().toJson();
        assertThat(s.at("/truncated/questions").asLong()).isEqualTo(1);
        assertThat(s.at("/truncated/answers").asLong()).isEqualTo(1);
        assertThat(s.at("/truncated/failed").asLong()).isZero();
        assertThat(s.at("/truncated/policy").asText()).isEqualTo("keep");
        assertThat(s.get("n").asInt()).isEqualTo(3);
    }

    @Test
    void aCutIntermediateOutputIsMarkedAndCountedButTheWholeAnswerIsScored() throws Exception {
        // The reader's notes on Spain hit the budget; the writer's answer is whole, so the question is scored.
        EvalRunner.Outcome o = run("out", (r, i) -> {
            String p = r.promptText();
            if (p.startsWith("read: ")) {
                return p.contains("spain") ? cut("notes on Madrid, which has been the capital since", MAX)
                        : done("notes on " + capital(p));
            }
            return done("The answer is " + capital(p) + ".");
        }, Truncation.Policy.FAIL);

        assertThat(o.answered()).isEqualTo(3);
        assertThat(o.failures()).isEmpty();
        JsonNode spain = lines("out").stream().filter(l -> l.get("question").asText().contains("spain")).findFirst()
                .orElseThrow();
        assertThat(spain.at("/truncated/roles/reader").asInt()).isEqualTo(1);
        assertThat(spain.at("/truncated/answer").asBoolean()).isFalse();
        assertThat(o.summary().toJson().at("/truncated/questions").asLong()).isEqualTo(1);
        assertThat(o.summary().toJson().at("/truncated/answers").asLong()).isZero();
        assertThat(o.summary().toJson().at("/metrics/nq-em").asDouble()).isEqualTo(1.0);
    }
}
