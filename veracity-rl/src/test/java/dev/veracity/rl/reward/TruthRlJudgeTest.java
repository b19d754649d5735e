package dev.veracity.rl.reward;

import static org.assertj.core.api.Assertions.assertThat;

import dev.veracity.llm.cache.CacheMode;
import dev.veracity.llm.cache.ResponseCache;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.llm.client.RetrySettings;
import dev.veracity.llm.openai.OpenAiCompatibleBackend;
import dev.veracity.sim.Rule;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import dev.veracity.testing.CpuBudget;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** TruthRL's rewards with the CRAG judge (the authors' prompt) for what exact match does not settle, against a scripted judge. */
class TruthRlJudgeTest {

    private static RewardInput input(String response, String... gold) {
        return new RewardInput("Who wrote The Taming of the Shrew?", response, Label.of(gold), java.util.Map.of());
    }

    @Test
    void theJudgeDecidesOnlyWhatExactMatchDoesNotAndReadsEveryGoldAnswer() {
        AtomicInteger judged = new AtomicInteger();
        // the judge accepts "w shakespeare" for "william shakespeare" only, as the authors' examples do
        Rule judge = Rule.of("(?s)human expert in grading predictions", m -> {
            judged.incrementAndGet();
            String p = m.prompt();
            // the authors' user message: "Question: ...\n Ground truth: ...\n Prediction: ...\n"
            String prediction = p.substring(p.lastIndexOf("\n Prediction: ") + 14).lines().findFirst().orElse("").strip();
            String gold = p.substring(p.lastIndexOf("\n Ground truth: ") + 16).lines().findFirst().orElse("").strip();
            boolean ok = prediction.equals("w shakespeare") && gold.equals("william shakespeare");
            return "{\"score\": " + (ok ? 1 : 0) + ", \"explanation\": \"checked\"}";
        });
        try (SimServer sim = SimServer.start(SimConfig.builder().rules(judge).build());
             OpenAiCompatibleBackend backend = OpenAiCompatibleBackend.builder().baseUrl(sim.baseUrl()).model("sim-model").build();
             LlmClient client = LlmClient.builder(backend).cache(ResponseCache.NONE, CacheMode.OFF).build()) {
            Reward r = Rewards.byName("truthrl-ternary", RewardSettings.defaults().withLlm(client).withJudge("crag"));
            // exact match and abstention need no judge
            assertThat(r.score(input("\\boxed{William Shakespeare}", "william shakespeare")).score()).isEqualTo(1.0);
            assertThat(r.score(input("\\boxed{I don't know}", "william shakespeare")).score()).isEqualTo(0.0);
            assertThat(r.score(input("no box", "william shakespeare")).score()).isEqualTo(-1.0);
            assertThat(judged).hasValue(0);
            // the judge accepts the abbreviation through the second gold answer (one call per gold until a yes)
            RewardResult abbreviated = r.score(input("\\boxed{w shakespeare}", "shakespeare, william", "william shakespeare"));
            assertThat(abbreviated.score()).isEqualTo(1.0);
            assertThat(abbreviated.details()).containsEntry("outcome", "correct").containsEntry("judge", "correct");
            assertThat(judged).hasValue(2);
            RewardResult wrong = r.score(input("\\boxed{Christopher Marlowe}", "william shakespeare"));
            assertThat(wrong.score()).isEqualTo(-1.0);
            assertThat(wrong.details()).containsEntry("judge", "incorrect");
        }
    }

