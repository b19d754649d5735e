package dev.veracity.eval.recipe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.veracity.eval.report.RunDir;
import dev.veracity.method.MethodSpec;
import dev.veracity.method.OptionSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Recipe YAML read into typed records; every problem reported at once, one line each. */
class RecipesTest {

    /** A registry of one method, no-rag, with one integer option. */
    private static final Recipes RECIPES = new Recipes(name -> {
        if (!name.equals("no-rag")) {
            throw new IllegalArgumentException("unknown method '" + name + "'; known: no-rag");
        }
        return new MethodSpec("no-rag", "closed book", "p", "s", List.of(OptionSpec.integer("max-tokens", 512, "limit")));
    });

    private static final String GOOD = """
            name: demo
            title: "A table"
            paper: {file: 003_x, table: "Table 1", anchor: "Table 1 shows", layout: rows}
            split: {sample: 500, seed: 233, range: {hotpotqa: 7405}, note: "ReAct's selection"}
            models: {reader: GPT-4o-mini}
            sampling: "temperature 0"
            documents: dataset
            tolerance: 2.0
            columns:
              - {id: em, label: "HotpotQA EM", dataset: hotpotqa, metric: em}
              - {id: f1, label: "HotpotQA F1", dataset: hotpotqa, metric: f1}
              - {id: avg, label: "Average", average: [em, f1]}
            rows:
              - {id: standard, label: "Standard Prompting", model: GPT-4o-mini, method: no-rag, options: {max-tokens: 64}, paper: [28.4, "41.80", "34."]}
              - {id: other, label: "Other", model: X, not_run: "not a registered method", paper: [1.0, ~, 2.0]}
            """;

    @Test
    void readsTypedRecordsKeepingTheNumbersAsPrinted() {
        Recipe r = RECIPES.parse("demo", GOOD);
        assertThat(r.split().sampleFor("hotpotqa")).isEqualTo(new dev.veracity.eval.run.QuestionSample(500, 233, 7405));
        assertThat(r.split().sampleFor("musique").range()).isZero();
        assertThat(r.rows().getFirst().paper()).containsExactly("28.4", "41.80", "34.");
        assertThat(r.rows().getFirst().options()).containsEntry("max-tokens", "64");
        assertThat(r.rows().get(1).paper()).containsExactly("1.0", null, "2.0");
        assertThat(r.columns().getFirst().scale()).isEqualTo(100.0);
        assertThat(r.documentsFor("hotpotqa")).isEqualTo("dataset");
        assertThat(r.runnableRows()).extracting(Recipe.Row::id).containsExactly("standard");
    }

    @Test
    void reportsEveryProblemOnItsOwnLine() {
        String bad = GOOD.replace("dataset: hotpotqa, metric: em", "dataset: hotpotqb, metric: em")
                .replace("metric: f1", "metric: f2")
                .replace("method: no-rag, options: {max-tokens: 64}", "method: no-rug")
                .replace("paper: [1.0, ~, 2.0]", "paper: [1.0, 2.0]")
                .replace("sampling: \"temperature 0\"\n", "")
                .replace("tolerance: 2.0", "tolerance: 2.0\ncolour: red");
        assertThatThrownBy(() -> RECIPES.parse("demo", bad)).isInstanceOfSatisfying(Recipes.RecipeException.class, e -> {
            assertThat(e.getMessage().lines()).allMatch(l -> l.startsWith("recipe demo: "));
            assertThat(e.problems()).anyMatch(p -> p.startsWith("columns[0].dataset: unknown dataset \"hotpotqb\""))
                    .anyMatch(p -> p.startsWith("columns[1].metric: unknown metric 'f2'"))
                    .anyMatch(p -> p.equals("rows[0].method: unknown method 'no-rug'; known: no-rag"))
                    .anyMatch(p -> p.equals("rows[1].paper: 2 values for 3 columns"))
                    .anyMatch(p -> p.equals("sampling: missing field"))
                    .anyMatch(p -> p.startsWith("colour: unknown field"));
            assertThat(e.problems()).hasSize(6);
        });
        assertThatThrownBy(() -> RECIPES.parse("demo", GOOD.replace("max-tokens: 64", "max-tokens: lots")))
                .hasMessageStartingWith("recipe demo: rows[0].options: ").hasMessageContaining("max-tokens");
        assertThatThrownBy(() -> RECIPES.parse("demo", "rows: [oops")).hasMessageStartingWith("recipe demo: not valid YAML at line");
        assertThatThrownBy(() -> RECIPES.parse("other", GOOD)).hasMessageContaining("name: is 'demo' but the file is other.yaml");
    }

