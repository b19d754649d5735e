package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.eval.run.RunConfig;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One run per folder: the same configuration resumes, another one is refused before any call, --force starts over. */
class RunFolderTest {

    @TempDir
    Path dir;

    private String err;

    private int eval(SimServer sim, String method, String... extra) throws Exception {
        Path data = dir.resolve("nq.jsonl");
        if (!Files.exists(data)) {
            Files.writeString(data, "{\"question\": \"capital of france\", \"answer\": [\"Paris\"]}\n"
                    + "{\"question\": \"capital of italy\", \"answer\": [\"Rome\"]}\n");
        }
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("eval", "--method", method, "--dataset",
                "nq-open", "--data", data.toString(), "--out", dir.resolve("out").toString(), "--llm-base-url",
                sim.baseUrl(), "--model", "sim-model", "--cache", "off"));
        args.addAll(java.util.List.of(extra));
        CliRun.Result r = CliRun.run(args.toArray(String[]::new));
        err = r.err();
        return r.code();
    }

    @Test
    void anotherConfigurationIsRefusedAndForceStartsOver() throws Exception {
        try (SimServer sim = SimServer.start(SimConfig.builder().build())) {
            assertThat(eval(sim, "no-rag")).as(err).isZero();
            assertThat(dir.resolve("out/run.json")).exists();
            long asked = sim.counters().generationRequests();

            assertThat(eval(sim, "no-rag")).isZero(); // same configuration: resumes, nothing left to ask
            assertThat(sim.counters().generationRequests()).isEqualTo(asked);

            assertThat(eval(sim, "cot")).isEqualTo(2);
            assertThat(err.strip().lines()).singleElement().asString().contains("another configuration")
                    .contains("method: \"no-rag\" -> \"cot\"").contains("--force");
            assertThat(sim.counters().generationRequests()).isEqualTo(asked); // refused before any call

            assertThat(eval(sim, "cot", "--force")).as(err).isZero();
            assertThat(new ObjectMapper().readTree(dir.resolve("out/summary.json").toFile()).get("method").asText())
                    .isEqualTo("cot");
            assertThat(Files.readAllLines(dir.resolve("out/results.jsonl"))).hasSize(2);
        }
    }

    @Test
    void theSummaryRecordsBuildDatasetChecksumSamplingAndConfigurationAndAnEditedFileIsNotResumed() throws Exception {
        try (SimServer sim = SimServer.start(SimConfig.builder().build())) {
            assertThat(eval(sim, "cot-sc", "--option", "k=3")).as(err).isZero();
            var summary = new ObjectMapper().readTree(dir.resolve("out/summary.json").toFile());
            String sha = RunConfig.sha256(dir.resolve("nq.jsonl"));
            assertThat(sha).hasSize(64).isEqualTo(java.util.HexFormat.of().formatHex(java.security.MessageDigest
                    .getInstance("SHA-256").digest(Files.readAllBytes(dir.resolve("nq.jsonl")))));
            assertThat(summary.at("/config/data_sha256").asText()).isEqualTo(sha);
            assertThat(summary.at("/config/method").asText()).isEqualTo("cot-sc");
            assertThat(summary.at("/config/method_options/k").asText()).isEqualTo("3");
            assertThat(summary.at("/build/version").asText()).isEqualTo(dev.veracity.config.BuildInfo.current().version())
                    .isNotEqualTo("unknown");
            assertThat(summary.at("/build/commit").asText()).matches("[0-9a-f]{40}|unknown");
            // what the model was asked with, per role: cot-sc samples n=3 at a temperature above 0
            var settings = summary.at("/sampling");
            assertThat(settings.size()).as(settings.toString()).isPositive();
            assertThat(settings.toString()).contains("\"n\":3").doesNotContain("first_sample");
            // the client's concurrency: a number when fixed, where auto (eval's default) settled otherwise
            assertThat(summary.at("/concurrency").isInt() || summary.at("/concurrency_limit/settled").isInt())
                    .as(summary.toString()).isTrue();

            // the report shows the same record on the run's page
            Path report = dir.resolve("report");
            assertThat(CliRun.run("report", dir.resolve("out").toString(), "--out",
                    report.toString()).code()).isZero();
            try (var pages = Files.walk(report)) {
                String runPage = Files.readString(pages.filter(p -> p.getFileName().toString().equals("index.html")
                        && !p.getParent().equals(report) && !p.getParent().getFileName().toString().equals("q"))
                        .findFirst().orElseThrow());
                assertThat(runPage).contains("How this run was made").contains(sha).contains("data_sha256");
            }

            // the same command over an edited dataset file is another run, refused before any call
            long asked = sim.counters().generationRequests();
            Files.writeString(dir.resolve("nq.jsonl"), "{\"question\": \"capital of spain\", \"answer\": [\"Madrid\"]}\n",
                    java.nio.file.StandardOpenOption.APPEND);
            assertThat(eval(sim, "cot-sc", "--option", "k=3")).isEqualTo(2);
            assertThat(err).contains("data_sha256").contains("--force");
            assertThat(sim.counters().generationRequests()).isEqualTo(asked);
        }
    }

    @Test
    void aRefusedCommandLeavesNothingThatRefusesTheCorrectedOne() throws Exception {
        Path out = dir.resolve("out");
        try (SimServer sim = SimServer.start(SimConfig.builder().build())) {
            // a mistyped metric: refused before run.json is written, so the corrected command runs
            assertThat(eval(sim, "no-rag", "--metric", "emm")).isEqualTo(2);
            assertThat(err).contains("unknown metric 'emm'");
            assertThat(out).doesNotExist();
            // refused after the folder was claimed (an index that is none): the claim is taken back
            assertThat(eval(sim, "standard-rag", "--index", dir.resolve("no-index").toString())).isEqualTo(2);
            assertThat(err).contains("not a Veracity index");
            assertThat(out).doesNotExist();
            Files.createDirectories(out);
            Path index = dir.resolve("idx");
            Files.writeString(dir.resolve("corpus.jsonl"), "{\"id\": \"1\", \"title\": \"France\", \"text\": \"Paris is"
                    + " the capital of France.\"}\n");
            assertThat(CliRun.run("index", "--corpus", dir.resolve("corpus.jsonl").toString(), "--out", index.toString())
                    .code()).isZero();
            assertThat(eval(sim, "standard-rag", "--index", index.toString(), "--search-mode", "bm52")).isEqualTo(2);
            assertThat(err).contains("Unknown search mode 'bm52'");
            try (var left = Files.list(out)) {
                assertThat(left.toList()).as("an existing folder keeps what it had: nothing").isEmpty();
            }
            assertThat(sim.counters().generationRequests()).isZero();

            assertThat(eval(sim, "no-rag", "--metric", "em")).as(err).isZero();
            assertThat(new ObjectMapper().readTree(out.resolve("summary.json").toFile()).at("/config/metrics/0").asText())
                    .isEqualTo("em");
        }
    }

    @Test
    void aSecondEvalIntoAFolderInUseIsRefusedAtOnce() throws Exception {
        try (SimServer sim = SimServer.start(SimConfig.builder().build());
             dev.veracity.eval.run.RunLock running = dev.veracity.eval.run.RunLock.acquire(dir.resolve("out"))) {
            assertThat(eval(sim, "no-rag")).isEqualTo(2);
            assertThat(err.strip().lines()).singleElement().asString().contains(dir.resolve("out") + " is in use by"
                    + " another eval (pid " + ProcessHandle.current().pid());
            assertThat(sim.counters().totalRequests()).as("not even the preflight").isZero();
            assertThat(dir.resolve("out/run.json")).doesNotExist();
        }
    }
}
