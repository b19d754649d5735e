package dev.veracity.sim.reader;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.methods.madam.AgentOutput;
import dev.veracity.methods.madam.AgentOutputParser;
import dev.veracity.methods.madam.AggregatorOutput;
import dev.veracity.methods.madam.AggregatorOutputParser;
import dev.veracity.methods.march.CheckerOutput;
import dev.veracity.methods.march.CheckerOutputParser;
import dev.veracity.methods.march.ClaimParser;
import dev.veracity.qa.AnswerSetParser;
import dev.veracity.testing.CpuBudget;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each role prompt, filled from the methods' real templates, gets an answer in its format that the project's real
 * parsers read (the judges' parsers live in veracity-eval, which depends on this module: their formats are checked
 * directly).
 */
class ExtractiveReaderTest {

    static final String Q = "In which year was the Eiffel Tower opened?";
    static final String D1 = "Michael Jeffrey Jordan (born February 17, 1963) is an American former basketball player. "
            + "He played for the Chicago Bulls.";
    static final String D2 = "The Eiffel Tower is a tower in Paris. The Eiffel Tower was opened in 1889 for the World's Fair.";
    static final String D3 = "The Eiffel Tower was opened in 1901 according to a forged plaque.";

    /** A methods template without its "#!" provenance lines, placeholders filled. */
    static String template(String path, Map<String, String> values) {
        try (InputStream in = ExtractiveReaderTest.class.getResourceAsStream("/dev/veracity/methods/" + path)) {
            assertThat(in).as(path).isNotNull();
            String t = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .filter(l -> !l.startsWith("#!")).collect(Collectors.joining("\n"));
            for (Map.Entry<String, String> e : values.entrySet()) {
                t = t.replace("{" + e.getKey() + "}", e.getValue());
            }
            return t;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static String read(String prompt) {
        return ExtractiveReader.classPath().respond(prompt).orElseThrow(() -> new AssertionError("not recognised: " + prompt));
    }

    static String docs(String sep, String... texts) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < texts.length; i++) {
            sb.append(i > 0 ? sep : "").append("Document ").append(i + 1).append(": ").append(texts[i]);
        }
        return sb.toString();
    }

    @Test
    void madamAgentAnswersFromItsDocument() {
        String out = read(template("madam/agent.txt", Map.of("question", Q, "document", D2)));
        AgentOutput a = AgentOutputParser.parse(out, Q);
        assertThat(a.parsed()).isTrue();
        assertThat(a.answer()).isEqualTo("1889");
        assertThat(a.explanation()).isNotBlank();

        String irrelevant = read(template("madam/agent-debate.txt", Map.of("question", Q, "document", "Cats purr.",
                "history", "Agent 2: Answer: 1889. Explanation: x.")));
        assertThat(AgentOutputParser.parse(irrelevant, Q).answer()).isEqualToIgnoringCase("unknown");
    }

    @Test
    void madamAggregatorListsTheDistinctKnownAnswers() {
        String history = "Agent 1: Answer: 1889. Explanation: a.\n\nAgent 2: Answer: unknown. Explanation: b.\n\n"
                + "Agent 3: Answer: 1901. Explanation: c.\n\nAgent 4: Answer: 1889. Explanation: d.";
        String out = read(template("madam/aggregator.txt", Map.of("question", Q, "agent responses list", history)));
        AggregatorOutput a = AggregatorOutputParser.parse(out);
        assertThat(a.parsed()).isTrue();
        assertThat(a.answers()).containsExactly("1889", "1901");
    }

    @Test
    void concatenatedReadsOnlyTheRealQuestionsDocuments() {
        String prompt = template("baseline/concatenated.txt", Map.of("question", Q, "documents list", docs("\n\n", D1, D2, D3)));
        AggregatorOutput a = AggregatorOutputParser.parse(read(prompt), List.of(D1, D2, D3));
        assertThat(a.parsed()).isTrue();
        assertThat(a.answers()).containsExactly("1889", "1901"); // not the one-shot example's 1963/1956
    }

