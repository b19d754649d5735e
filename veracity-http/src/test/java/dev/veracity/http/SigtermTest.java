package dev.veracity.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A server process gets SIGTERM with requests in flight: it stops within seconds and its port is free. */
class SigtermTest {

    @Test
    void sigtermLetsTheQuickRequestFinishCancelsTheSlowOneAndFreesThePortWithinSeconds() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                SlowServerMain.class.getName(), "1000").redirectErrorStream(true).start();
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        CompletableFuture<Integer> port = new CompletableFuture<>();
        Thread reader = Thread.ofVirtual().start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    lines.add(line);
                    if (line.startsWith("PORT ")) {
                        port.complete(Integer.parseInt(line.substring(5)));
                    }
                }
            } catch (java.io.IOException ignored) {
                // the process ended
            }
        });
        try {
            int n = port.get(30, TimeUnit.SECONDS);
            HttpClient client = HttpClient.newHttpClient();
            CompletableFuture<HttpResponse<String>> slow = client.sendAsync(post(n, "/slow"), HttpResponse.BodyHandlers.ofString());
            awaitLine(lines, "slow started");
            CompletableFuture<HttpResponse<String>> quick = client.sendAsync(post(n, "/quick"), HttpResponse.BodyHandlers.ofString());
            awaitLine(lines, "quick started");
            sigterm(p);
            // /slow would run ten minutes: the process stops only by cancelling it when the 1 s grace is over
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("stopped; output: " + lines).isTrue();
            reader.join(Duration.ofSeconds(60));
            HttpResponse<String> q = quick.get(5, TimeUnit.SECONDS);
            assertThat(q.statusCode()).as(q.body()).isEqualTo(200);
            assertThat(lines).contains("quick done", "slow interrupted");
            // the slow one is answered 503 "stopping" at the end of the grace, which a client retries
            assertThat(slow.handle((r, e) -> r == null ? String.valueOf(e) : r.statusCode() + " " + r.body())
                    .get(5, TimeUnit.SECONDS)).as("output: " + lines).startsWith("503 ").contains("\"code\":\"stopping\"");
            assertThat(lines).anySatisfy(l -> assertThat(l).contains("INFO stopped in").contains("1 request still running was cancelled"));
            try (ServerSocket again = new ServerSocket(n, 50, InetAddress.getLoopbackAddress())) {
                assertThat(again.getLocalPort()).isEqualTo(n);
            }
        } finally {
            p.destroyForcibly();
        }
    }

    /** SIGTERM, as a container stop or {@code kill} sends. Not {@link Process#destroy()}: it closes our end of the pipes. */
    static void sigterm(Process p) throws Exception {
        assertThat(new ProcessBuilder("kill", "-TERM", Long.toString(p.pid())).start().waitFor()).isZero();
    }

    static void awaitLine(List<String> lines, String line) throws InterruptedException {
        for (int i = 0; i < 300 && !lines.contains(line); i++) {
            Thread.sleep(50);
        }
        assertThat(lines).contains(line);
    }

    private static HttpRequest post(int port, String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build();
    }
}
