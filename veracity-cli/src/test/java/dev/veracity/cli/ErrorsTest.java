package dev.veracity.cli;

import static dev.veracity.cli.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.veracity.cli.CliRun.Result;
import dev.veracity.testing.Shared;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Errors a user can act on: one line, the right exit code, no stack trace unless --debug. */
class ErrorsTest {

    @TempDir
    Path dir;

    @AfterEach
    void noDebug() {
        VeracityCli.debug = false;
    }

    @Test
    void aMalformedDatasetLineIsOneLineNamingFileAndLine() throws Exception {
        Path bad = dir.resolve("bad.jsonl");
        Files.writeString(bad, "{\"question\": \"a\", \"answer\": [\"b\"]}\n{bad json\n");
        Result r = run("eval", "--method", "no-rag", "--dataset", "nq-open", "--data", bad.toString(), "--out",
                dir.resolve("out").toString(), "--llm-base-url", "http://127.0.0.1:9/v1", "--cache", "off");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err().strip().lines().filter(l -> l.startsWith("veracity eval:")).toList()).singleElement()
                .asString().contains("bad.jsonl:2").contains("invalid JSON");
        assertThat(r.err()).doesNotContain("\tat ").doesNotContain("Exception:");
    }

    @Test
    void aFileThatWouldLoadIntoWrongNumbersIsRefusedBeforeAnyModelCall() throws Exception {
        Path ramdocs = Shared.data("ramdocs/RAMDocs_test.jsonl");
        Path latin1 = dir.resolve("latin1.jsonl");
        Files.write(latin1, ("{\"question\": \"q\", \"answer\": [\"a\"]}\n{\"question\": \"caf\u00e9\", \"answer\": [\"a\"]}\n")
                .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        Path twice = dir.resolve("twice.jsonl");
        Files.writeString(twice, "{\"id\": \"q1\", \"question\": \"a\", \"answer\": [\"b\"]}\n".repeat(2));
        Path empty = dir.resolve("empty.jsonl");
        Files.writeString(empty, "");
        java.util.Map<Path, String> expected = java.util.Map.of(
                ramdocs, "RAMDocs_test.jsonl:1: not a nq-open record: missing field \"answer\" or \"answers\"; it has the"
                        + " fields of ramdocs (--dataset ramdocs)",
                latin1, "latin1.jsonl:2: not UTF-8 text: byte 0xE9",
                twice, "twice.jsonl:2: duplicate id \"q1\"",
                empty, "empty.jsonl: the file is empty");
        try (dev.veracity.sim.SimServer sim = dev.veracity.sim.SimServer.start(dev.veracity.sim.SimConfig.builder().build())) {
            for (var e : expected.entrySet()) {
                Path out = dir.resolve("out-" + e.getKey().getFileName());
                Result r = run("eval", "--method", "no-rag", "--dataset", "nq-open", "--data", e.getKey().toString(),
                        "--out", out.toString(), "--llm-base-url", sim.baseUrl(), "--model", "sim-model", "--cache", "off");
                assertThat(r.code()).as(r.err()).isEqualTo(2);
                assertThat(r.err().strip().lines()).singleElement().asString().startsWith("veracity eval: " + e.getValue());
                assertThat(out).as("nothing written").doesNotExist();
                // the other commands that read datasets go through the same loader
                Result export = run("rl", "export", "--format", "verl", "--dataset", "nq-open", "--data", e.getKey().toString(),
                        "--prompt", "no-rag", "--out", dir.resolve("x.parquet").toString());
                assertThat(export.code()).isEqualTo(2);
                assertThat(export.err()).contains(e.getValue());
            }
            assertThat(sim.counters().generationRequests()).isZero();
        }
    }

    @Test
    void aBadServerUrlIsRejectedBeforeAnyWork() {
        Result r = run("verify", "--question", "q", "--response", "r", "--docs", dir.resolve("none.jsonl").toString(),
                "--llm-base-url", "not-a-url");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).doesNotContain("\tat ");
        Result e = run("eval", "--method", "no-rag", "--dataset", "nq-open", "--data", Shared.data("nq-open/NQ-open.dev.jsonl")
                .toString(), "--out", dir.resolve("o").toString(), "--limit", "1", "--llm-base-url", "not-a-url");
        assertThat(e.code()).isEqualTo(2);
        assertThat(e.err()).contains("llm-base-url").contains("not-a-url").contains("http://127.0.0.1:8000/v1")
                .doesNotContain("\tat ").doesNotContain("NullPointerException");
    }

    @Test
    void aServerThatIsDownOrLacksTheModelStopsTheRunBeforeAnyQuestion() throws Exception {
        Path nq = Shared.data("nq-open/NQ-open.dev.jsonl");
        Result down = run("eval", "--method", "no-rag", "--dataset", "nq-open", "--data", nq.toString(), "--out",
                dir.resolve("down").toString(), "--limit", "3", "--llm-base-url", "http://127.0.0.1:9/v1");
        assertThat(down.code()).isEqualTo(2);
        assertThat(down.err().strip().lines()).singleElement().asString().contains("cannot reach the model server")
                .contains("nothing was run");
        assertThat(dir.resolve("down")).doesNotExist();
        try (dev.veracity.sim.SimServer sim = dev.veracity.sim.SimServer.start(dev.veracity.sim.SimConfig.builder().build())) {
            Result wrong = run("eval", "--method", "no-rag", "--dataset", "nq-open", "--data", nq.toString(), "--out",
                    dir.resolve("wrong").toString(), "--limit", "3", "--llm-base-url", sim.baseUrl(), "--model", "qwen-72b");
            assertThat(wrong.code()).isEqualTo(2);
            assertThat(wrong.err()).contains("does not serve model 'qwen-72b'").contains("sim-model");
            assertThat(sim.counters().generationRequests()).isZero(); // only the GET /models
        }
    }

    @Test
    void unexpectedFailuresAreOneLineUnlessDebug() throws Exception {
        CommandLine cl = VeracityCli.commandLine();
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err));
        RuntimeException boom = new RuntimeException(new NullPointerException("host must not be null"));
        int code = cl.getExecutionExceptionHandler().handleExecutionException(boom, cl, null);
        assertThat(code).isEqualTo(1);
        assertThat(err.toString()).contains("host must not be null").contains("--debug").doesNotContain("\tat ");
        VeracityCli.withoutDebug(new String[] {"--debug"});
        StringWriter err2 = new StringWriter();
        cl.setErr(new PrintWriter(err2));
        cl.getExecutionExceptionHandler().handleExecutionException(boom, cl, null);
        assertThat(err2.toString()).contains("\tat ");
    }
}
