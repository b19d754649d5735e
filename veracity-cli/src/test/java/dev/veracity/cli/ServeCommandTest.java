package dev.veracity.cli;

import static dev.veracity.cli.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.cli.CliRun.Result;
import dev.veracity.sim.LatencyModel;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import dev.veracity.testing.Await;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code veracity serve} as a process (start, answer, SIGTERM finishing the request in flight), its refusals, the bench. */
class ServeCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String BODY = "{\"model\": \"standard-rag\", \"messages\": [{\"role\": \"user\", \"content\":"
            + " \"Where is the Eiffel Tower?\"}], \"documents\": [\"The Eiffel Tower is located in Paris.\"]}";

    /**
     * SIGTERM while a request is inside the method: it is answered in full, then the process ends and frees its port.
     * The request counts as in flight once the simulator is generating for it; the simulator's requests in flight are
     * not enough, since they count serve's own start-up check of {@code /models}, which runs as the URL is printed:
     * a SIGTERM sent on it could reach a request not yet accepted, whose connection the stop closes without a byte (the
     * JDK client's "header parser received no bytes", seen once).
     */
    @Test
    void theCommandStartsPrintsItsUrlAnswersAndOnSigtermFinishesTheRequestInFlight() throws Exception {
        try (SimServer sim = SimServer.start(SimConfig.builder().latency(LatencyModel.ofMillis(800, 0)).build());
             CliProcess serve = CliProcess.start("serve", "--port", "0", "--upstream-base-url", sim.baseUrl(), "--model",
                     "sim-model", "--stop-grace-seconds", "5")) {
            String v1 = serve.url("Serving ");
            assertThat(v1).startsWith("http://127.0.0.1:").endsWith("/v1");
            int port = URI.create(v1).getPort();
            HttpClient client = HttpClient.newHttpClient();
            HttpRequest ask = HttpRequest.newBuilder(URI.create(v1 + "/chat/completions"))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(BODY)).build();
            CompletableFuture<HttpResponse<String>> inFlight = client.sendAsync(ask, HttpResponse.BodyHandlers.ofString());
            Await.until("the method's call is generating; " + sim.counters(), () -> sim.counters().generating() == 1);
            serve.terminate();
            HttpResponse<String> answered = inFlight.get(10, TimeUnit.SECONDS);
            assertThat(answered.statusCode()).as(answered.body()).isEqualTo(200);
            assertThat(JSON.readTree(answered.body()).at("/choices/0/message/content").asText()).contains("Paris");
            assertThat(serve.process().waitFor(10, TimeUnit.SECONDS)).as("stderr " + serve.err()).isTrue();
            try (ServerSocket again = new ServerSocket(port, 50, InetAddress.getLoopbackAddress())) {
                assertThat(again.getLocalPort()).isEqualTo(port);
            }
        }
    }

    /**
     * {@code --upstream-base-url A,B}: the methods' calls are shared between the two upstreams; with one of them gone the
     * requests are still answered (by the other) and {@code /readyz} stays ready; with both gone it is not.
     */
    @Test
    void severalUpstreamsShareTheCallsAndOneGoneLeavesItReady() throws Exception {
        SimServer a = SimServer.start(SimConfig.builder().build());
        SimServer b = SimServer.start(SimConfig.builder().build());
        try (CliProcess serve = CliProcess.start("serve", "--port", "0", "--upstream-base-url",
                a.baseUrl() + "," + b.baseUrl(), "--model", "sim-model")) {
            String v1 = serve.url("Serving ");
            String root = v1.substring(0, v1.length() - "/v1".length());
            HttpClient client = HttpClient.newHttpClient();
            HttpRequest ask = HttpRequest.newBuilder(URI.create(v1 + "/chat/completions"))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(BODY)).build();
            for (int i = 0; i < 4; i++) {
                HttpResponse<String> r = client.send(ask, HttpResponse.BodyHandlers.ofString());
                assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            }
            assertThat(a.counters().generationRequests()).isPositive();
            assertThat(b.counters().generationRequests()).isPositive();
            HttpRequest ready = HttpRequest.newBuilder(URI.create(root + "/readyz")).build();

            a.close();
            for (int i = 0; i < 4; i++) {
                HttpResponse<String> r = client.send(ask, HttpResponse.BodyHandlers.ofString());
                assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            }
            Await.until("ready on the other upstream", () -> send(client, ready).statusCode() == 200);

            b.close();
            Await.until("not ready with both gone", () -> send(client, ready).statusCode() == 503);
            assertThat(send(client, ready).body()).contains("none of the 2 upstreams is ready");
        } finally {
            a.close();
            b.close();
        }
    }

    private static HttpResponse<String> send(HttpClient client, HttpRequest request) {
        try {
            return client.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void theHelpStatesServesOwnCacheDefaultAndTheOptionStillSetsIt() throws Exception {
        Result help = run("serve", "--help");
        assertThat(help.code()).isZero();
        String cache = help.out().substring(help.out().indexOf("      --cache=MODE")).replaceAll("\\s+", " ").strip();
        assertThat(cache).startsWith("--cache=MODE Response cache: off, read-only or read-write (env VERACITY_CACHE;"
                + " default off: a server answers live questions");
        // every other command keeps read-write, and serve's --cache still reaches the shared options
        assertThat(run("eval", "--help").out().replaceAll("\\s+", " ")).contains("(env VERACITY_CACHE; default read-write)");
        picocli.CommandLine cl = VeracityCli.commandLine(new String[] {"serve"});
        cl.parseArgs("serve", "--cache", "read-only");
        ServeCommand serve = cl.getSubcommands().get("serve").getCommand();
        assertThat(serve.model.cache).isEqualTo("read-only");
    }

    @Test
    void refusalsAreOneLineWithExitTwo(@TempDir Path dir) throws Exception {
        Result open = run("serve", "--host", "0.0.0.0", "--port", "0", "--llm-base-url", "http://127.0.0.1:9/v1");
        assertThat(open.code()).isEqualTo(2);
        assertThat(open.err().strip()).startsWith("veracity serve: no API keys are configured").contains("--insecure-listen")
                .doesNotContain("\n");
        Result twice = run("serve", "--port", "0", "--upstream-base-url", "http://a/v1", "--llm-base-url", "http://b/v1");
        assertThat(twice.code()).isEqualTo(2);
        assertThat(twice.err()).contains("give the upstream once");
        Path keys = dir.resolve("keys");
        Files.writeString(keys, "tooshort\n");
        Result badKeys = run("serve", "--port", "0", "--api-keys-file", keys.toString());
        assertThat(badKeys.code()).isEqualTo(2);
        assertThat(badKeys.err()).contains("line 1").contains("at least 16 characters").doesNotContain("tooshort");
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Result busy = run("serve", "--port", Integer.toString(taken.getLocalPort()), "--llm-base-url", "http://127.0.0.1:9/v1");
            assertThat(busy.code()).isEqualTo(2);
            assertThat(busy.err()).contains("cannot listen on that port");
        }
    }

    @Test
    void aTinyBenchRunMeasuresOverheadWithoutErrors() {
        // --warmup-max 0: no rounds past --warmup (by default the warm-up goes on until the JIT settles, minutes)
        Result r = run("bench", "serve", "--requests", "40", "--clients", "4", "--warmup", "10", "--warmup-max", "0",
                "--latency-ms", "5", "--jitter", "0.2", "--rounds", "2", "--method", "standard-rag,madam-rag");
        String out = r.out();
        assertThat(r.code()).as(out).isZero();
        assertThat(out).contains("== veracity serve: 40 requests per method from 4 clients");
        assertThat(out.lines().filter(l -> l.contains("overhead over the critical path") && !l.contains("target"))
                .toList()).hasSize(4).allSatisfy(l -> assertThat(l).contains("round ").endsWith("errors 0"));
        // issue 16's 5 ms target beside each method's median p99
        assertThat(out.lines().filter(l -> l.contains("target <= 5 ms   ratio ")).toList()).hasSize(2)
                .allSatisfy(l -> assertThat(l).contains("p99 overhead over the critical path (median of 2 rounds): "));
        assertThat(out.lines().filter(l -> l.contains("slowest 1%")).toList()).hasSize(4).allSatisfy(l -> assertThat(l)
                .contains("HTTP hop").contains("server around the pipeline").contains("pipeline around its calls")
                .contains("between calls"));
        assertThat(out.lines().filter(l -> l.contains("p99 overhead over 2 rounds: median")).toList()).hasSize(2);
        assertThat(out).contains("standard-rag   round 1: 1.0 calls/request").contains("RSS ")
                .contains("at 5 ms per call +-20%").contains("Plumbing figures, not a model's");
        assertThat(out.lines().filter(l -> l.contains("warm-up 10 requests; clients start")).toList()).hasSize(2);
    }
}
