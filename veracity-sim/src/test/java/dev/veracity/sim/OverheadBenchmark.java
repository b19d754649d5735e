package dev.veracity.sim;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Latency of sequential chat requests at zero simulated latency: the client round trip to a
 * {@link SimServer}, to a bare JDK HttpServer answering a canned body (the floor), and the time spent
 * inside the simulator's handler (its own overhead: parse, rules, JSON, response write). Prints only;
 * timings are not asserted. Run with
 * {@code mvn -pl veracity-sim test -Dsim.bench=true -Dtest=OverheadBenchmark}.
 */
@EnabledIfSystemProperty(named = "sim.bench", matches = "true")
class OverheadBenchmark {

    private static final int WARMUP = 10_000;
    private static final int MEASURED = 5000;
    private static final String BODY = "{\"model\":\"sim-model\",\"messages\":[{\"role\":\"system\",\"content\":\"Be brief.\"},"
            + "{\"role\":\"user\",\"content\":\"What is the capital of France?\"}],\"temperature\":0.7,\"max_tokens\":64,\"top_k\":40}";
    private static final SimConfig CONFIG = SimConfig.builder()
            .rules(Rule.of("capital of (\\w+)", "The capital of {{1}} is Paris.")).build();

    @Test
    void sequentialRoundTrips() throws Exception {
        for (int round = 1; round <= 2; round++) {
            System.out.println("round " + round);
            try (SimServer sim = SimServer.start(CONFIG)) {
                roundTrips("simulator round trip", URI.create(sim.baseUrl() + "/chat/completions"));
            }
            timed(bareHandler(), "bare JDK server");
            timed(new SimHandler(CONFIG, new SimCounters(), new RequestLog<>(256), new RequestLog<>(256),
                    new CountDownLatch(1), null), "simulator handler");
        }
    }

    /** Round trips to {@code handler}, then the time spent inside it (response write included). */
    private static void timed(HttpHandler handler, String label) throws Exception {
        long[] inside = new long[WARMUP + MEASURED];
        int[] next = {0};
        serve(ex -> {
            long start = System.nanoTime();
            handler.handle(ex);
            inside[next[0]++] = (System.nanoTime() - start) / 1000;
        }, label + ", round trip");
        print("  " + label + ", time inside the handler", Arrays.copyOfRange(inside, WARMUP, WARMUP + MEASURED));
    }

    private static HttpHandler bareHandler() {
        byte[] canned = ("{\"id\":\"chatcmpl-x\",\"object\":\"chat.completion\",\"created\":1,\"model\":\"sim-model\",\"choices\":[{\"index\":0,"
                + "\"message\":{\"role\":\"assistant\",\"content\":\"The capital of France is Paris.\",\"refusal\":null},\"logprobs\":null,"
                + "\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":7,\"total_tokens\":17}}")
                .getBytes(StandardCharsets.UTF_8);
        return ex -> {
            ex.getRequestBody().readAllBytes();
            ex.getResponseHeaders().set("Content-Type", "application/json");
            ex.sendResponseHeaders(200, canned.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(canned);
            }
        };
    }

    /** Serves {@code handler} the way SimServer does (loopback, virtual threads) and measures round trips. */
    private static void serve(HttpHandler handler, String label) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            server.setExecutor(executor);
            server.createContext("/", handler);
            server.start();
            roundTrips(label, URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/v1/chat/completions"));
        } finally {
            server.stop(0);
        }
    }

    private static void roundTrips(String label, URI uri) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(uri).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(BODY)).build();
        for (int i = 0; i < WARMUP; i++) {
            assertThat(Http.CLIENT.send(request, HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
        }
        long[] micros = new long[MEASURED];
        for (int i = 0; i < MEASURED; i++) {
            long start = System.nanoTime();
            HttpResponse<String> r = Http.CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
            micros[i] = (System.nanoTime() - start) / 1000;
            assertThat(r.statusCode()).isEqualTo(200);
        }
        print("  " + label, micros);
    }

    private static void print(String label, long[] micros) {
        long[] sorted = micros.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        System.out.printf("%-45s n=%d  p50 %4d µs  p90 %4d µs  p99 %5d µs%n", label, n, sorted[n / 2], sorted[n * 9 / 10], sorted[n * 99 / 100]);
    }
}
