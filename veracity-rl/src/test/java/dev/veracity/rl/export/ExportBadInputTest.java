package dev.veracity.rl.export;

import static dev.veracity.rl.export.ExportFixtures.NQ_OPEN;
import static dev.veracity.rl.export.ExportFixtures.RAMDOCS;
import static dev.veracity.rl.export.ExportFixtures.copy;
import static dev.veracity.rl.export.ExportFixtures.files;
import static dev.veracity.rl.export.ExportFixtures.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.veracity.eval.data.DatasetException;
import dev.veracity.rl.jsonl.BadInputException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad input is one line that says what to fix, and no output file (not even a partial one) is left. */
class ExportBadInputTest {

    @TempDir
    Path dir;

    private void refused(ExportSpec spec, Class<? extends Exception> type, String message) throws Exception {
        List<String> before = files(dir);
        assertThatThrownBy(() -> TrainingDataExport.run(spec)).isInstanceOf(type).hasMessage(message)
                .extracting(Throwable::getMessage).asString().doesNotContain("\n");
        assertThat(files(dir)).as("nothing written, nothing left behind").isEqualTo(before);
    }

    @Test
    void unknownFormatDatasetMethodAndRoleListTheKnownOnes() throws Exception {
        assertThatThrownBy(() -> ExportFormat.of("axolotl")).isInstanceOf(IllegalArgumentException.class).hasMessage(
                "unknown format 'axolotl'; known: verl, verl-jsonl, openrlhf, trl, trl-dpo, trl-sft, llamafactory, slime");
        Path data = copy(RAMDOCS, dir);
        Path out = dir.resolve("o.jsonl");
        refused(ExportSpec.of(ExportFormat.SLIME, "ramdoc", data, "march", out), IllegalArgumentException.class,
                "unknown dataset \"ramdoc\"; did you mean 'ramdocs'? known: ramdocs, faitheval, ambigdocs, hotpotqa, 2wikimultihopqa, musique,"
                        + " musique-answerable, nq-open, triviaqa, popqa, crag, crag-snippets, truthrl-crag, fever, ragtruth, flashrag"
                        + " (aliases: hotpot=hotpotqa, 2wiki=2wikimultihopqa, musique-ans=musique-answerable, nq=nq-open,"
                        + " nqopen=nq-open, trivia=triviaqa, jsonl=flashrag)");
        String known = "known: no-rag:answerer, standard-rag:answerer, cot:reasoner, cot-sc:reasoner, madam-rag:agent,"
                + " march:solver, truthrl:answerer, truthrl-no-retrieval:answerer";
        refused(ExportSpec.of(ExportFormat.SLIME, "ramdocs", data, "axolotl", out), IllegalArgumentException.class,
                "unknown method 'axolotl' for a prompt; " + known);
        refused(ExportSpec.of(ExportFormat.SLIME, "ramdocs", data, "march:proposer", out), IllegalArgumentException.class,
                "method march has no role 'proposer' with a prompt (its roles: solver); " + known);
        refused(ExportSpec.of(ExportFormat.SLIME, "ramdocs", data, "march", out).withOptions(java.util.Map.of("sample", "3")),
                IllegalArgumentException.class, "unknown option 'sample' for method march; its options: "
                        + dev.veracity.methods.Methods.spec("march").optionsLine());
    }

    @Test
    void aMalformedDatasetLineNamesFileAndLineAndLeavesNoFile() throws Exception {
        List<String> lines = Files.readAllLines(copy(RAMDOCS, dir));
        Path data = write(dir.resolve("broken.jsonl"), lines.get(0), lines.get(1), "{\"question\": \"half a line",
                lines.get(2));
        Files.delete(dir.resolve(RAMDOCS));
        for (ExportFormat f : List.of(ExportFormat.VERL, ExportFormat.OPENRLHF)) {
            Path out = dir.resolve(f == ExportFormat.VERL ? "t.parquet" : "t.jsonl");
            List<String> before = files(dir);
            assertThatThrownBy(() -> TrainingDataExport.run(ExportSpec.of(f, "ramdocs", data, "march", out)))
                    .isInstanceOf(DatasetException.class).hasMessageStartingWith("broken.jsonl:3: ");
            assertThat(files(dir)).isEqualTo(before);
        }
        // an existing output is left as it was
        Path old = write(dir.resolve("t.jsonl"), "{\"old\": true}");
        assertThatThrownBy(() -> TrainingDataExport.run(ExportSpec.of(ExportFormat.OPENRLHF, "ramdocs", data, "march", old)))
                .isInstanceOf(DatasetException.class);
        assertThat(Files.readString(old)).isEqualTo("{\"old\": true}\n");
    }

