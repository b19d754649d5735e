package dev.veracity.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.veracity.llm.client.LlmClient;
import dev.veracity.llm.openai.OpenAiCompatibleBackend;
import dev.veracity.server.MethodService;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link McpStdio#serve} ends when the host's side of stdin ends or breaks, and {@link RunSummaries} lists what it can. */
class McpStdioEndTest {

    @TempDir
    Path runs;

    @Test
    void aStdinThatFailsEndsTheSessionAsItsEndDoes() throws Exception {
        try (OpenAiCompatibleBackend backend = OpenAiCompatibleBackend.builder().baseUrl("http://127.0.0.1:9/v1")
                .model("m").build();
             MethodService service = MethodService.builder()
                     .upstream(backend, List.of("m"), (pinned, traces) -> LlmClient.builder(pinned).traces(traces).build())
                     .build()) {
            VeracityMcp mcp = VeracityMcp.builder(service).build();
            InputStream broken = new InputStream() {
                @Override
                public int read() throws IOException {
                    throw new IOException("the host's pipe broke");
                }
            };
            Thread serving = Thread.ofVirtual().start(() -> {
                try {
                    McpStdio.serve(mcp, broken, OutputStream.nullOutputStream());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            // bounded: without the fix the session waits for an end of input that never comes
            assertThat(serving.join(Duration.ofSeconds(60))).as("serve returned").isTrue();
        }
    }

    @Test
    void runSummariesAreFoundInTheRunsFoldersBelow() throws Exception {
        Files.createDirectories(runs.resolve("a"));
        Files.writeString(runs.resolve("a/summary.json"), "{\"method\": \"march\"}");
        Files.createDirectories(runs.resolve("b/c"));
        Files.writeString(runs.resolve("b/c/summary.json"), "{\"method\": \"court\"}");
        assertThat(RunSummaries.of(runs)).extracting(r -> r.resource().uri())
                .containsExactly("veracity://runs/a/summary.json", "veracity://runs/b/c/summary.json");
    }
}