    @Test
    void anUnreadableVerdictOrAJudgeThatIsDownGivesTheFlaggedFallback() {
        try (SimServer sim = SimServer.start(SimConfig.builder().rules(Rule.of("(?s)grading predictions", "I think so."))
                .build());
             OpenAiCompatibleBackend backend = OpenAiCompatibleBackend.builder().baseUrl(sim.baseUrl()).model("sim-model").build();
             LlmClient client = LlmClient.builder(backend).cache(ResponseCache.NONE, CacheMode.OFF).build()) {
            Reward r = Rewards.byName("truthrl-binary", RewardSettings.defaults().withLlm(client).withJudge("crag")
                    .withFallbackScore(-0.5));
            RewardResult unread = r.score(input("\\boxed{Marlowe}", "william shakespeare"));
            assertThat(unread.score()).isEqualTo(-0.5);
            assertThat(unread.status()).isEqualTo(RewardResult.Status.FALLBACK);
        }
        try (OpenAiCompatibleBackend backend = OpenAiCompatibleBackend.builder().baseUrl("http://127.0.0.1:9/v1")
                .model("m").build();
             LlmClient client = LlmClient.builder(backend).retry(RetrySettings.DEFAULT.withMaxAttempts(1))
                     .cache(ResponseCache.NONE, CacheMode.OFF).build()) {
            Reward r = Rewards.byName("truthrl-ternary", RewardSettings.defaults().withLlm(client).withJudge("crag"));
            RewardResult down = r.score(input("\\boxed{Marlowe}", "william shakespeare"));
            assertThat(down.status()).isEqualTo(RewardResult.Status.FALLBACK);
            assertThat(down.reason()).contains("judge call failed");
            // exact match still needs no model
            assertThat(r.score(input("\\boxed{William Shakespeare}", "william shakespeare")).score()).isEqualTo(1.0);
            assertThat(r.scoreAll(List.of(input("\\boxed{William Shakespeare}", "william shakespeare")))).hasSize(1);
        }
    }

    @Test
    void withoutAReasoningScoreInTheLabelTheReasoningJudgeGradesTheWholeResponseAsTheAuthorsDo() {
        java.util.List<String> graded = new java.util.concurrent.CopyOnWriteArrayList<>();
        Rule reasoning = Rule.of("(?s)usefulness of model-generated reasoning", m -> {
            String p = m.prompt();
            String r = p.substring(p.lastIndexOf("\n Reasoning: ") + 13).lines().findFirst().orElse("").strip();
            graded.add(r);
            return "{\"score\": " + (r.contains("Document [1]") ? 1 : 0) + ", \"explanation\": \"x\"}";
        });
        try (SimServer sim = SimServer.start(SimConfig.builder().rules(reasoning).build());
             OpenAiCompatibleBackend backend = OpenAiCompatibleBackend.builder().baseUrl(sim.baseUrl()).model("sim-model").build();
             LlmClient client = LlmClient.builder(backend).cache(ResponseCache.NONE, CacheMode.OFF).build()) {
            Reward r = Rewards.byName("truthrl-reasoning-multiplicative", RewardSettings.defaults().withLlm(client)
                    .withJudge("crag"));
            RewardResult good = r.score(input("<think>Document [1] names him.</think>\\boxed{William Shakespeare}",
                    "william shakespeare"));
            assertThat(good.score()).isEqualTo(2.0); // 1 x (1 + 1)
            // compute_process_score sends solution_str, the whole response: reasoning and boxed answer
            assertThat(graded).containsExactly("<think>Document [1] names him.</think>\\boxed{William Shakespeare}");
            RewardResult vague = r.score(input("<think>I think so.</think>\\boxed{William Shakespeare}", "william shakespeare"));
            assertThat(vague.score()).isEqualTo(1.0); // 1 x (1 + 0)
            // a label's reasoning_score is used as given, without a call
            RewardInput scored = new RewardInput("q", "<think>x</think>\\boxed{William Shakespeare}",
                    new Label(List.of("william shakespeare"), List.of(), null, List.of(), 1.0), java.util.Map.of());
            assertThat(r.score(scored).score()).isEqualTo(2.0);
            assertThat(graded).hasSize(2);
        }
        // with exact match only and no score in the label, the reward says what it needs
        assertThat(Rewards.byName("truthrl-reasoning-additive").problem(input("\\boxed{x}", "x")))
                .hasValueSatisfying(p -> assertThat(p).contains("reasoning_score").contains("--judge"));
    }

