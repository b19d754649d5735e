package dev.veracity.eval.recipe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.eval.results.TestLines;
import dev.veracity.eval.report.RunDir;
import dev.veracity.method.MethodSpec;
import dev.veracity.method.OptionSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A recipe's {@code subset}: every row scored only on the questions another row's run picks (Reasoning Court's
 * Table 2: the questions where its two agents disagree), checked when read, and the cells computed over exactly
 * those questions.
 */
class RecipeSubsetTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A registry of no-rag and court, neither with options. */
    private static final Recipes RECIPES = new Recipes(name -> {
        if (!List.of("no-rag", "court").contains(name)) {
            throw new IllegalArgumentException("unknown method '" + name + "'; known: no-rag, court");
        }
        return new MethodSpec(name, name, "p", "s", List.<OptionSpec>of());
    });

    private static final String RECIPE = """
            name: demo
            title: "The judge on the questions its agents disagree on"
            paper: {file: 003_x, table: "Table 2", anchor: "Table 2 shows", layout: rows}
            split: {sample: 500, seed: 233, range: {hotpotqa: 7405}, note: "Table 1's questions"}
            subset: {row: judge, where: agents-disagree}
            models: {reader: GPT-4o-mini}
            sampling: "temperature 0"
            documents: pages
            tolerance: 3.0
            columns:
              - {id: em, label: "HotpotQA EM", dataset: hotpotqa, metric: em}
              - {id: f1, label: "HotpotQA F1", dataset: hotpotqa, metric: f1}
              - {id: avg, label: "Average", average: [em, f1]}
            rows:
              - {id: standard, label: "Standard Prompting", model: GPT-4o-mini, method: no-rag, paper: [18.5, 31.6, 25.0]}
              - {id: partial, label: "Partial", model: GPT-4o-mini, method: no-rag, paper: [50.0, 50.0, 50.0]}
              - {id: judge, label: "Judge", model: GPT-4o-mini, method: court, paper: [100.0, 100.0, 100.0]}
              - {id: other, label: "Other", model: X, not_run: "not a registered method", paper: [1.0, 1.0, 1.0]}
            """;

    @TempDir
    Path dir;

    private static ObjectNode line(String id, String prediction, String... agents) {
        ObjectNode l = JSON.createObjectNode();
        l.put("id", id);
        l.put("prediction", prediction);
        l.putArray("gold").add("Paris");
        if (agents.length > 0) {
            ArrayNode c = l.putArray("candidates");
            for (int i = 0; i < agents.length; i++) {
                c.addObject().put("agent", "agent-" + (i + 1)).put("answer", agents[i]);
            }
        }
        return l;
    }

    @Test
    void agentsDisagreeWhenTheirNormalisedAnswersDifferOrOneIsEmpty() {
        SubsetRule rule = SubsetRule.byId("agents-disagree").orElseThrow();
        assertThat(rule.test(TestLines.line(line("q", "", "The Paris", "paris")))).as("identical after normalisation").isFalse();
        assertThat(rule.test(TestLines.line(line("q", "", "Paris.", "paris", "PARIS")))).as("three identical").isFalse();
        assertThat(rule.test(TestLines.line(line("q", "", "SUPPORTS", "supports")))).as("a FEVER label twice").isFalse();
        assertThat(rule.test(TestLines.line(line("q", "", "Paris", "London")))).as("different").isTrue();
        assertThat(rule.test(TestLines.line(line("q", "", "SUPPORTS", "REFUTES")))).as("different labels").isTrue();
        assertThat(rule.test(TestLines.line(line("q", "", "Paris", "Paris", "Lyon")))).as("one of three differs").isTrue();
        assertThat(rule.test(TestLines.line(line("q", "", "", "Paris")))).as("one empty").isTrue();
        assertThat(rule.test(TestLines.line(line("q", "", "Paris", "the")))).as("one empty after normalisation").isTrue();
        assertThat(rule.test(TestLines.line(line("q", "", "", "")))).as("both empty").isTrue();
        assertThat(rule.test(TestLines.line(line("q", "", "Paris")))).as("one candidate").isFalse();
        assertThat(rule.test(TestLines.line(line("q", "", "")))).as("one empty candidate").isFalse();
        assertThat(rule.test(TestLines.line(line("q", "Paris")))).as("no candidates").isFalse();
        assertThat(SubsetRule.ids()).containsExactly("agents-disagree");
    }

    @Test
    void readsTheSubsetAndRefusesAnUnknownRowOrRuleOnOneLineEach() {
        Recipe r = RECIPES.parse("demo", RECIPE);
        assertThat(r.subset()).isEqualTo(new Recipe.Subset("judge", "agents-disagree"));
        assertThat(r.subset().rule()).isEqualTo(SubsetRule.AGENTS_DISAGREE);
        assertThat(RECIPES.parse("demo", RECIPE.replace("subset: {row: judge, where: agents-disagree}\n", "")).subset()).isNull();

        assertThatThrownBy(() -> RECIPES.parse("demo", RECIPE.replace("row: judge,", "row: jduge,")))
                .isInstanceOfSatisfying(Recipes.RecipeException.class, e -> assertThat(e.getMessage()).isEqualTo(
                        "recipe demo: subset.row: no row 'jduge' in this recipe; rows: standard, partial, judge, other"));
        assertThatThrownBy(() -> RECIPES.parse("demo", RECIPE.replace("where: agents-disagree", "where: agents-agree")))
                .hasMessage("recipe demo: subset.where: unknown rule 'agents-agree'; known: agents-disagree");
        assertThatThrownBy(() -> RECIPES.parse("demo", RECIPE.replace("row: judge,", "row: other,")))
                .hasMessage("recipe demo: subset.row: row 'other' is not run here, so it cannot pick the questions");
        assertThatThrownBy(() -> RECIPES.parse("demo", RECIPE.replace("where: agents-disagree}", "where: agents-disagree, n: 3}")))
                .hasMessageStartingWith("recipe demo: subset.n: unknown field (known: row, where)");
        assertThatThrownBy(() -> RECIPES.parse("demo", RECIPE.replace("{row: judge, where: agents-disagree}", "agents-disagree")))
                .hasMessage("recipe demo: subset: must be a map {row: ROW, where: RULE}");
        assertThatThrownBy(() -> RECIPES.parse("demo", RECIPE.replace("{row: judge, where: agents-disagree}", "{row: judge}")))
                .hasMessage("recipe demo: subset.where: missing field");
        // a summary figure cannot be re-scored over part of a run
        assertThatThrownBy(() -> RECIPES.parse("demo", RECIPE.replace("dataset: hotpotqa, metric: f1", "dataset: hotpotqa, metric: calls_per_question")))
                .hasMessageStartingWith("recipe demo: columns[1].metric: 'calls_per_question' is a run's summary figure");
    }

    private RunDir run(String name, double em, List<ObjectNode> lines) throws IOException {
        Path d = Files.createDirectories(dir.resolve(name));
        // the summary's numbers are the whole run's: a cell over the subset must not read them
        Files.writeString(d.resolve("summary.json"), "{\"method\": \"x\", \"n\": " + lines.size()
                + ", \"metrics\": {\"em\": " + em + ", \"f1\": " + em + "}}");
        List<String> text = new ArrayList<>();
        for (ObjectNode l : lines) {
            text.add(JSON.writeValueAsString(l));
        }
        Files.write(d.resolve("results.jsonl"), text);
        return RunDir.load(d);
    }

    @Test
    void everyRowIsScoredOverExactlyTheQuestionsTheJudgeRowsAgentsDisagreeOn() throws IOException {
        Recipe recipe = RECIPES.parse("demo", RECIPE);
        // the judge's run: q2, q3 and q4 are in the subset, q1, q5 and q6 are not; the judge is right exactly on the subset
        RunDir judge = run("judge", 0.5, List.of(
                line("q1", "London", "London", "london"),
                line("q2", "Paris", "Paris", "Lyon"),
                line("q3", "Paris", "", "Lyon"),
                line("q4", "Paris", "", ""),
                line("q5", "London", "London"),
                line("q6", "London", "The Paris", "paris")));
        // standard prompting: right on every question outside the subset, wrong on every one in it
        RunDir standard = run("standard", 0.5, List.of(
                line("q1", "Paris"), line("q2", "Rome"), line("q3", "Rome"), line("q4", "Rome"), line("q5", "Paris"),
                line("q6", "Paris")));
        // a run without q4: right on q2, wrong on q3
        RunDir partial = run("partial", 0.9, List.of(
                line("q1", "Paris"), line("q2", "Paris"), line("q3", "Rome"), line("q5", "Paris"), line("q6", "Paris")));
        Map<String, RunDir> runs = Map.of("judge", judge, "standard", standard, "partial", partial);

        RecipeTable t = RecipeTable.of(recipe, (row, d) -> Optional.ofNullable(runs.get(row)), true, "gpt-4o-mini", null);
        assertThat(t.subset("hotpotqa")).hasValueSatisfying(s -> {
            assertThat(s.ids()).containsExactly("q2", "q3", "q4");
            assertThat(s.of()).isEqualTo(6);
        });
        assertThat(t.cells()).extracting(RecipeTable.Cell::ours).containsExactly(
                0.0, 0.0, 0.0,
                50.0, 50.0, 50.0,
                100.0, 100.0, 100.0,
                null, null, null);
        assertThat(t.cells().get(0).status()).isEqualTo("OUTSIDE ±3.0");
        assertThat(t.cells().get(3).status()).isEqualTo("within ±3.0 (over 2 of the subset's 3 questions)");
        assertThat(t.cells().get(6).status()).isEqualTo("within ±3.0");
        assertThat(t.text()).contains("SUBSET: every cell is over the questions where row judge's run has agents-disagree"
                        + " (two or more agents whose answers differ after normalisation, or one of them empty): hotpotqa 3 of 6 questions")
                .containsPattern("standard +GPT-4o-mini +HotpotQA EM +18.5 +0.00 +-18.50 +OUTSIDE ±3.0")
                .contains("6 cells within the tolerance, 3 outside, 3 not run");
    }

    @Test
    void withoutTheSubsetRowsRunNoCellIsComputed() throws IOException {
        Recipe recipe = RECIPES.parse("demo", RECIPE);
        RunDir standard = run("standard", 0.5, List.of(line("q1", "Paris"), line("q2", "Rome")));
        RecipeTable t = RecipeTable.of(recipe, (row, d) -> row.equals("standard") ? Optional.of(standard) : Optional.empty(),
                false, "gpt-4o-mini", null);
        assertThat(t.subset("hotpotqa")).isEmpty();
        assertThat(t.cells()).extracting(RecipeTable.Cell::ours).containsOnlyNulls();
        assertThat(t.cells().get(0).status()).isEqualTo("not run: no run of the subset's row judge on hotpotqa");
        assertThat(t.text()).contains("hotpotqa not run (no run of judge)").contains("0 cells computed on fewer questions"
                + " than the paper's, 12 not run");

        // the subset row ran but its agents always agreed: an empty subset, not a score of 0
        RunDir agreed = run("agreed", 0.5, List.of(line("q1", "Paris", "Paris", "paris")));
        RecipeTable empty = RecipeTable.of(recipe, (row, d) -> Optional.of(row.equals("judge") ? agreed : standard),
                false, "gpt-4o-mini", null);
        assertThat(empty.cells()).extracting(RecipeTable.Cell::ours).containsOnlyNulls();
        assertThat(empty.cells().get(0).status()).isEqualTo("no result: the subset is empty");
        assertThat(empty.text()).contains("hotpotqa 0 of 1 questions");
    }

    @Test
    void aRecipeWithoutASubsetStillReadsTheWholeRunsSummary() throws IOException {
        Recipe recipe = RECIPES.parse("demo", RECIPE.replace("subset: {row: judge, where: agents-disagree}\n", ""));
        RunDir standard = run("standard", 0.5, List.of(line("q1", "Paris"), line("q2", "Rome")));
        RecipeTable t = RecipeTable.of(recipe, (row, d) -> row.equals("standard") ? Optional.of(standard) : Optional.empty(),
                true, "gpt-4o-mini", null);
        assertThat(t.cells().get(0).ours()).isEqualTo(50.0);
        assertThat(t.text()).doesNotContain("SUBSET");
    }
}
