package dev.veracity.cli;

import static dev.veracity.cli.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.cli.CliRun.Result;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code veracity rl export}, in-process through the real command line, on the bundled RAMDocs questions. */
class RlExportCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Two NQ-open dev questions (CC BY-SA 3.0), as the release writes them. */
    private static final List<String> NQ = List.of(
            "{\"question\": \"when was the last time anyone was on the moon\", \"answer\": [\"14 December 1972 UTC\", \"December 1972\"]}",
            "{\"question\": \"who wrote he ain't heavy he's my brother lyrics\", \"answer\": [\"Bobby Scott\", \"Bob Russell\"]}");

    @TempDir
    Path dir;

    /** The 20 RAMDocs questions the demo ships. */
    private Path ramdocs() throws Exception {
        Path f = dir.resolve("ramdocs-20.jsonl");
        try (InputStream in = RlExportCommandTest.class.getResourceAsStream("demo/ramdocs-20.jsonl")) {
            Files.copy(in, f);
        }
        return f;
    }

    private List<String> files() throws Exception {
        try (var s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void writesVerlParquetAndSaysWhatItWrote() throws Exception {
        Path data = ramdocs();
        Path out = dir.resolve("train.parquet");
        Result r = run("rl", "export", "--format", "verl", "--dataset", "ramdocs", "--data", data.toString(), "--prompt",
                "march:solver", "--out", out.toString(), "--limit", "5", "--split", "test");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).isEmpty();
        JsonNode s = JSON.readTree(r.out());
        assertThat(s.toString()).isEqualTo(JSON.createObjectNode().put("format", "verl").put("prompt", "march:solver")
                .put("dataset", "ramdocs").put("documents", "dataset").put("questions", 5).put("rows", 5)
                .put("without_prompt", 0).put("without_gold", 0).put("without_completion", 0)
                .put("unused_completions", 0).put("out", out.toAbsolutePath().normalize().toString()).toString());
        assertThat(Files.size(out)).isPositive();
        assertThat(files()).containsExactly("ramdocs-20.jsonl", "train.parquet");
    }

    @Test
    void madamAgentsAreOneRowPerDocument() throws Exception {
        Path data = ramdocs();
        Path out = dir.resolve("slime.jsonl");
        Result r = run("rl", "export", "--format", "slime", "--dataset", "ramdocs", "--data", data.toString(), "--prompt",
                "madam-rag:agent", "--out", out.toString(), "--limit", "2");
        assertThat(r.code()).as(r.err()).isZero();
        List<String> lines = Files.readAllLines(out);
        long documents = Files.readAllLines(data).stream().limit(2).mapToLong(l -> read(l).get("documents").size()).sum();
        assertThat(lines).hasSize((int) documents);
        assertThat(JSON.readTree(r.out()).get("rows").asLong()).isEqualTo(documents);
        assertThat(read(lines.getFirst()).at("/metadata/agent").asText()).isEqualTo("agent-1");
    }

    @Test
    void anIndexGivesTheRetrievedPassagesAsInEval() throws Exception {
        Path nq = Files.write(dir.resolve("nq.jsonl"), NQ);
        Path corpus = Files.writeString(dir.resolve("corpus.jsonl"), String.join("\n",
                "{\"id\": \"a0\", \"contents\": \"\\\"Apollo 17\\\"\\nThe last time anyone was on the moon was December 1972.\"}",
                "{\"id\": \"a1\", \"contents\": \"\\\"He Ain't Heavy\\\"\\nHe ain't heavy he's my brother was written by Bobby Scott and Bob Russell.\"}",
                "{\"id\": \"f0\", \"contents\": \"\\\"Tides\\\"\\nA report about rain, wind and tides in a harbour town.\"}") + "\n");
        Result idx = run("index", "--corpus", corpus.toString(), "--format", "flashrag", "--out", dir.resolve("idx").toString());
        assertThat(idx.code()).as(idx.err()).isZero();
        Path out = dir.resolve("o.jsonl");
        Result r = run("rl", "export", "--format", "openrlhf", "--dataset", "nq", "--data", nq.toString(), "--prompt",
                "standard-rag", "--out", out.toString(), "--index", dir.resolve("idx").toString(), "--k", "1");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(JSON.readTree(r.out()).get("documents").asText()).endsWith("idx k=1 bm25");
        List<JsonNode> rows = Files.readAllLines(out).stream().map(RlExportCommandTest::read).toList();
        assertThat(rows.get(0).at("/input/0/content").asText()).contains("Apollo 17. The last time anyone was on the moon");
        assertThat(rows.get(1).at("/input/0/content").asText()).contains("written by Bobby Scott").doesNotContain("Apollo");
        JsonNode label = read(rows.get(1).get("label").asText());
        assertThat(label.get("documents")).singleElement().satisfies(d -> assertThat(d.get("id").asText()).isEqualTo("a1"));
    }

    @Test
    void badInputIsOneLineExitTwoAndNoFile() throws Exception {
        Path data = ramdocs();
        List<String> lines = Files.readAllLines(data);
        Path broken = Files.write(dir.resolve("broken.jsonl"), List.of(lines.get(0), "{\"question\": 3}", lines.get(1)));
        String o = dir.resolve("o.jsonl").toString();
        record Case(List<String> args, String message) {
        }
        for (Case c : List.of(
                new Case(List.of("--format", "axolotl", "--dataset", "ramdocs", "--data", data.toString(), "--prompt", "march",
                        "--out", o), "unknown format 'axolotl'; known: verl, verl-jsonl, openrlhf, trl, trl-dpo, trl-sft,"
                        + " llamafactory, slime"),
                new Case(List.of("--format", "trl", "--dataset", "ramdoc", "--data", data.toString(), "--prompt", "march",
                        "--out", o), "unknown dataset \"ramdoc\"; did you mean 'ramdocs'? known: "),
                new Case(List.of("--format", "trl", "--dataset", "ramdocs", "--data", data.toString(), "--prompt",
                        "self-reflection", "--out", o), "method self-reflection exposes no role prompt for training data"),
                new Case(List.of("--format", "trl", "--dataset", "ramdocs", "--data", data.toString(), "--prompt",
                        "madam-rag:aggregator", "--out", o), "method madam-rag has no role 'aggregator' with a prompt (its"
                        + " roles: agent); known: no-rag:answerer, standard-rag:answerer, cot:reasoner, cot-sc:reasoner,"
                        + " madam-rag:agent, march:solver"),
                new Case(List.of("--format", "trl", "--dataset", "ramdocs", "--data", broken.toString(), "--prompt", "march",
                        "--out", o), "broken.jsonl:2: "),
                new Case(List.of("--format", "trl", "--dataset", "ramdocs", "--data", data.toString(), "--prompt", "march",
                        "--out", dir.resolve("missing/o.jsonl").toString()), "no folder " + dir.resolve("missing")))) {
            List<String> args = new java.util.ArrayList<>(List.of("rl", "export"));
            args.addAll(c.args());
            List<String> before = files();
            Result r = run(args.toArray(String[]::new));
            assertThat(r.code()).as(r.err()).isEqualTo(2);
            assertThat(r.err()).startsWith("veracity rl export: " + c.message()).endsWith("\n");
            assertThat(r.err().strip()).doesNotContain("\n");
            assertThat(r.out()).isEmpty();
            assertThat(files()).isEqualTo(before);
        }
    }

    private static JsonNode read(String line) {
        try {
            return JSON.readTree(line);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