    @Test
    void anOutputWhoseFolderIsMissingOrWhoseNameTheTrainerWouldNotLoadIsRefused() throws Exception {
        Path data = copy(NQ_OPEN, dir);
        Path missing = dir.resolve("no-such-folder/train.parquet");
        refused(ExportSpec.of(ExportFormat.VERL, "nq-open", data, "no-rag", missing), BadInputException.class,
                "no folder " + missing.getParent() + " for --out " + missing + " (create it first)");
        assertThat(Files.exists(missing.getParent())).isFalse();
        refused(ExportSpec.of(ExportFormat.VERL, "nq-open", data, "no-rag", dir.resolve("train.jsonl")),
                IllegalArgumentException.class, "--format verl writes a file its trainer loads only under a name ending"
                        + " in .parquet (VeRL picks its reader by extension), not train.jsonl");
        refused(ExportSpec.of(ExportFormat.VERL_JSONL, "nq-open", data, "no-rag", dir.resolve("train.jsonl")),
                IllegalArgumentException.class, "--format verl-jsonl writes a file its trainer loads only under a name"
                        + " ending in .json (VeRL reads JSON Lines from .json files, through datasets' json reader), not"
                        + " train.jsonl");
        refused(ExportSpec.of(ExportFormat.SLIME, "nq-open", data, "no-rag", dir.resolve("train.json")),
                IllegalArgumentException.class, "--format slime writes a file its trainer loads only under a name ending"
                        + " in .jsonl (slime reads .jsonl or .parquet prompt data), not train.json");
        refused(ExportSpec.of(ExportFormat.TRL, "nq-open", data, "no-rag", dir), BadInputException.class,
                "--out " + dir + " is a folder; name the file to write");
        refused(ExportSpec.of(ExportFormat.TRL, "nq-open", dir.resolve("nope.jsonl"), "no-rag", dir.resolve("t.jsonl")),
                BadInputException.class, "no dataset file at " + dir.resolve("nope.jsonl"));
    }

    @Test
    void theInputsAFormatNeedsAreCheckedBeforeAnythingIsWritten() throws Exception {
        Path data = copy(NQ_OPEN, dir);
        Path out = dir.resolve("o.jsonl");
        refused(ExportSpec.of(ExportFormat.TRL_SFT, "nq-open", data, "no-rag", out), BadInputException.class,
                "--format trl-sft needs --responses FILE: lines {\"id\", \"response\"} with the dataset's question ids");
        refused(ExportSpec.of(ExportFormat.TRL_DPO, "nq-open", data, "no-rag", out), BadInputException.class,
                "--format trl-dpo needs --pairs FILE: lines {\"id\", \"chosen\", \"rejected\"} with the dataset's question ids");
        Path responses = write(dir.resolve("r.jsonl"), "{\"id\": \"nq-open-0\", \"response\": \"x\"}");
        refused(ExportSpec.of(ExportFormat.VERL_JSONL, "nq-open", data, "no-rag", dir.resolve("o.json"))
                .withResponses(responses), BadInputException.class, "--format verl-jsonl is RL prompt data (the trainer"
                + " samples the responses): it takes no --responses or --pairs");
        refused(ExportSpec.of(ExportFormat.TRL, "nq-open", data, "no-rag", out).withAgentName("tool_agent"),
                BadInputException.class, "--agent-name is a VeRL column; --format trl has none");
        // a RAG prompt on a dataset without passages, without an index
        refused(ExportSpec.of(ExportFormat.TRL, "nq-open", data, "march", out), IllegalArgumentException.class,
                "method march needs documents and nq-open questions come without any: pass --index DIR (build one with"
                        + " ./veracity index) [--k N --search-mode bm25|dense|hybrid], or use a closed-book method (no-rag,"
                        + " cot, cot-sc)");
        refused(ExportSpec.of(ExportFormat.TRL, "nq-open", data, "no-rag", out).withLimit(-1), BadInputException.class,
                "--limit must be >= 0, was -1");
    }

