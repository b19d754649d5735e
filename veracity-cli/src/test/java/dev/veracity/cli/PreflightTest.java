package dev.veracity.cli;

import static dev.veracity.cli.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.veracity.cli.CliRun.Result;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The preflight ({@code GET /models}) stops a run before any question when the server is not an OpenAI-compatible
 * API, and says what to pass when only {@code /v1} is missing from the base URL.
 */
class PreflightTest {

    @TempDir
    Path dir;

    private Result eval(String baseUrl, String out, String... extra) throws Exception {
        Path data = dir.resolve("nq.jsonl");
        if (!Files.exists(data)) {
            Files.writeString(data, "{\"question\": \"capital of france\", \"answer\": [\"Paris\"]}\n");
        }
        List<String> args = new java.util.ArrayList<>(List.of("eval", "--method", "no-rag", "--dataset", "nq-open",
                "--data", data.toString(), "--out", dir.resolve(out).toString(), "--llm-base-url", baseUrl, "--model",
                "sim-model", "--cache", "off", "--timeout-seconds", "5"));
        args.addAll(List.of(extra));
        return run(args.toArray(String[]::new));
    }

    /** A web server that is no model server: every request gets {@code status} with {@code body}. */
    private static HttpServer server(int status, String contentType, String body, AtomicInteger requests) throws Exception {
        HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        s.createContext("/", ex -> {
            requests.incrementAndGet();
            byte[] b = body.getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", contentType);
            ex.sendResponseHeaders(status, b.length == 0 ? -1 : b.length);
            if (b.length > 0) {
                ex.getResponseBody().write(b);
            }
            ex.close();
        });
        s.start();
        return s;
    }

    @Test
    void aBaseUrlWithoutV1IsRefusedNamingTheUrlThatAnswers() throws Exception {
        try (SimServer sim = SimServer.start(SimConfig.builder().build())) {
            String root = sim.baseUrl().replaceFirst("/v1/?$", "");
            Result r = eval(root, "out");
            assertThat(r.code()).isEqualTo(2);
            assertThat(r.err().strip().lines()).singleElement().asString()
                    .contains("answered GET " + root + "/models with HTTP 404")
                    .contains("its OpenAI-compatible API is at " + root + "/v1: pass --llm-base-url " + root + "/v1")
                    .endsWith("(nothing was run)");
            assertThat(sim.counters().generationRequests()).isZero();
            assertThat(dir.resolve("out")).doesNotExist();
            // with the URL it names, the same command runs
            assertThat(eval(root + "/v1", "out").code()).isZero();
        }
    }

    @Test
    void aServerThatIsNotAnOpenAiApiStopsTheRunBeforeAnyQuestion() throws Exception {
        record Case(int status, String contentType, String body, String answered) {
        }
        for (Case c : List.of(
                new Case(404, "text/html", "<h1>Not Found</h1>", "HTTP 404"),
                new Case(501, "text/html", "<p>Unsupported method</p>", "HTTP 501"),
                new Case(405, "text/plain", "", "HTTP 405"),
                new Case(200, "text/html; charset=utf-8", "<!DOCTYPE html><html><body>Welcome to nginx!</body></html>",
                        "a body that is not JSON (text/html; charset=utf-8)"))) {
            AtomicInteger requests = new AtomicInteger();
            HttpServer web = server(c.status(), c.contentType(), c.body(), requests);
            try {
                String url = "http://127.0.0.1:" + web.getAddress().getPort() + "/v1";
                Result r = eval(url, "out-" + c.status());
                assertThat(r.code()).as(c.toString()).isEqualTo(2);
                assertThat(r.err().strip().lines()).singleElement().asString()
                        .contains("the model server at " + url + " is not an OpenAI-compatible API (GET " + url + "/models"
                                + " answered " + c.answered() + ")")
                        .contains("--no-preflight").endsWith("(nothing was run)");
                assertThat(requests.get()).as("only the preflight's GET").isEqualTo(1);
                assertThat(dir.resolve("out-" + c.status())).doesNotExist();
                // without /v1 the advice is the /v1 one (and /v1 is asked once: it is not there either)
                String root = "http://127.0.0.1:" + web.getAddress().getPort();
                Result noV1 = eval(root, "out-root");
                assertThat(noV1.err()).contains("such a base URL ends in /v1").doesNotContain("pass --llm-base-url");
            } finally {
                web.stop(0);
            }
        }
    }

    @Test
    void aServerErrorOnModelsIsLeftToTheClientsRetries() throws Exception {
        AtomicInteger requests = new AtomicInteger();
        HttpServer web = server(503, "application/json", "{\"error\": {\"message\": \"loading\"}}", requests);
        Path config = Files.writeString(dir.resolve("config.properties"), "max-attempts=1\n");
        try {
            Result r = eval("http://127.0.0.1:" + web.getAddress().getPort() + "/v1", "out", "--no-preflight", "--config",
                    config.toString());
            assertThat(requests.get()).as("no preflight: the question was asked").isEqualTo(1);
            assertThat(r.code()).isNotZero();
            Result checked = eval("http://127.0.0.1:" + web.getAddress().getPort() + "/v1", "out2", "--config",
                    config.toString());
            assertThat(requests.get()).as("the preflight's GET, then the question").isEqualTo(3);
            assertThat(checked.err()).doesNotContain("not an OpenAI-compatible API");
        } finally {
            web.stop(0);
        }
    }
}