    @Test
    void marksEachCellWithinOrOutsideTheToleranceOnlyOnTheWholeSplit(@TempDir Path tmp) throws Exception {
        Recipe r = RECIPES.parse("demo", GOOD);
        // a run folder with only its summary (RunDir holds no result lines of its own to construct it from)
        Path dir = Files.createDirectories(tmp.resolve("standard"));
        Files.writeString(dir.resolve("summary.json"), "{\"method\": \"no-rag\", \"metrics\": {\"em\": 0.295, \"f1\": 0.39}}");
        RunDir run = RunDir.load(dir);
        RecipeTable full = RecipeTable.of(r, (row, d) -> row.equals("standard") ? Optional.of(run) : Optional.empty(), true,
                "gpt-4o-mini", null);
        assertThat(full.cells()).extracting(RecipeTable.Cell::status).containsExactly(
                "within ±2.0", "OUTSIDE ±2.0", "within ±2.0", // 29.5 vs 28.4; 39.0 vs 41.80; mean 34.25 vs 34.x
                "not run: not a registered method", "not run: not a registered method", "not run: not a registered method");
        assertThat(full.text()).contains("2 cells within the tolerance, 1 outside, 3 not run").doesNotContain("NOT COMPARABLE")
                .containsPattern("standard +GPT-4o-mini +HotpotQA EM +28.4 +29.50 +\\+1.10 +within ±2.0")
                .containsPattern("Average +34\\.\\? +34\\.25 +~-0\\.25");
        RecipeTable limited = RecipeTable.of(r, (row, d) -> Optional.of(run), false, "gpt-4o-mini", null);
        assertThat(limited.text()).contains("NOT COMPARABLE: these runs used --limit").doesNotContain("within ±")
                .doesNotContain("OUTSIDE ±");
        assertThat(limited.cells().subList(0, 3)).allMatch(c -> c.status().equals("not comparable (--limit)"));
    }

