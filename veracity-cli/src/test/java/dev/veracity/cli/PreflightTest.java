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

    /** A free port nothing listens on (taken and given back): a server that is down. */
    private static int deadPort() throws Exception {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /**
     * Several servers: one down at the start is a warning naming it, and the run goes on with the others (which
     * answer every question); all down is the one-line error naming each; a wrong model on any is an error.
     */
    @Test
    void ofSeveralServersOneDownIsAWarningAndAllDownIsTheError() throws Exception {
        String dead = "http://127.0.0.1:" + deadPort() + "/v1";
        String alsoDead = "http://127.0.0.1:" + deadPort() + "/v1";
        try (SimServer a = SimServer.start(SimConfig.builder().build());
             SimServer b = SimServer.start(SimConfig.builder().build())) {
            Path data = dir.resolve("nq.jsonl");
            Files.writeString(data, "{\"question\": \"capital of france\", \"answer\": [\"Paris\"]}\n"
                    + "{\"question\": \"capital of italy\", \"answer\": [\"Rome\"]}\n");
            Result r = CliRun.runWithStderrInOut("eval", "--method", "no-rag", "--dataset", "nq-open", "--data",
                    data.toString(), "--out", dir.resolve("one-down").toString(), "--llm-base-url",
                    a.baseUrl() + "," + dead + "," + b.baseUrl(), "--model", "sim-model", "--cache", "off",
                    "--timeout-seconds", "5");
            assertThat(r.code()).isZero();
            assertThat(r.out()).contains("warning: the model server at " + dead + " is down (")
                    .contains("the run starts on the other 2, and it gets calls again once a probe finds it up");
            assertThat(r.out().replaceAll("\\s+", " ")) // the ending's line, unwrapped
                    .containsPattern("Model servers: " + java.util.regex.Pattern.quote(a.baseUrl()) + " answered \\d+; "
                            + java.util.regex.Pattern.quote(dead) + " answered \\d+( \\(\\d+ failed[^)]*\\))?; "
                            + java.util.regex.Pattern.quote(b.baseUrl()) + " answered \\d+\\.");
            assertThat(Files.readAllLines(dir.resolve("one-down/results.jsonl"))).hasSize(2);
            assertThat(a.counters().generationRequests() + b.counters().generationRequests()).isEqualTo(2);
            com.fasterxml.jackson.databind.JsonNode servers = new com.fasterxml.jackson.databind.ObjectMapper()
                    .readTree(dir.resolve("one-down/summary.json").toFile()).path("endpoints");
            assertThat(servers).hasSize(3);
            assertThat(servers.get(1).path("endpoint").asText()).isEqualTo("openai:" + dead);
            assertThat(servers.get(1).path("answered").asLong()).isZero();
            assertThat(servers.get(0).path("answered").asLong() + servers.get(2).path("answered").asLong()).isEqualTo(2);

            Result all = eval(dead + "," + alsoDead, "all-down");
            assertThat(all.code()).isEqualTo(2);
            assertThat(all.err().strip().lines()).singleElement().asString()
                    .startsWith("veracity eval: none of the 2 model servers answers (" + dead + ": ")
                    .contains("; " + alsoDead + ": ")
                    .endsWith("start them, or fix --llm-base-url (nothing was run)");

            Result wrongModel = run("eval", "--method", "no-rag", "--dataset", "nq-open", "--data", data.toString(),
                    "--out", dir.resolve("wrong-model").toString(), "--llm-base-url", a.baseUrl() + "," + b.baseUrl(),
                    "--model", "other", "--cache", "off");
            assertThat(wrongModel.code()).isEqualTo(2);
            assertThat(wrongModel.err()).contains("does not serve model 'other'");
            assertThat(dir.resolve("all-down")).doesNotExist();
        }
    }
}