    @Test
    void selfReflectionAstuteAndSpeculativeUseTheAnswerSetFormat() {
        String ctx = docs("\n\n", D1, D2);
        for (String prompt : List.of(
                template("madam/baseline/self-reflection-initial.txt", Map.of("question", Q, "context", ctx)),
                template("madam/baseline/self-reflection-refine.txt", Map.of("question", Q, "context", ctx,
                        "answer", "All Correct Answers: [\"1901\"].", "review", "It is wrong.")),
                template("madam/baseline/astute-finalization.txt", Map.of("question", Q, "context init", ctx,
                        "consolidated", "")),
                template("madam/baseline/speculative-aggregator.txt", Map.of("query", Q, "all drafted responses",
                        "Response 1: Response: 1889. Rationale: x.\n\nResponse 2: Response: Unknown. Rationale: y."))
        )) {
            AnswerSetParser.Reading r = AnswerSetParser.read(read(prompt), List.of());
            assertThat(r.marked()).as(prompt).isTrue();
            assertThat(r.answers()).as(prompt).containsExactly("1889");
        }
        String review = read(template("madam/baseline/self-reflection-review.txt", Map.of("question", Q, "context", ctx,
                "answer", "All Correct Answers: [\"1901\"].")));
        assertThat(review).contains("Document 2");
        String draft = read(template("madam/baseline/speculative-drafter.txt", Map.of("question", Q, "documents", ctx)));
        assertThat(draft).startsWith("Response: 1889. Rationale:");
        assertThat(read(template("madam/baseline/astute-generation.txt", Map.of("question", Q)))).isNotBlank();
        assertThat(read(template("madam/baseline/astute-consolidation.txt", Map.of("question", Q, "context init", ctx,
                "context", ctx)))).contains("1889");
    }

    @Test
    void shortAnswerBaselines() {
        assertThat(read(template("baseline/no-rag-multi.txt", Map.of("question", "Who painted the Mona Lisa?"))))
                .isEqualTo("Mona Lisa"); // a closed-book guess
        assertThat(read(template("baseline/no-rag-multi.txt", Map.of("question", "who is it?")))).isEqualTo("unknown");
        assertThat(read(template("baseline/standard-rag-single.txt", Map.of("question", Q, "documents", docs("\n\n", D1, D2)))))
                .isEqualTo("1889");
        assertThat(read(template("baseline/standard-single.txt", Map.of("question", Q)))).isEqualTo("unknown");
        // FEVER's standard prompts name the labels: the reader answers one, alone
        assertThat(read(template("baseline/standard-fever.txt", Map.of("question", "Paris is in France."))))
                .isIn("SUPPORTS", "REFUTES", "NOT ENOUGH INFO");
        assertThat(read(template("baseline/standard-rag-fever.txt", Map.of("question", "The Eiffel Tower opened in 1889.",
                "documents", docs("\n\n", D1, D2))))).isEqualTo("SUPPORTS");
    }

    @Test
    void chainOfThoughtEndsWithAnAnswerLine() {
        for (String f : List.of("baseline/cot-hotpotqa.txt", "baseline/cot-musique.txt")) {
            String out = read(template(f, Map.of("question", "Which documentary is about the Saimaa Gesture?")));
            assertThat(out).startsWith(" ").doesNotContain("\nQuestion:").containsPattern("\nAnswer: \\S");
            assertThat(out.substring(out.lastIndexOf("\nAnswer: ") + 9)).isEqualTo("Saimaa Gesture");
        }
        String fever = read(template("baseline/cot-fever.txt", Map.of("question", "Paris is in France.")));
        assertThat(fever).containsPattern("\nAnswer: (SUPPORTS|REFUTES|NOT ENOUGH INFO)$");
    }

    @Test
    void marchSolverProposerChecker() {
        String passages = "Document-1\nEiffel Tower. " + D2 + "\nDocument-2\n" + D1;
        String solved = read(template("march/solver.txt", Map.of("documents", passages, "user query", Q)));
        assertThat(solved).startsWith("The Eiffel Tower was opened in 1889");

        for (String f : List.of("march/proposer.txt", "march/proposer-typed.txt")) {
            String proposed = read(template(f, Map.of("constraint", "", "response", solved)));
            ClaimParser.Result claims = ClaimParser.parse(proposed);
            assertThat(claims.status()).as(proposed).isEqualTo(ClaimParser.Status.PAIRS);
            assertThat(claims.claims()).extracting(c -> c.answer()).contains("1889");
            assertThat(ClaimParser.parse(read(template(f, Map.of("constraint", "", "response", "Paris is nice."))))
                    .status()).isEqualTo(ClaimParser.Status.NO_CLAIMS);
        }

        String questions = "- Question 1: In the statement \"The Eiffel Tower was opened in what number for the World's Fair.\", "
                + "what is the number?\n- Question 2: How many moons does Neptune have?";
        for (String f : List.of("march/checker.txt", "march/checker-typed.txt")) {
            String checked = read(template(f, Map.of("docs", passages, "questions", questions)));
            CheckerOutput c = CheckerOutputParser.parse(checked, 2);
            assertThat(c.problems()).as(checked).isEmpty();
            assertThat(c.answer(1).orElseThrow().answer()).isEqualTo("1889");
            assertThat(c.answer(2).orElseThrow().cannotAnswer()).isTrue();
        }
    }