    @Test
    void aRunOfAnotherDataFileOrWithFailedQuestionsIsNotComparableInItsCellsAndTheHeading(@TempDir Path tmp)
            throws Exception {
        Recipe r = RECIPES.parse("demo", GOOD);
        String official = dev.veracity.eval.data.Datasets.spec("hotpotqa").downloads().getFirst().sha256();
        assertThat(official).isNotNull(); // ReAct's hotpot_dev_v1_simplified.json, pinned in the registry
        java.util.function.BiFunction<String, String, RunDir> run = (sha, failed) -> {
            try {
                Path dir = Files.createDirectories(tmp.resolve(sha.substring(0, 4) + failed));
                Files.writeString(dir.resolve("summary.json"), "{\"method\": \"no-rag\", \"data\": \"/d/hotpot-mine.json\","
                        + " \"metrics\": {\"em\": 0.295, \"f1\": 0.39}, \"failed\": " + failed + ","
                        + " \"config\": {\"data_sha256\": \"" + sha + "\"}}");
                return RunDir.load(dir);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        };
        // the registry's file, every question answered: checked against the paper
        RecipeTable same = RecipeTable.of(r, (row, d) -> Optional.of(run.apply(official, "0")), true, "gpt-4o-mini", null);
        assertThat(same.cells().subList(0, 3)).extracting(RecipeTable.Cell::status)
                .containsExactly("within ±2.0", "OUTSIDE ±2.0", "within ±2.0");
        // another file (a sample of the split, an edited copy): as with --limit, no cell is checked
        RecipeTable other = RecipeTable.of(r, (row, d) -> Optional.of(run.apply("0".repeat(64), "0")), true,
                "gpt-4o-mini", null);
        assertThat(other.cells().subList(0, 3)).extracting(RecipeTable.Cell::status)
                .containsOnly("not comparable (data file)");
        assertThat(other.comparable()).isFalse();
        assertThat(other.text()).contains("NOT COMPARABLE on hotpotqa: row standard's run read /d/hotpot-mine.json, whose"
                        + " SHA-256 is not the registry's for hotpot_dev_v1_simplified.json")
                .doesNotContain("within ±").doesNotContain("OUTSIDE ±").contains("0 cells within the tolerance, 0 outside,"
                        + " 3 not comparable, 3 not run");
        // questions that failed are left out of the scores: fewer questions than the split
        RecipeTable failed = RecipeTable.of(r, (row, d) -> Optional.of(run.apply(official, "4")), true, "gpt-4o-mini", null);
        assertThat(failed.cells().subList(0, 3)).extracting(RecipeTable.Cell::status).containsOnly("not comparable (4 failed)");
        assertThat(failed.text()).contains("NOT COMPARABLE on hotpotqa: row standard's run has 4 failed question(s)");
    }

    /** A run folder holding only its summary, under {@code tmp/name}. */
    private static RunDir summaryOnly(Path tmp, String name, String summary) {
        try {
            Path dir = Files.createDirectories(tmp.resolve(name));
            Files.writeString(dir.resolve("summary.json"), summary);
            return RunDir.load(dir);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** A finished run's summary: em 0.295 (28.4 +- 2 in the paper) over {@code n} of {@code questions}, and more. */
    private static String summary(String more) {
        String sha = dev.veracity.eval.data.Datasets.spec("hotpotqa").downloads().getFirst().sha256();
        return "{\"method\": \"no-rag\", \"data\": \"/d/hotpot.json\", \"metrics\": {\"em\": 0.295}, \"failed\": 0,"
                + " \"config\": {\"data_sha256\": \"" + sha + "\", \"llm_base_url\": \"http://h:8000/v1\"}" + more + "}";
    }

    private static final String SIX_ROWS = """
            name: demo
            title: "A table"
            paper: {file: 003_x, table: "Table 1", anchor: "Table 1 shows", layout: rows}
            split: {sample: 500, seed: 233, range: {hotpotqa: 7405}, note: "ReAct's selection"}
            models: {reader: GPT-4o-mini}
            sampling: "temperature 0"
            documents: dataset
            tolerance: 2.0
            columns:
              - {id: em, label: "HotpotQA EM", dataset: hotpotqa, metric: em}
            rows:
              - {id: whole, label: "A", model: M, method: no-rag, paper: [28.4]}
              - {id: limited, label: "B", model: M, method: no-rag, paper: [28.4]}
              - {id: simulated, label: "C", model: M, method: no-rag, paper: [28.4]}
              - {id: stopped, label: "D", model: M, method: no-rag, paper: [28.4]}
              - {id: short, label: "E", model: M, method: no-rag, paper: [28.4]}
              - {id: old, label: "F", model: M, method: no-rag, paper: [28.4]}
            """;

    @Test
    void eachRunIsJudgedFromItsOwnRecordWhicheverReproduceMadeIt(@TempDir Path tmp) {
        Recipe r = RECIPES.parse("demo", SIX_ROWS);
        java.util.Map<String, RunDir> runs = new java.util.LinkedHashMap<>();
        runs.put("whole", summaryOnly(tmp, "whole", summary(", \"n\": 500, \"questions\": 500")));
        // an earlier reproduce's --limit 3 and --simulator runs, shown by a later reproduce without either
        runs.put("limited", summaryOnly(tmp, "limited", summary(", \"n\": 3, \"questions\": 3, \"limit\": 3")));
        runs.put("simulated", summaryOnly(tmp, "simulated", summary(", \"n\": 500, \"questions\": 500")
                .replace("http://h:8000/v1", RecipeTable.SIMULATOR_SERVER)));
        // stopped after 200 of its 500 questions (the server went away), and a file of 300 questions
        runs.put("stopped", summaryOnly(tmp, "stopped", summary(", \"n\": 200, \"questions\": 500,"
                + " \"stopped\": \"server unreachable\"")));
        runs.put("short", summaryOnly(tmp, "short", summary(", \"n\": 300, \"questions\": 300")));
        // written before summaries recorded their slice: judged by the calling command, as before
        runs.put("old", summaryOnly(tmp, "old", summary(", \"n\": 500")));

        RecipeTable t = RecipeTable.of(r, (row, d) -> Optional.ofNullable(runs.get(row)), null, java.util.Map.of(),
                "gpt-4o-mini", null);
        assertThat(t.cells()).extracting(RecipeTable.Cell::status).containsExactly("within ±2.0",
                "not comparable (--limit)", "not comparable (simulator)", "not comparable (partial)",
                "not comparable (fewer questions)", "within ±2.0");
        assertThat(t.text()).doesNotContain("NOT COMPARABLE: these runs")
                .contains("NOT COMPARABLE on hotpotqa: row limited's run used --limit, fewer questions than the paper's split")
                .contains("NOT COMPARABLE on hotpotqa: row simulated's run ran against the built-in simulator")
                .contains("NOT COMPARABLE on hotpotqa: row stopped's run answered 200 of its 500 questions (stopped: server"
                        + " unreachable); run it again to finish it")
                .contains("NOT COMPARABLE on hotpotqa: row short's run answered the 300 questions /d/hotpot.json gave it,"
                        + " the split takes 500")
                .contains("2 cells within the tolerance, 0 outside, 4 not comparable, 0 not run");
        // this command used --limit: the old run, which does not say what it did, is taken to have used it too
        RecipeTable limitedNow = RecipeTable.of(r, (row, d) -> Optional.ofNullable(runs.get(row)), RecipeTable.LIMIT,
                java.util.Map.of(), "gpt-4o-mini", null);
        assertThat(limitedNow.cells()).extracting(RecipeTable.Cell::status).first().isEqualTo("within ±2.0");
        assertThat(limitedNow.cells().getLast().status()).isEqualTo("not comparable (--limit)");
        assertThat(limitedNow.text()).contains("NOT COMPARABLE on hotpotqa: the runs of rows limited, old used --limit");
        // every run used --limit: one line says so, as the command that made them all
        RecipeTable allLimited = RecipeTable.of(r, (row, d) -> Optional.of(runs.get("limited")), null, java.util.Map.of(),
                "gpt-4o-mini", null);
        assertThat(allLimited.text()).contains("NOT COMPARABLE: these runs used --limit")
                .doesNotContain("NOT COMPARABLE on hotpotqa").contains("not comparable: 6 cells computed on fewer questions");
    }

    private static final String WHOLE_FILES = """
            name: demo
            title: "A table"
            paper: {file: 004_x, table: "Table 1", anchor: "Table 1 shows", layout: rows}
            split: {all: true, note: "every question"}
            models: {reader: GPT-4o-mini}
            sampling: "greedy"
            documents: dataset
            tolerance: 3.0
            columns:
              - {id: crag, label: "CRAG EM", dataset: crag, metric: em}
              - {id: faitheval, label: "FaithEval", dataset: faitheval, metric: strict-multi}
            rows:
              - {id: ten, label: "A", model: M, method: no-rag, paper: [20.0, 30.0]}
              - {id: all, label: "B", model: M, method: no-rag, paper: [20.0, 30.0]}
            """;

    @Test
    void aWholeFileSplitWithoutAChecksumIsCheckedByTheRegistrysQuestionCountElseSaidToBeUnverified(@TempDir Path tmp) {
        // the registry counts FaithEval's inconsistent subset (MADAM-RAG, Section 5.1: 1,000); CRAG's file it cannot check
        assertThat(dev.veracity.eval.data.Datasets.spec("faitheval").downloads().getFirst().questions()).isEqualTo(1000);
        assertThat(dev.veracity.eval.data.Datasets.spec("crag").downloads().getFirst().questions()).isNull();
        Recipe r = RECIPES.parse("demo", WHOLE_FILES);
        java.util.function.BiFunction<String, Integer, RunDir> run = (d, n) -> summaryOnly(tmp, d + n, "{\"method\":"
                + " \"no-rag\", \"data\": \"/d/" + d + "-" + n + ".json\", \"metrics\": {\"em\": 0.2,"
                + " \"strict-multi\": 0.3}, \"failed\": 0, \"n\": " + n + ", \"questions\": " + n
                + ", \"config\": {\"data_sha256\": \"" + "0".repeat(64) + "\"}}");
        java.util.Map<String, RunDir> runs = java.util.Map.of("ten\u0000crag", run.apply("crag", 10),
                "ten\u0000faitheval", run.apply("faitheval", 10), "all\u0000crag", run.apply("crag", 10),
                "all\u0000faitheval", run.apply("faitheval", 1000));
        RecipeTable t = RecipeTable.of(r, (row, d) -> Optional.ofNullable(runs.get(row + "\u0000" + d)), null,
                java.util.Map.of(), "gpt-4o-mini", null);
        assertThat(t.cells()).extracting(RecipeTable.Cell::status).containsExactly("within ±3.0",
                "not comparable (data file)", "within ±3.0", "within ±3.0");
        assertThat(t.text()).contains("NOT COMPARABLE on faitheval: row ten's run read /d/faitheval-10.json, 10 questions,"
                        + " and the registry's faitheval_inconsistent.json has 1000")
                .contains("UNVERIFIED SPLIT on crag: the registry has no checksum or question count for"
                        + " crag_task_1_and_2_dev_v4.jsonl.bz2, so nothing tells whether /d/crag-10.json is the paper's split;"
                        + " its cells are graded as if it were")
                .doesNotContain("UNVERIFIED SPLIT on faitheval");
        assertThat(RecipeTable.unverified(r, "crag", "x.jsonl")).isPresent();
        assertThat(RecipeTable.unverified(r, "faitheval", "x.json")).isEmpty();
    }

    @Test
    void aRecipeThatPinsTheQuestionsAtOnceSaysSoAndJudgesRunsMadeAtAnotherNumber(@TempDir Path tmp) {
        String pinned = GOOD.replace("tolerance: 2.0", "tolerance: 2.0\nquestions_at_once: 1");
        Recipe r = RECIPES.parse("demo", pinned);
        assertThat(r.questionsAtOnce()).isEqualTo(1);
        assertThat(RECIPES.parse("demo", GOOD).questionsAtOnce()).isNull();
        assertThatThrownBy(() -> RECIPES.parse("demo", GOOD.replace("tolerance: 2.0", "tolerance: 2.0\nquestions_at_once: 0")))
                .hasMessageContaining("questions_at_once: must be a whole number >= 1, was 0");
        RunDir one = summaryOnly(tmp, "one", summary(", \"n\": 500, \"questions\": 500, \"questions_at_once\": 1")
                .replace("\"em\": 0.295", "\"em\": 0.295, \"f1\": 0.39"));
        RunDir sixteen = summaryOnly(tmp, "sixteen", summary(", \"n\": 500, \"questions\": 500, \"questions_at_once\": 16")
                .replace("\"em\": 0.295", "\"em\": 0.295, \"f1\": 0.39"));
        assertThat(RecipeTable.of(r, (row, d) -> Optional.of(one), null, java.util.Map.of(), "m", null).cells().getFirst()
                .status()).isEqualTo("within ±2.0");
        RecipeTable t = RecipeTable.of(r, (row, d) -> Optional.of(sixteen), null, java.util.Map.of(), "m", null);
        assertThat(t.cells().getFirst().status()).isEqualTo("not comparable (16 at once)");
        assertThat(t.text()).contains("Questions at once: 1 per run").contains("NOT COMPARABLE on hotpotqa: row standard's"
                + " run answered 16 questions at once, the recipe's times take 1");
    }

    @Test
    void theIndexListsEveryBundledRecipeFile() throws Exception {
        try (var files = java.nio.file.Files.list(java.nio.file.Path.of("src/main/resources/recipes"))) {
            assertThat(files.map(f -> f.getFileName().toString()).filter(f -> f.endsWith(".yaml"))
                    .map(f -> f.substring(0, f.length() - 5)).sorted().toList())
                    .isEqualTo(Recipes.names().stream().sorted().toList());
        }
        assertThatThrownBy(() -> RECIPES.byName("court-table9")).hasMessageStartingWith("unknown recipe 'court-table9'; did you mean 'court-table1' or 'court-table2' or"
                + " 'court-table4'? known: ");
    }

    @Test
    void aTruncatedPaperValueStandsForItsInterval() {
        PaperValue v = PaperValue.of("16.");
        assertThat(v.truncated()).isTrue();
        assertThat(v.center()).isEqualTo(16.5);
        assertThat(PaperValue.of("-0.").center()).isEqualTo(-0.5);
        assertThat(PaperValue.of("12.80").center()).isEqualTo(12.8);
        assertThat(v.display()).isEqualTo("16.?");
    }
}
