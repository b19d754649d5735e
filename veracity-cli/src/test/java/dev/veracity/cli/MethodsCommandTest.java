package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.veracity.methods.Methods;
import org.junit.jupiter.api.Test;

class MethodsCommandTest {

    private String out;
    private String err;

    private int run(String... args) {
        CliRun.Result r = CliRun.run(args);
        out = r.out();
        err = r.err();
        return r.code();
    }

    @Test
    void listsEveryMethodWithItsSectionAndOptions() {
        assertThat(run("methods")).isEqualTo(0);
        for (String name : Methods.names()) {
            assertThat(out).contains(name + "  ");
        }
        assertThat(out).contains("implements: MADAM-RAG, Section 4")
                .contains("rounds=3").contains("history=others")
                .contains("k=21").contains("temperature=0.7")
                .contains("policy=report").contains("samples=3");
    }

    @Test
    void showsOneMethod() {
        assertThat(run("methods", "cot-sc")).isEqualTo(0);
        assertThat(out).startsWith("cot-sc  ").contains("k=21").contains("needs: nothing (closed book)")
                .doesNotContain("madam-rag");
        assertThat(run("methods", "c3po")).isEqualTo(0);
        assertThat(out).contains("needs: documents, model:proxy");
        assertThat(run("methods", "court")).isEqualTo(0);
        assertThat(out).contains("needs: documents, pages");
        assertThat(run("methods", "speculative-rag+march")).isEqualTo(0);
        assertThat(out).contains("needs: documents, embedder, model:march-untrained");
        assertThat(run("methods", "nope")).isEqualTo(2);
        assertThat(err).contains("unknown method 'nope'").contains("madam-rag");
    }
}