    @Test
    void badResponseAndPairLinesNameFileAndLine() throws Exception {
        Path data = copy(NQ_OPEN, dir);
        Path out = dir.resolve("o.jsonl");
        record Case(String line, String problem) {
        }
        for (Case c : List.of(
                new Case("{\"response\": \"x\"}", "\"id\" must be the dataset's question id (a string or an integer)"),
                new Case("{\"id\": \"nq-open-0\", \"response\": \"  \"}", "\"response\" must be a non-empty string"),
                new Case("{\"id\": \"nq-open-0\", \"response\": 3}", "\"response\" must be a non-empty string"),
                new Case("{\"id\": \"nq-open-0\", \"response\": \"x\", \"agent\": 2}", "\"agent\" must be a string such as \"agent-2\""),
                new Case("not json", null))) {
            Path r = write(dir.resolve("r.jsonl"), "{\"id\": \"nq-open-1\", \"response\": \"fine\"}", c.line());
            List<String> before = files(dir);
            var thrown = assertThatThrownBy(() -> TrainingDataExport.run(ExportSpec.of(ExportFormat.TRL_SFT, "nq-open",
                    data, "no-rag", out).withResponses(r))).isInstanceOf(BadInputException.class);
            thrown.hasMessageStartingWith(r + ":2: ");
            if (c.problem() != null) {
                thrown.hasMessage(r + ":2: " + c.problem());
            }
            assertThat(files(dir)).isEqualTo(before);
        }
        Path same = write(dir.resolve("p.jsonl"), "{\"id\": \"nq-open-0\", \"chosen\": \"a\", \"rejected\": \"a\"}");
        refused(ExportSpec.of(ExportFormat.TRL_DPO, "nq-open", data, "no-rag", out).withPairs(same), BadInputException.class,
                same + ":1: \"chosen\" and \"rejected\" are the same text: nothing to prefer");
        // an id no question has: the whole file was meant for another dataset, or a typo
        Path stray = write(dir.resolve("s.jsonl"), "{\"id\": \"nq-open-0\", \"response\": \"a\"}",
                "{\"id\": \"nq-0\", \"response\": \"b\"}");
        refused(ExportSpec.of(ExportFormat.TRL_SFT, "nq-open", data, "no-rag", out).withResponses(stray),
                BadInputException.class, stray + ":2: no question of " + data + " has this id");
        // with --limit, lines for questions past the limit are only counted
        TrainingDataExport.Summary s = TrainingDataExport.run(ExportSpec.of(ExportFormat.TRL_SFT, "nq-open", data,
                "no-rag", out).withResponses(stray).withLimit(1));
        assertThat(s.rows()).isEqualTo(1);
        assertThat(s.unusedCompletions()).isEqualTo(1);
        Files.delete(out);
        // MADAM's agents: a line must say which agent's prompt it answers
        Path ramdocs = copy(RAMDOCS, dir);
        Path noAgent = write(dir.resolve("a.jsonl"), "{\"id\": \"ramdocs-0\", \"response\": \"Answer: x\"}");
        refused(ExportSpec.of(ExportFormat.TRL_SFT, "ramdocs", ramdocs, "madam-rag:agent", out).withResponses(noAgent),
                BadInputException.class, noAgent + ":1: question ramdocs-0 has 3 prompts (one per agent): say which with"
                        + " \"agent\", e.g. \"agent-1\"");
        Path badAgent = write(dir.resolve("b.jsonl"), "{\"id\": \"ramdocs-0\", \"agent\": \"agent-9\", \"response\": \"x\"}");
        refused(ExportSpec.of(ExportFormat.TRL_SFT, "ramdocs", ramdocs, "madam-rag:agent", out).withResponses(badAgent),
                BadInputException.class, badAgent + ":1: no question of " + ramdocs + " has this id and agent agent-9");
    }

    @Test
    void noRowToWriteIsAnErrorRatherThanAnEmptyTrainingFile() throws Exception {
        Path empty = write(dir.resolve("empty.jsonl"), "");
        Path out = dir.resolve("o.jsonl");
        refused(ExportSpec.of(ExportFormat.TRL, "nq-open", empty, "no-rag", out), DatasetException.class,
                "empty.jsonl: the file is empty: no records to read");
        Path data = copy(NQ_OPEN, dir);
        Path other = write(dir.resolve("r.jsonl"), "{\"id\": \"nq-open-2\", \"response\": \"a\"}");
        refused(ExportSpec.of(ExportFormat.TRL_SFT, "nq-open", data, "no-rag", out).withResponses(other).withLimit(2),
                BadInputException.class, "no row to write: none of the 2 questions read has a line in " + other
                        + "; nothing written to " + out);
    }

    @Test
    void aBrokenDatasetInfoJsonIsRefusedBeforeTheDataFileIsWritten() throws Exception {
        Path data = copy(NQ_OPEN, dir);
        Path info = write(dir.resolve("dataset_info.json"), "{\"a\": ");
        Path responses = write(dir.resolve("r.jsonl"), "{\"id\": \"nq-open-0\", \"response\": \"x\"}");
        List<String> before = files(dir);
        assertThatThrownBy(() -> TrainingDataExport.run(ExportSpec.of(ExportFormat.LLAMAFACTORY, "nq-open", data, "no-rag",
                dir.resolve("lf.jsonl")).withResponses(responses))).isInstanceOf(BadInputException.class)
                .hasMessageStartingWith(info + ": not JSON (").hasMessageEndingWith("LLaMA-Factory could not read it either:"
                        + " fix or remove it");
        assertThat(files(dir)).isEqualTo(before);
        write(info, "[1, 2]");
        refused(ExportSpec.of(ExportFormat.LLAMAFACTORY, "nq-open", data, "no-rag", dir.resolve("lf.jsonl"))
                .withResponses(responses), BadInputException.class, info + ": not a JSON object of datasets; fix or remove it");
        refused(ExportSpec.of(ExportFormat.TRL, "nq-open", data, "no-rag", dir.resolve("x.jsonl")).withEntryName("n"),
                BadInputException.class, "--name names a LLaMA-Factory dataset_info.json entry; --format trl writes none");
    }
}
