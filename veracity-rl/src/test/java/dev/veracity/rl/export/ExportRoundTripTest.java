package dev.veracity.rl.export;

import static dev.veracity.rl.export.ExportFixtures.JSON;
import static dev.veracity.rl.export.ExportFixtures.RAMDOCS;
import static dev.veracity.rl.export.ExportFixtures.copy;
import static dev.veracity.rl.export.ExportFixtures.jsonl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.eval.data.Datasets;
import dev.veracity.llm.cache.CacheMode;
import dev.veracity.llm.cache.ResponseCache;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.llm.openai.OpenAiCompatibleBackend;
import dev.veracity.qa.QaItem;
import dev.veracity.rl.jsonl.BadInputException;
import dev.veracity.rl.reward.RewardFile;
import dev.veracity.rl.reward.RewardSettings;
import dev.veracity.rl.reward.Rewards;
import dev.veracity.sim.Rule;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The label every RL format writes is the one the reward core reads: rollouts of the exported rows, scored through
 * the file door ({@code veracity reward}), get the rewards {@code eval}'s metrics would give, and MARCH's Checker reads
 * the exported documents.
 */
class ExportRoundTripTest {

    @TempDir
    Path dir;

    /** The (question, label) of each row of a file in each format, read where that format keeps them. */
    private List<String[]> questionsAndLabels(ExportFormat f, Path file, List<QaItem> items) throws Exception {
        List<JsonNode> rows = f == ExportFormat.VERL ? ExportFixtures.parquetRows(file) : jsonl(file);
        List<String[]> out = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            JsonNode r = rows.get(i);
            out.add(switch (f) {
                case VERL, VERL_JSONL -> new String[] {r.at("/extra_info/question").asText(), r.at("/reward_model/ground_truth").asText()};
                case OPENRLHF -> new String[] {items.get(i).question(), r.get("label").asText()};
                case TRL -> new String[] {r.get("question").asText(), r.get("label").asText()};
                case SLIME -> new String[] {r.at("/metadata/question").asText(), r.get("label").asText()};
                default -> throw new AssertionError(f);
            });
        }
        return out;
    }

    /** One rollout per row: {@code response(question index)} under the row's label, as a reward input file. */
    private Path rollouts(List<String[]> rows, Function<Integer, String> response, String name) throws Exception {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            ObjectNode o = JSON.createObjectNode().put("question", rows.get(i)[0]).put("response", response.apply(i))
                    .put("label", rows.get(i)[1]);
            lines.add(o.toString());
        }
        return ExportFixtures.write(dir.resolve(name), lines.toArray(String[]::new));
    }

    private static List<Double> rewards(Path scored) throws Exception {
        return jsonl(scored).stream().map(r -> r.get("reward").asDouble()).toList();
    }

    @Test
    void everyRlFormatsLabelScoresAsTheEvaluationWould() throws Exception {
        Path data = copy(RAMDOCS, dir);
        List<QaItem> items = Datasets.load("ramdocs", data);
        for (ExportFormat f : List.of(ExportFormat.VERL, ExportFormat.VERL_JSONL, ExportFormat.OPENRLHF, ExportFormat.TRL,
                ExportFormat.SLIME)) {
            Path out = dir.resolve(f.cliName() + (f == ExportFormat.VERL ? ".parquet" : f == ExportFormat.VERL_JSONL
                    ? ".json" : ".jsonl"));
            TrainingDataExport.run(ExportSpec.of(f, "ramdocs", data, "march:solver", out));
            List<String[]> rows = questionsAndLabels(f, out, items);
            assertThat(rows).as(f.cliName()).hasSize(3);
            // a boxed gold answer is correct, a boxed known-wrong answer a hallucination (TruthRL's ternary reward)
            Path gold = rollouts(rows, i -> "<think>from the documents</think> \\boxed{" + items.get(i).goldTexts().getFirst()
                    + "}", f.cliName() + "-gold.jsonl");
            Path scored = dir.resolve(f.cliName() + "-scored.jsonl");
            RewardFile.score(gold, scored, Rewards.byName("truthrl-ternary"));
            assertThat(rewards(scored)).as(f.cliName()).containsExactly(1.0, 1.0, 1.0);
            Path wrong = rollouts(rows, i -> "\\boxed{10,000 people}", f.cliName() + "-wrong.jsonl");
            RewardFile.score(wrong, scored, Rewards.byName("truthrl-ternary"));
            assertThat(rewards(scored)).as(f.cliName()).containsExactly(-1.0, -1.0, -1.0);
            // RAMDocs' official metric: every gold answer and none of the wrong ones
            Path sets = rollouts(rows, i -> i == 0 ? "All Correct Answers: [\"3,559 people\", \"10,000 people\"]"
                    : "All Correct Answers: [\"" + items.get(i).goldTexts().getFirst() + "\"]", f.cliName() + "-sets.jsonl");
            RewardFile.score(sets, scored, Rewards.byName("strict-multi"));
            assertThat(rewards(scored)).as(f.cliName()).containsExactly(0.0, 1.0, 1.0);
        }
    }

    @Test
    void marchsCheckerReadsTheExportedDocumentsAndALabelWithoutThemIsRefused() throws Exception {
        Path data = copy(RAMDOCS, dir);
        Path out = dir.resolve("trl.jsonl");
        TrainingDataExport.run(ExportSpec.of(ExportFormat.TRL, "ramdocs", data, "march:solver", out).withLimit(1));
        List<String[]> rows = questionsAndLabels(ExportFormat.TRL, out, List.of());
        // Proposer: the number the response states; Checker: 3559 only when the census passage reached its prompt
        Rule proposer = Rule.of("You are a data annotation expert", m -> m.prompt().contains("10,000")
                ? "- Question: How many people lived in Broken Bow in 2010? [Answer: 10000]"
                : "- Question: How many people lived in Broken Bow in 2010? [Answer: 3559]");
        Rule checker = Rule.of("You are a data validation expert", m -> m.prompt().contains("there were 3,559 people")
                ? "1. Evidence: Document 1 gives the 2010 census. [Answer: 3559]"
                : "1. Evidence: nothing. [Answer: Cannot answer]");
        try (SimServer sim = SimServer.start(SimConfig.builder().rules(proposer, checker).build());
             OpenAiCompatibleBackend backend = OpenAiCompatibleBackend.builder().baseUrl(sim.baseUrl()).model("m").build();
             LlmClient client = LlmClient.builder(backend).cache(ResponseCache.NONE, CacheMode.OFF).build()) {
            var ztr = Rewards.byName("march-ztr", RewardSettings.defaults().withLlm(client));
            Path in = rollouts(List.of(rows.getFirst(), rows.getFirst()),
                    i -> i == 0 ? "Broken Bow had 3,559 people in 2010." : "Broken Bow had 10,000 people in 2010.", "m.jsonl");
            Path scored = dir.resolve("m-scored.jsonl");
            RewardFile.Summary s = RewardFile.score(in, scored, ztr);
            assertThat(s.fallbacks()).isZero();
            assertThat(rewards(scored)).containsExactly(0.0, -1.0);
            assertThat(jsonl(scored).getFirst().at("/details/verification").asText()).isEqualTo("passed");
        }
        Path bare = dir.resolve("bare.jsonl");
        TrainingDataExport.run(ExportSpec.of(ExportFormat.TRL, "ramdocs", data, "march:solver", bare).withLimit(1)
                .withLabelDocuments(false));
        Path in = rollouts(questionsAndLabels(ExportFormat.TRL, bare, List.of()), i -> "3,559 people", "bare-in.jsonl");
        try (LlmClient unused = LlmClient.builder(OpenAiCompatibleBackend.builder().baseUrl("http://127.0.0.1:9/v1")
                .model("m").build()).build()) {
            assertThatThrownBy(() -> RewardFile.score(in, dir.resolve("never.jsonl"),
                    Rewards.byName("march-ztr", RewardSettings.defaults().withLlm(unused))))
                    .isInstanceOf(BadInputException.class).hasMessageEndingWith(":1: MARCH's Checker answers from"
                            + " documents, and the label has no \"documents\"");
        }
        assertThat(Files.exists(dir.resolve("never.jsonl"))).isFalse();
    }
}