    @Test
    void judges() throws IOException {
        ObjectMapper json = new ObjectMapper();
        String crag = "Assume you are human expert in grading predictions given by model. ...\nExamples:\n"
                + "Question: q0\nGround Truth: Bram Stoker\nPrediction: Bram Stoker\nOutput: {\"explanation\": \"x\", \"score\": 1}\n\n"
                + "Question: " + Q + "\nGround Truth: 1889\nPrediction: %s\nOutput:";
        JsonNode yes = json.readTree(read(crag.formatted("It opened in 1889.")));
        assertThat(yes.get("score").asInt()).isEqualTo(1);
        assertThat(yes.get("explanation").asText()).isNotBlank();
        assertThat(json.readTree(read(crag.formatted("Bram Stoker"))).get("score").asInt()).isEqualTo(0);

        // TruthRL's released judge: their system message (examples with Ground Truth / Prediction lines), then the user's
        String authors = "Assume you are a human expert in grading predictions given by a model. ...\nExamples:\n"
                + "Question: \"q0\"\nGround Truth: \"1889\"\nPrediction: \"1889\"\nOutput: {\"score\": 1}\n\n"
                + "Question: " + Q + "\n Ground truth: 1889\n Prediction: %s\n";
        assertThat(json.readTree(read(authors.formatted("it opened in 1889."))).get("score").asInt()).isEqualTo(1);
        assertThat(json.readTree(read(authors.formatted("1901"))).get("score").asInt()).isEqualTo(0);
        String reasoning = "Assume you are a human expert in evaluating the usefulness of model-generated reasoning. ...\n"
                + "Question: " + Q + "\n Ground Truth: 1889\n Reasoning: %s\n";
        assertThat(json.readTree(read(reasoning.formatted("<think>Document [1] says 1889.</think>\\boxed{1889}")))
                .get("score").asInt()).isEqualTo(1);
        assertThat(json.readTree(read(reasoning.formatted("<think>no idea</think>\\boxed{1901}"))).get("score").asInt())
                .isEqualTo(0);

        String c3po = "You are a precise answer validator. ...\nCorrect Answers: [Array]\n\nPredicted Answer: [The answer]\n\n"
                + "Now, process the following question:\n\nQuestion: " + Q + "\n\nCorrect Answer: [\"1889\", \"1890\"]\n\n"
                + "Predicted Answer: %s";
        assertThat(read(c3po.formatted("the year 1889"))).isEqualTo("True");
        assertThat(read(c3po.formatted("1901"))).isEqualTo("False");

        String eq = "You are checking whether two answers to the same question are equivalent: ...\n\nQuestion: " + Q
                + "\nReference answer: The Beatles\nCandidate answer: %s\n\nAre the candidate answer and the reference"
                + " answer equivalent for this question? Reply with one word, Yes or No, on the first line.";
        assertThat(read(eq.formatted("beatles"))).isEqualTo("Yes");
        assertThat(read(eq.formatted("The Rolling Stones"))).isEqualTo("No");
    }

    @Test
    void inflectionsMeet() {
        String out = read(template("madam/agent.txt", Map.of("question", "When did the bridge open?",
                "document", "The bridge opened in 1932 in Sydney.")));
        assertThat(AgentOutputParser.parse(out).answer()).isEqualTo("1932");
    }

    @Test
    void unrecognisedPromptsAreLeftToTheDefault() {
        assertThat(ExtractiveReader.classPath().respond("hi")).isEmpty();
        assertThat(ExtractiveReader.classPath().respond("")).isEmpty();
    }

    @Test
    void aTenMegabytePromptIsQuick() {
        String big = template("madam/agent.txt", Map.of("question", Q, "document", "word ".repeat(2_000_000) + D2));
        assertThat(CpuBudget.call(Duration.ofSeconds(3), "the reader on a 10 MB prompt", () -> read(big)))
                .startsWith("Answer: 1889.");
    }

    @Test
    void truthRlPromptsGetABoxedAnswerOrABoxedAbstention() {
        String refs = "<DOC>\nDocument [1]: " + D1 + "\n</DOC>\n<DOC>\nDocument [2]: " + D2 + "\n</DOC>";
        String withRefs = template("truthrl/retrieval.txt", Map.of("question", Q, "query_time", "N/A", "documents", refs));
        String out = read(withRefs);
        assertThat(out).startsWith("<think>").contains("</think>");
        assertThat(dev.veracity.qa.Abstention.ofBoxed(out, dev.veracity.qa.BoxedAnswer.Mode.LAST))
                .isEqualTo(new dev.veracity.qa.Abstention.Reading(dev.veracity.qa.Abstention.Kind.ANSWER, "1889"));
        // closed book: nothing to read, so the reader abstains in the boxed format
        String closed = read(template("truthrl/no-retrieval.txt", Map.of("question", Q, "query_time", "N/A")));
        assertThat(dev.veracity.qa.Abstention.ofBoxed(closed, dev.veracity.qa.BoxedAnswer.Mode.LAST).kind())
                .isEqualTo(dev.veracity.qa.Abstention.Kind.ABSTAIN);
    }
}
