package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code eval}'s arguments are checked before anything runs: no server is needed, none is called. */
class EvalOptionsTest {

    @TempDir
    Path dir;

    private String err;

    private int eval(String... extra) throws Exception {
        Path data = dir.resolve("d.jsonl");
        Files.writeString(data, "{\"question\": \"q\", \"answers\": [\"a\"]}\n");
        String[] base = {"eval", "--dataset", "nq-open", "--data", data.toString(), "--out", dir.resolve("out").toString(),
                "--llm-base-url", "http://127.0.0.1:9/v1", "--model", "none"};
        String[] args = new String[base.length + extra.length];
        System.arraycopy(base, 0, args, 0, base.length);
        System.arraycopy(extra, 0, args, base.length, extra.length);
        CliRun.Result r = CliRun.run(args);
        err = r.err();
        return r.code();
    }

    @Test
    void unknownOptionKeyIsRejectedWithTheMethodsOptions() throws Exception {
        assertThat(eval("--method", "madam-rag", "--option", "round=2")).isEqualTo(2);
        assertThat(err).contains("unknown option 'round' for method madam-rag")
                .contains("rounds=3 (int)").contains("history=others (enum(others|aggregator|both))");
        assertThat(err.strip().lines()).hasSize(1);
        assertThat(dir.resolve("out")).doesNotExist();
    }

    @Test
    void valueOfTheWrongTypeIsRejected() throws Exception {
        assertThat(eval("--method", "madam-rag", "--option", "rounds=abc")).isEqualTo(2);
        assertThat(err).contains("option rounds must be an int, was 'abc'").contains("rounds=3");
        assertThat(dir.resolve("out")).doesNotExist();
    }

    @Test
    void negativeLimitSaysWhatIsWrong() throws Exception {
        assertThat(eval("--method", "no-rag", "--limit", "-3")).isEqualTo(2);
        assertThat(err).contains("--limit must be >= 0").doesNotContain("twice");
        assertThat(eval("--method", "no-rag", "--limit=-3")).isEqualTo(2);
        assertThat(err).contains("--limit must be >= 0");
        assertThat(eval("--method", "no-rag", "--limit", "x")).isEqualTo(2);
        assertThat(err).contains("--limit");
    }
}