    @Test
    void theOrdersOfTheAuthorsEvaluationAndTrainingAndNoJudgeForAnOutOfKnowledgeQuestion() {
        AtomicInteger judged = new AtomicInteger();
        Rule judge = Rule.of("(?s)human expert in grading predictions", m -> {
            judged.incrementAndGet();
            return "{\"score\": 1, \"explanation\": \"yes\"}";
        });
        try (SimServer sim = SimServer.start(SimConfig.builder().rules(judge).build());
             OpenAiCompatibleBackend backend = OpenAiCompatibleBackend.builder().baseUrl(sim.baseUrl()).model("sim-model").build();
             LlmClient client = LlmClient.builder(backend).cache(ResponseCache.NONE, CacheMode.OFF).build()) {
            RewardSettings settings = RewardSettings.defaults().withLlm(client).withJudge("crag");
            Reward ternary = Rewards.byName("truthrl-ternary", settings);
            Reward authors = Rewards.byName("truthrl-ternary-authors", settings);
            // a false-premise call on a valid question is wrong without a judge call, in either order
            RewardResult invalid = ternary.score(input("\\boxed{invalid question}", "william shakespeare"));
            assertThat(invalid.score()).isEqualTo(-1.0);
            assertThat(invalid.details()).containsEntry("decided_by", "invalid").doesNotContainKey("judge");
            assertThat(authors.score(input("\\boxed{invalid question}", "william shakespeare")).score()).isEqualTo(-1.0);
            // on a false-premise question: right in the evaluation's order, wrong in the training code's
            assertThat(ternary.score(input("\\boxed{invalid question}", "invalid question")).score()).isEqualTo(1.0);
            assertThat(authors.score(input("\\boxed{invalid question}", "invalid question")).score()).isEqualTo(-1.0);
            assertThat(judged).hasValue(0);
            // an out-of-knowledge question is scored by abstention alone: the judge is not asked
            Reward knowledge = Rewards.byName("truthrl-knowledge-ternary", settings);
            RewardInput ook = new RewardInput("q", "\\boxed{Marlowe}",
                    new Label(List.of("william shakespeare"), List.of(), true, List.of(), null), java.util.Map.of());
            assertThat(knowledge.score(ook).score()).isEqualTo(-1.0);
            assertThat(judged).hasValue(0);
            // the judge settles what exact match does not
            assertThat(ternary.score(input("\\boxed{Marlowe}", "william shakespeare")).details())
                    .containsEntry("decided_by", "judge").containsEntry("judge", "correct");
            assertThat(judged).hasValue(1);
        }
    }

    @Test
    void badInputGivesTypedResultsInLinearTime() {
        // an empty gold list is not a label: a typed failure with the reason, never an exception
        assertThat(Label.parse("{\"answers\": []}")).isInstanceOf(LabelParse.Bad.class);
        assertThat(((LabelParse.Bad) Label.parse("{\"answers\": []}")).reason()).isNotBlank();
        Reward ternary = Rewards.byName("truthrl-ternary");
        // a 1 MB response with the right answer boxed at its end, and one of 10k nested braces: scored, quickly
        String big = "<think>" + "reasoning ".repeat(100_000) + "</think>\\boxed{William Shakespeare}";
        String nested = "\\boxed{" + "{".repeat(10_000) + "x" + "}".repeat(10_000) + "}";
        List<RewardResult> scored = CpuBudget.call(Duration.ofSeconds(2), "three hostile responses", () -> List.of(
                ternary.score(input(big, "william shakespeare")),
                ternary.score(input(nested, "william shakespeare")),
                ternary.score(input("\\boxed{" + "{".repeat(10_000), "x")))); // never closed: no answer
        RewardResult a = scored.get(0);
        RewardResult b = scored.get(1);
        RewardResult c = scored.get(2);
        assertThat(a.score()).isEqualTo(1.0);
        assertThat(b.score()).isEqualTo(-1.0);
        assertThat(b.details()).containsEntry("outcome", "hallucinate").containsEntry("boxed", true);
        assertThat(c.details()).containsEntry("boxed", false);
    }
}
