package dev.veracity.llm.llamacpp;

import dev.veracity.llm.LlmBackend;
import dev.veracity.llm.LlmBackendContractTest;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** The shared backend contract, run against a real llama.cpp on a tiny random-weight GGUF. */
class LlamaCppBackendTest extends LlmBackendContractTest {

    @TempDir
    static Path dir;

    private static LlamaCppBackend backend;

    @BeforeAll
    static void load() {
        backend = LlamaCppBackend.builder(TinyGguf.write(dir, 42)).threads(2).build();
    }

    @AfterAll
    static void close() {
        if (backend != null) {
            backend.close();
        }
    }

    @Override
    protected LlmBackend backend() {
        return backend;
    }
}
