package dev.veracity.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.veracity.sim.FaultKind;
import dev.veracity.sim.FaultPlan;
import dev.veracity.sim.LatencyModel;
import dev.veracity.sim.SimConfig;
import dev.veracity.trace.CallRecord;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Work nobody waits for any more is stopped, upstream calls included: a streaming client that leaves, a request past
 * its deadline; and a stop lets the requests in flight finish.
 */
class CancellationTest {

    /** An upstream that hangs on every call for 20 s. */
    private static SimConfig hanging() {
        FaultKind[] hang = new FaultKind[20];
        java.util.Arrays.fill(hang, FaultKind.HANG);
        return SimConfig.builder().faults(FaultPlan.script(hang).withHangDuration(Duration.ofSeconds(20))).build();
    }

    /** Waits for the first call record of the server; the upstream call ended (failed) by then. */
    private static CallRecord firstCall(Served s, long withinMs) throws InterruptedException {
        long until = System.nanoTime() + withinMs * 1_000_000;
        while (System.nanoTime() < until) {
            List<CallRecord> all = s.calls.all();
            if (!all.isEmpty()) {
                return all.getFirst();
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the upstream call was not cancelled within " + withinMs + " ms");
    }

    @Test
    void aStreamingClientThatLeavesHasItsMethodAndUpstreamCallCancelled() throws Exception {
        try (Served s = Served.start(hanging(), x -> x.withKeepAlive(Duration.ofMillis(100)), b -> b, Duration.ofSeconds(60))) {
            byte[] body = Http.chat("standard-rag", "\"stream\": true").getBytes(StandardCharsets.UTF_8);
            long left;
            try (Socket socket = new Socket("127.0.0.1", s.server.port())) {
                socket.setSoTimeout(10_000);
                OutputStream out = socket.getOutputStream();
                out.write(("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                        + "Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(body);
                out.flush();
                BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
                assertThat(in.readLine()).isEqualTo("HTTP/1.1 200 OK");
                String line;
                do {
                    line = in.readLine();
                } while (line != null && !line.contains(": keep-alive"));
                assertThat(line).contains(": keep-alive");
                left = System.nanoTime();
            }
            // the next keep-alive writes fail, the method is cancelled, its hanging upstream call with it
            CallRecord call = firstCall(s, 5000);
            assertThat(call.error()).as("the upstream call ended as cancelled, not answered").isNotNull();
            long cancelledAfterMs = (call.endedMicros() * 1000 - System.currentTimeMillis() * 1_000_000
                    + System.nanoTime() - left) / 1_000_000;
            assertThat(cancelledAfterMs).as("ms from the client leaving to the upstream call's end").isLessThan(3000);
            FaultsTest.awaitIdle(s);
            assertThat(Http.get(s.server.baseUrl() + "/metrics").body())
                    .contains("veracity_serve_requests_total{method=\"standard-rag\",status=\"client_gone\",stream=\"true\"} 1.0");
        }
    }

    @Test
    void aRequestPastItsDeadlineIs503AndItsUpstreamCallIsCancelled() throws Exception {
        try (Served s = Served.start(hanging(), x -> x.withLimits(x.limits().withRequestDeadline(Duration.ofMillis(500))),
                b -> b, Duration.ofSeconds(60))) {
            long t0 = System.nanoTime();
            Http.Reply r = Http.post(s.v1() + "/chat/completions", Http.chat("standard-rag", ""));
            assertThat(r.status()).isEqualTo(503);
            assertThat(r.error().path("code").asText()).isEqualTo("deadline_exceeded");
            assertThat(r.header("Retry-After")).isEqualTo("1");
            assertThat((System.nanoTime() - t0) / 1_000_000).isBetween(400L, 3000L);
            CallRecord call = firstCall(s, 3000);
            assertThat(call.error()).isNotNull();
            assertThat(call.latencyMicros() / 1000).as("the call ran about as long as the deadline, not the 20 s hang")
                    .isLessThan(3000);
            FaultsTest.awaitIdle(s);
        }
    }

    @Test
    void aStopLetsTheRequestsInFlightFinishAndFreesThePort() throws Exception {
        Served s = Served.start(SimConfig.builder().latency(LatencyModel.ofMillis(600, 0)).build(), x -> x, b -> b,
                Duration.ofSeconds(30));
        int port = s.server.port();
        try {
            CompletableFuture<Http.Reply> inFlight = CompletableFuture.supplyAsync(() ->
                    Http.post(s.v1() + "/chat/completions", Http.chat("standard-rag", "")));
            long until = System.nanoTime() + 5_000_000_000L;
            while (s.sim.counters().inFlight() == 0 && System.nanoTime() < until) {
                Thread.sleep(10); // until the method's upstream call is under way
            }
            assertThat(s.sim.counters().inFlight()).isEqualTo(1);
            long t0 = System.nanoTime();
            s.server.close();
            assertThat((System.nanoTime() - t0) / 1_000_000).isLessThan(5000);
            Http.Reply r = inFlight.join();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.json().at("/choices/0/message/content").asText()).isNotBlank();
            try (ServerSocket again = new ServerSocket(port, 50, java.net.InetAddress.getLoopbackAddress())) {
                assertThat(again.getLocalPort()).isEqualTo(port);
            }
        } finally {
            s.close();
        }
    }
}
