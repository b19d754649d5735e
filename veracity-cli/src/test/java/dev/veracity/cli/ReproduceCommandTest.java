package dev.veracity.cli;

import static dev.veracity.cli.CliRun.runWithStderrInOut;
import static org.assertj.core.api.Assertions.assertThat;

import dev.veracity.cli.CliRun.Result;
import dev.veracity.eval.recipe.Recipe;
import dev.veracity.eval.recipe.Recipes;
import dev.veracity.methods.Methods;
import dev.veracity.testing.Shared;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * CI's plumbing run of every recipe: {@code reproduce NAME --simulator --limit 5} against the simulator's built-in
 * reader, one row per distinct method of the recipe, on every dataset the recipe names (the eval fixtures in the
 * datasets' release formats and the samples of ../shared/data), with a small index and page store built from a
 * HotpotQA fixture. It checks that each run goes through eval's run folders, that the table prints a number for
 * every run cell, and that the output says "not comparable" and "simulator". It measures nothing about any model.
 */
class ReproduceCommandTest {

    @TempDir
    static Path dir;

    private static final Path FIXTURES = Path.of("../veracity-eval/src/test/resources/dev/veracity/eval/data");
    private static Path index;
    private static Path pages;

    @BeforeAll
    static void indexAndPages() {
        Path hotpot = FIXTURES.resolve("hotpot_dev_distractor_v1.json");
        index = dir.resolve("index");
        Result i = runWithStderrInOut("index", "--corpus", hotpot.toString(), "--format", "dataset", "--dataset", "hotpotqa",
                "--out", index.toString());
        assertThat(i.code()).as(i.err()).isZero();
        pages = dir.resolve("pages");
        Result p = runWithStderrInOut("index", "--pages", "--corpus", hotpot.toString(), "--format", "dataset", "--dataset",
                "hotpotqa", "--out", pages.toString());
        assertThat(p.code()).as(p.err()).isZero();
    }

    /** A file per dataset: the shared samples where they are the official files, else the eval fixtures. */
    static Map<String, Path> files(Recipe r) {
        Map<String, Path> fixtures = new LinkedHashMap<>();
        fixtures.put("musique", FIXTURES.resolve("musique_full_v1.0_dev.jsonl"));
        fixtures.put("2wikimultihopqa", FIXTURES.resolve("2wikimultihopqa_dev.json"));
        fixtures.put("crag", FIXTURES.resolve("crag_small.jsonl"));
        fixtures.put("popqa", FIXTURES.resolve("popQA.tsv"));
        fixtures.put("triviaqa", FIXTURES.resolve("triviaqa_wikipedia-dev.json"));
        fixtures.put("faitheval", FIXTURES.resolve("faitheval_inconsistent.json"));
        fixtures.put("ambigdocs", FIXTURES.resolve("ambigdocs_dev.json"));
        if (r.files().containsKey("hotpotqa")) {
            fixtures.put("hotpotqa", FIXTURES.resolve("hotpot_dev_distractor_v1.json"));
        }
        Map<String, String> shared = Map.of("hotpotqa", "hotpotqa/hotpot_dev_v1_simplified.json",
                "nq-open", "nq-open/NQ-open.dev.jsonl", "fever", "fever/paper_dev.jsonl",
                "ramdocs", "ramdocs/RAMDocs_test.jsonl");
        Map<String, Path> out = new LinkedHashMap<>();
        for (String d : r.datasets()) {
            assertThat(fixtures.containsKey(d) || shared.containsKey(d)).as("a test file for %s's dataset %s", r.name(), d)
                    .isTrue();
            out.put(d, fixtures.containsKey(d) ? fixtures.get(d) : Shared.data(shared.get(d)));
        }
        return out;
    }

    /** The first row of each distinct method and options: every method of the recipe, each once. */
    static List<Recipe.Row> rowsToRun(Recipe r) {
        Map<String, Recipe.Row> first = new LinkedHashMap<>();
        r.runnableRows().forEach(row -> first.putIfAbsent(row.method() + row.options(), row));
        return List.copyOf(first.values());
    }

    @TestFactory
    Stream<DynamicTest> everyRecipeRunsWithLimitFiveAgainstTheSimulator() {
        return new Recipes(Methods::spec).all().stream().map(r -> DynamicTest.dynamicTest(r.name(), () -> {
            Map<String, Path> files = files(r);
            List<Recipe.Row> rows = rowsToRun(r);
            List<String> args = new ArrayList<>(List.of("reproduce", r.name(), "--simulator", "--limit", "5",
                    "--out", dir.resolve("runs").toString(), "--cache-file", dir.resolve("cache.db").toString(),
                    "--index", index.toString(), "--pages", pages.toString(), "--k", "3",
                    "--rows", String.join(",", rows.stream().map(Recipe.Row::id).toList())));
            files.forEach((d, f) -> args.addAll(List.of("--data", d + "=" + f)));
            long t0 = System.nanoTime();
            Result res = runWithStderrInOut(args.toArray(String[]::new));
            assertThat(res.code()).as(res.out() + res.err()).isZero();
            Map<String, Integer> subsets = r.subset() == null ? Map.of() : checkSubset(r, rows, res.out());
            assertThat(res.out()).contains("Reproduction " + r.name() + ": ")
                    .contains("NOT COMPARABLE: these runs used --limit")
                    .contains("SIMULATOR: the built-in extractive reader answered")
                    .doesNotContain("within ±").doesNotContain("OUTSIDE ±");
            for (Recipe.Row row : rows) {
                for (String d : r.datasets()) {
                    Path run = dir.resolve("runs").resolve(r.name()).resolve(row.id()).resolve(d);
                    assertThat(run.resolve("summary.json")).as(run.toString()).isRegularFile();
                    assertThat(Files.readAllLines(run.resolve("results.jsonl"))).hasSizeBetween(1, 5);
                }
                // every cell of a run row shows our number, except a column over a part of the run the fixture lacks
                // (a subset the simulator's agents left empty included)
                for (Recipe.Column c : r.columns()) {
                    if (c.notRun() == null && c.where().isEmpty() && (c.dataset() == null || subsets.getOrDefault(c.dataset(), 1) > 0)) {
                        assertThat(res.out()).containsPattern("(?m)^" + java.util.regex.Pattern.quote(row.id()) + " .*"
                                + java.util.regex.Pattern.quote(c.label()) + " +\\S+ +-?\\d+\\.\\d\\d .*not comparable \\(--limit\\)$");
                    } else if (c.notRun() == null && c.dataset() != null && subsets.getOrDefault(c.dataset(), 1) == 0) {
                        assertThat(res.out()).containsPattern("(?m)^" + java.util.regex.Pattern.quote(row.id()) + " .*"
                                + java.util.regex.Pattern.quote(c.label()) + " .* - +- +no result: the subset is empty$");
                    }
                }
            }
            if (r.questionsAtOnce() != null) {
                // a recipe whose times per question depend on it runs each row at its questions at once
                var json = new com.fasterxml.jackson.databind.ObjectMapper();
                for (Recipe.Row row : rows) {
                    for (String d : r.datasets()) {
                        Path summary = dir.resolve("runs").resolve(r.name()).resolve(row.id()).resolve(d).resolve("summary.json");
                        assertThat(json.readTree(summary.toFile()).path("questions_at_once").asInt()).as(summary.toString())
                                .isEqualTo(r.questionsAtOnce());
                    }
                }
                assertThat(res.out()).contains("Questions at once: " + r.questionsAtOnce() + " per run");
            }
            if (r.name().equals("court-table1")) {
                // ReAct's selection: random.Random(233).shuffle(range(7405)), the first five of it under --limit 5
                Path fever = dir.resolve("runs/court-table1").resolve(rows.getFirst().id()).resolve("fever");
                var json = new com.fasterxml.jackson.databind.ObjectMapper();
                assertThat(json.readTree(fever.resolve("summary.json").toFile()).path("sample").asText())
                        .isEqualTo("python random.Random(233).shuffle(range(7405))[:500]");
                List<String> claims = Files.readAllLines(files.get("fever"));
                List<String> want = java.util.stream.IntStream.of(3687, 6238, 5388, 3522, 3824)
                        .mapToObj(i -> {
                            try {
                                return json.readTree(claims.get(i)).path("id").asText();
                            } catch (java.io.IOException e) {
                                throw new java.io.UncheckedIOException(e);
                            }
                        }).toList();
                List<String> got = new ArrayList<>();
                for (String l : Files.readAllLines(fever.resolve("results.jsonl"))) {
                    got.add(json.readTree(l).path("id").asText());
                }
                assertThat(got).containsExactlyInAnyOrderElementsOf(want);
            }
            // rows not run here are still listed with the paper's numbers and why
            r.rows().stream().filter(x -> x.notRun() != null).forEach(x -> assertThat(res.out()).contains(x.id()).contains("not run: " + x.notRun()));
            System.out.printf("%s: %d rows x %d datasets in %.1f s%n", r.name(), rows.size(), r.datasets().size(),
                    (System.nanoTime() - t0) / 1e9);
            if (r.subset() != null) {
                // the simulator's agents answer alike, so its subsets are mostly empty: make two of the subset row's
                // questions on the first dataset disagree (the last agent answered nothing) and print the table again
                // from the same run folders (every question is done: nothing is asked again)
                var json = new com.fasterxml.jackson.databind.ObjectMapper();
                String d = r.datasets().getFirst();
                Path judged = dir.resolve("runs").resolve(r.name()).resolve(r.subset().row()).resolve(d).resolve("results.jsonl");
                List<String> lines = new ArrayList<>(Files.readAllLines(judged));
                for (int i = 0; i < 2; i++) {
                    var line = (com.fasterxml.jackson.databind.node.ObjectNode) json.readTree(lines.get(i));
                    var cands = line.path("candidates");
                    ((com.fasterxml.jackson.databind.node.ObjectNode) cands.get(cands.size() - 1)).put("answer", "");
                    lines.set(i, json.writeValueAsString(line));
                }
                Files.write(judged, lines);
                Result again = runWithStderrInOut(args.toArray(String[]::new));
                assertThat(again.code()).as(again.out() + again.err()).isZero();
                assertThat(checkSubset(r, rows, again.out()).get(d)).isGreaterThanOrEqualTo(2);
                System.out.println(again.out().substring(again.out().indexOf("Reproduction " + r.name())));
            }
        }));
    }

    /**
     * A recipe scored over a subset: the table says so, with the size the subset row's run gives per dataset, and each
     * cell over a non-empty subset is the mean of that row's per-question scores (its result lines' metrics) over
     * exactly the subset's questions. Returns the subset's size per dataset.
     */
    private static Map<String, Integer> checkSubset(Recipe r, List<Recipe.Row> rows, String out) throws Exception {
        var json = new com.fasterxml.jackson.databind.ObjectMapper();
        assertThat(rows).extracting(Recipe.Row::id).contains(r.subset().row());
        Path runs = dir.resolve("runs").resolve(r.name());
        Map<String, Integer> sizes = new LinkedHashMap<>();
        List<String> printed = new ArrayList<>();
        for (String d : r.datasets()) {
            java.util.Set<String> ids = new java.util.LinkedHashSet<>();
            List<String> lines = Files.readAllLines(runs.resolve(r.subset().row()).resolve(d).resolve("results.jsonl"));
            for (String l : lines) {
                var n = dev.veracity.eval.results.ResultsJson.line(l, d);
                if (r.subset().rule().test(n)) {
                    ids.add(n.id());
                }
            }
            sizes.put(d, ids.size());
            printed.add(" " + d + " " + ids.size() + " of " + lines.size() + " questions");
            if (ids.isEmpty()) {
                continue;
            }
            for (Recipe.Row row : rows) {
                List<com.fasterxml.jackson.databind.JsonNode> mine = new ArrayList<>();
                for (String l : Files.readAllLines(runs.resolve(row.id()).resolve(d).resolve("results.jsonl"))) {
                    var n = json.readTree(l);
                    if (ids.contains(n.path("id").asText())) {
                        mine.add(n);
                    }
                }
                assertThat(mine).as(row.id() + " on " + d).hasSize(ids.size());
                for (Recipe.Column c : r.columns()) {
                    if (d.equals(c.dataset()) && !c.metric().contains(".")) {
                        double mean = mine.stream().mapToDouble(n -> n.path("metrics").path(c.metric()).asDouble())
                                .average().orElseThrow() * c.scale();
                        assertThat(out).containsPattern("(?m)^" + java.util.regex.Pattern.quote(row.id()) + " .*"
                                + java.util.regex.Pattern.quote(c.label()) + " +\\S+ +"
                                + java.util.regex.Pattern.quote(String.format(java.util.Locale.ROOT, "%.2f", mean)) + " ");
                    }
                }
            }
        }
        assertThat(out).contains("SUBSET: every cell is over the questions where row " + r.subset().row() + "'s run has "
                + r.subset().where() + " (").contains("):" + String.join(",", printed) + "\n");
        return sizes;
    }

    @Test
    void courtTable2sReactRowRunsThePromptOfRcsAgents() {
        // Table 2 sets the judge against single agents on the questions where RC's agents disagree: its ReAct row runs
        // with every ReAct option as RC's agents have it (on FEVER, RC's Reasoning Enhanced Prompt, not ReAct's own)
        Recipe r = new Recipes(Methods::spec).byName("court-table2");
        Recipe.Row react = r.rows().stream().filter(x -> x.method().equals("react")).findFirst().orElseThrow();
        Recipe.Row court = r.rows().stream().filter(x -> x.id().equals(r.subset().row())).findFirst().orElseThrow();
        Map<String, String> agents = Methods.spec(court.method()).resolve(court.options()).values();
        Map<String, String> single = Methods.spec(react.method()).resolve(react.options()).values();
        assertThat(single.keySet()).contains("fever-prompt");
        single.forEach((k, v) -> {
            if (agents.containsKey(k)) {
                assertThat(v).as(k).isEqualTo(agents.get(k));
            }
        });
        assertThat(single).containsEntry("fever-prompt", "enhanced");
    }

    @Test
    void listsEveryRecipeWithItsDatasetsUrlsAndChecksums() {
        Result r = runWithStderrInOut("reproduce", "--list");
        assertThat(r.code()).as(r.err()).isZero();
        for (String name : Recipes.names()) {
            assertThat(r.out()).contains(name + "  ");
        }
        assertThat(r.out()).contains("dataset ramdocs: RAMDocs_test.jsonl, https://raw.githubusercontent.com/HanNight/RAMDocs/"
                + "d44454c9ebb0bf513d8236a03decc9fb58704cad/RAMDocs_test.jsonl, sha256 c67f699c97349f00cf1bd08d1dbf8ca1d0cc38c306715c93a10a4f961dcf28b7")
                .contains("dataset hotpotqa: hotpot_dev_distractor_v1.json, http://curtis.ml.cmu.edu/datasets/hotpot/hotpot_dev_distractor_v1.json, sha256 unknown")
                .contains("dataset musique: musique_ans_v1.0_dev.jsonl, no direct URL, from https://github.com/StonyBrookNLP/musique")
                .contains("model llm-server: Qwen2-72B-Instruct").contains("needs index:")
                .contains("court-table2  Reasoning Court, Table 2: ").contains("  subset: every row scored on the questions where row"
                        + " judge.gpt-4o-mini's run has agents-disagree (two or more agents whose answers differ after"
                        + " normalisation, or one of them empty)");
    }

    @Test
    void datasetsListsTheRegistryAndFetchSaysWhatToDoWithoutADirectUrl() {
        Result list = runWithStderrInOut("datasets", "list");
        assertThat(list.code()).as(list.err()).isZero();
        assertThat(list.out()).contains("ramdocs  RAMDocs JSONL (MADAM-RAG); metrics strict-multi")
                .contains("hotpot_dev_distractor_v1.json  [missing]  http://curtis.ml.cmu.edu/datasets/hotpot/hotpot_dev_distractor_v1.json  sha256 unknown")
                .contains("musique_ans_v1.0_dev.jsonl  [missing]  from https://github.com/StonyBrookNLP/musique  sha256 unknown");
        if (Shared.findData("ramdocs/RAMDocs_test.jsonl").isPresent()) {
            assertThat(list.out()).containsPattern("RAMDocs_test.jsonl  \\[present: .*shared/data/ramdocs/RAMDocs_test.jsonl\\]");
        }
        Result fetch = runWithStderrInOut("datasets", "fetch", "musique");
        assertThat(fetch.code()).isEqualTo(2);
        assertThat((fetch.err() + fetch.out()).strip()).startsWith("veracity datasets fetch: musique: no direct download;"
                + " get musique_ans_v1.0_dev.jsonl from https://github.com/StonyBrookNLP/musique").doesNotContain("\n");
        Result unknown = runWithStderrInOut("datasets", "fetch", "wikitext");
        assertThat((unknown.err() + unknown.out()).strip()).startsWith("veracity datasets fetch: unknown dataset \"wikitext\"");
    }

    @Test
    void refusesBeforeAnyRunWhatItCannotDo() {
        Path out = dir.resolve("refused");
        Result unknown = runWithStderrInOut("reproduce", "court-table9", "--simulator");
        assertThat(unknown.code()).isEqualTo(2);
        assertThat((unknown.err() + unknown.out()).strip()).startsWith("veracity reproduce: unknown recipe 'court-table9'; did you mean 'court-table1' or"
                + " 'court-table2' or 'court-table4'? known: march-table5")
                .doesNotContain("\n");
        // an index the paper retrieves from, and a dataset file that is not there: one line each, nothing run
        Result missing = runWithStderrInOut("reproduce", "truthrl-table3", "--simulator", "--limit", "5", "--out", out.toString(),
                "--data", "crag=" + FIXTURES.resolve("crag_small.jsonl"), "--data", "nq-open=" + dir.resolve("nowhere.jsonl"),
                "--data", "hotpotqa=" + FIXTURES.resolve("hotpot_dev_distractor_v1.json"),
                "--data", "musique=" + FIXTURES.resolve("musique_full_v1.0_dev.jsonl"));
        assertThat(missing.code()).isEqualTo(2);
        assertThat((missing.err() + missing.out()).lines().toList()).allSatisfy(l -> assertThat(l).startsWith("veracity reproduce: "))
                .anySatisfy(l -> assertThat(l).contains("--data nq-open=" + dir.resolve("nowhere.jsonl") + ": no such file"))
                .anySatisfy(l -> assertThat(l).contains("binary on nq-open: the paper retrieves from an index").contains("--index DIR"));
        assertThat(out).doesNotExist();
        Result row = runWithStderrInOut("reproduce", "c3po-table1", "--simulator", "--rows", "replug,nope");
        assertThat(row.err() + row.out()).contains("--rows: row 'replug' is not run here: REPLUG").contains("--rows: no row 'nope' in c3po-table1");
    }

    @Test
    void aSecondReproduceResumesTheRunFolders() throws Exception {
        Path ramdocs = Shared.data("ramdocs/RAMDocs_test.jsonl");
        String[] args = {"reproduce", "madam-table2", "--simulator", "--limit", "3", "--rows", "prompt-based",
                "--out", dir.resolve("resume").toString(), "--cache-file", dir.resolve("resume-cache.db").toString(),
                "--data", "ramdocs=" + ramdocs};
        Result first = runWithStderrInOut(args);
        assertThat(first.code()).as(first.err()).isZero();
        Path results = dir.resolve("resume/madam-table2/prompt-based/ramdocs/results.jsonl");
        List<String> lines = Files.readAllLines(results);
        assertThat(lines).hasSize(3);
        Result second = runWithStderrInOut(args);
        assertThat(second.code()).as(second.err()).isZero();
        assertThat(second.out()).contains("3 questions: 3 already done, 0 answered now");
        assertThat(Files.readAllLines(results)).isEqualTo(lines);
        assertThat(second.out()).containsPattern("prompt-based .*Avg Input Tokens +822\\.69 +\\d+\\.\\d\\d +[-+]\\d+\\.\\d\\d +not comparable");
    }

    /** The line per run finished is progress: on standard error, as every command's, never in the tables' stdout. */
    @Test
    void theLinePerRunGoesToStandardError() throws Exception {
        Path ramdocs = Shared.data("ramdocs/RAMDocs_test.jsonl");
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        java.io.PrintStream stderr = System.err;
        Result r;
        System.setErr(new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            r = CliRun.run("reproduce", "madam-table2", "--simulator", "--limit", "2", "--rows", "prompt-based",
                    "--out", dir.resolve("progress").toString(), "--cache-file", dir.resolve("progress-cache.db").toString(),
                    "--data", "ramdocs=" + ramdocs);
        } finally {
            System.setErr(stderr);
        }
        assertThat(r.code()).as(r.err()).isZero();
        String progress = err.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertThat(progress).contains("reproduce madam-table2: 0/1 runs").contains("reproduce madam-table2: 1/1 runs");
        assertThat(r.out()).contains("prompt-based").doesNotContain("reproduce madam-table2: ");
    }

    @Test
    void aDataFileThatIsNotThePapersSplitIsNotComparableEvenOverTheWholeFile() throws Exception {
        Path ramdocs = Shared.data("ramdocs/RAMDocs_test.jsonl");
        // the first three questions of the official file: a whole-file run of it is not the paper's 500
        Path three = dir.resolve("ramdocs-3.jsonl");
        Files.write(three, Files.readAllLines(ramdocs).subList(0, 3));
        try (dev.veracity.sim.SimServer sim = dev.veracity.sim.SimServer.start(dev.veracity.sim.SimConfig.builder()
                .latency(dev.veracity.sim.LatencyModel.ofMillis(0, 0)).build())) {
            Result r = runWithStderrInOut("reproduce", "madam-table2", "--rows", "prompt-based", "--llm-base-url",
                    sim.baseUrl(), "--model", sim.config().defaultModel(), "--out", dir.resolve("other-file").toString(),
                    "--cache-file", dir.resolve("other-file-cache.db").toString(), "--data", "ramdocs=" + three);
            assertThat(r.code()).as(r.out() + r.err()).isZero();
            assertThat(r.out()).contains("NOT COMPARABLE on ramdocs: " + three + " is not the paper's split: its SHA-256 ")
                    .contains("is not the registry's c67f699c9734... for RAMDocs_test.jsonl")
                    .doesNotContain("within ±").doesNotContain("OUTSIDE ±")
                    .containsPattern("prompt-based .*Avg Input Tokens +822\\.69 +\\d+\\.\\d\\d +[-+]\\d+\\.\\d\\d"
                            + " +not comparable \\(data file\\)")
                    .contains("0 cells within the tolerance, 0 outside, 2 not comparable");
        }
    }

    @Test
    void runsAnEarlierReproduceLeftAreJudgedFromTheirOwnRecord() throws Exception {
        Path crag = Shared.data("crag/dev_data.jsonl.bz2");
        Path nq = Shared.data("nq-open/NQ-open.dev.jsonl");
        Path out = dir.resolve("earlier");
        String row = "prompting.qwen2.5-7b.no-retrieval";
        try (dev.veracity.sim.SimServer sim = dev.veracity.sim.SimServer.start(dev.veracity.sim.SimConfig.builder()
                .latency(dev.veracity.sim.LatencyModel.ofMillis(0, 0)).build())) {
            List<String> common = List.of("reproduce", "truthrl-table1", "--rows", row, "--out", out.toString(),
                    "--cache-file", dir.resolve("earlier-cache.db").toString());
            List<String> server = List.of("--llm-base-url", sim.baseUrl(), "--model", sim.config().defaultModel());
            // CRAG's column against the built-in simulator, then NQ's first 3 questions
            List<String> first = new ArrayList<>(common);
            first.addAll(List.of("--datasets", "crag", "--simulator", "--data", "crag=" + crag));
            Result simulated = runWithStderrInOut(first.toArray(String[]::new));
            assertThat(simulated.code()).as(simulated.out() + simulated.err()).isZero();
            List<String> second = new ArrayList<>(common);
            second.addAll(server);
            second.addAll(List.of("--datasets", "nq-open", "--limit", "3", "--data", "nq-open=" + nq));
            Result limited = runWithStderrInOut(second.toArray(String[]::new));
            assertThat(limited.code()).as(limited.out() + limited.err()).isZero();
            // then MuSiQue's whole (fixture) file with neither: the earlier runs keep what they were
            List<String> third = new ArrayList<>(common);
            third.addAll(server);
            third.addAll(List.of("--datasets", "musique", "--data", "musique=" + FIXTURES.resolve("musique_full_v1.0_dev.jsonl")));
            Result r = runWithStderrInOut(third.toArray(String[]::new));
            assertThat(r.code()).as(r.out() + r.err()).isZero();
            String p = java.util.regex.Pattern.quote(row);
            assertThat(r.out()).doesNotContain("NOT COMPARABLE: these runs")
                    .containsPattern("(?m)^" + p + " .*CRAG T .*not comparable \\(simulator\\)$")
                    .containsPattern("(?m)^" + p + " .*NQ A .*not comparable \\(--limit\\)$")
                    .containsPattern("(?m)^" + p + " .*MuSiQue T .*(within|OUTSIDE) ±3\\.0$")
                    .contains("NOT COMPARABLE on crag: row " + row + "'s run ran against the built-in simulator")
                    .contains("NOT COMPARABLE on nq-open: row " + row + "'s run used --limit")
                    .contains("UNVERIFIED SPLIT on musique: the registry has no checksum or question count for"
                            + " musique_ans_v1.0_dev.jsonl, so nothing tells whether");
            assertThat(r.out().lines().filter(l -> l.matches(java.util.regex.Pattern.quote(row) + " .*(within|OUTSIDE) ±.*")))
                    .hasSize(3);
        }
    }

    @Test
    void aSplitTheRegistryCannotCheckIsSaidToBeUnverifiedAndOneOfAnotherQuestionCountIsNotComparable() throws Exception {
        Path crag = Shared.data("crag/dev_data.jsonl.bz2");
        try (dev.veracity.sim.SimServer sim = dev.veracity.sim.SimServer.start(dev.veracity.sim.SimConfig.builder()
                .latency(dev.veracity.sim.LatencyModel.ofMillis(0, 0)).build())) {
            // CRAG: no checksum and no question count in the registry; the 10-question sample is graded, and says so
            Result r = runWithStderrInOut("reproduce", "truthrl-table2", "--rows", "prompting", "--llm-base-url",
                    sim.baseUrl(), "--model", sim.config().defaultModel(), "--out", dir.resolve("unverified").toString(),
                    "--cache-file", dir.resolve("unverified-cache.db").toString(), "--data", "crag=" + crag);
            assertThat(r.code()).as(r.out() + r.err()).isZero();
            String line = "UNVERIFIED SPLIT on crag: the registry has no checksum or question count for"
                    + " crag_task_1_and_2_dev_v4.jsonl.bz2, so nothing tells whether " + crag + " is the paper's split;"
                    + " its cells are graded as if it were";
            assertThat(r.out()).contains(line).doesNotContain("NOT COMPARABLE");
            assertThat(r.out().indexOf(line)).isLessThan(r.out().indexOf("== prompting on crag")); // before any run too
            // FaithEval: the registry counts the paper's 1,000 questions; a file of 2 is not the paper's split
            Path faitheval = FIXTURES.resolve("faitheval_inconsistent.json");
            Result f = runWithStderrInOut("reproduce", "madam-table1", "--rows", "no-rag.gpt-4o-mini", "--datasets",
                    "faitheval", "--llm-base-url", sim.baseUrl(), "--model", sim.config().defaultModel(), "--out",
                    dir.resolve("counted").toString(), "--cache-file", dir.resolve("counted-cache.db").toString(),
                    "--data", "faitheval=" + faitheval);
            assertThat(f.code()).as(f.out() + f.err()).isZero();
            assertThat(f.out()).contains("NOT COMPARABLE on faitheval: " + faitheval + " is not the paper's split: it has 2"
                            + " questions, the registry's faitheval_inconsistent.json has 1000")
                    .containsPattern("no-rag\\.gpt-4o-mini .*FaithEval .*not comparable \\(data file\\)")
                    .doesNotContain("within ±").doesNotContain("OUTSIDE ±");
        }
    }

    @Test
    void aMultiDatasetRecipeRunsOneDatasetsColumnsAlone() throws Exception {
        Path fever = Shared.data("fever/paper_dev.jsonl");
        Path out = dir.resolve("one-dataset");
        // no file for hotpotqa or musique is needed: only FEVER's columns run
        Result r = runWithStderrInOut("reproduce", "court-table1", "--simulator", "--limit", "2", "--rows",
                "standard.gpt-4o-mini", "--datasets", "fever", "--data", "fever=" + fever, "--out", out.toString(),
                "--cache-file", dir.resolve("one-dataset-cache.db").toString());
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        Path row = out.resolve("court-table1/standard.gpt-4o-mini");
        assertThat(row.resolve("fever/summary.json")).isRegularFile();
        assertThat(row.resolve("hotpotqa")).doesNotExist();
        assertThat(row.resolve("musique")).doesNotExist();
        assertThat(r.out()).containsPattern("standard\\.gpt-4o-mini .*FEVER EM +60\\.4 +\\d+\\.\\d\\d .*not comparable")
                .containsPattern("standard\\.gpt-4o-mini .*HotpotQA EM +28\\.4 +- +- +no result");
        Result unknown = runWithStderrInOut("reproduce", "court-table1", "--simulator", "--datasets", "popqa",
                "--out", out.toString());
        assertThat(unknown.code()).isEqualTo(2);
        assertThat(unknown.err() + unknown.out()).contains("--datasets: court-table1 has no column of 'popqa'; its datasets:"
                + " hotpotqa, fever, musique");
    }
}
