package dev.veracity.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.veracity.sim.FaultKind;
import dev.veracity.sim.FaultPlan;
import dev.veracity.sim.LatencyModel;
import dev.veracity.sim.ManualClock;
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

    /** How long a test waits for what should happen at once: a guard against a hung build, not a measure. */
    private static final long GUARD_MS = 60_000;
    private static final Duration HANG = Duration.ofSeconds(20);

    /** An upstream that hangs on every call for 20 s of {@code clock}'s time: for ever, unless the test moves it. */
    private static SimConfig hanging(ManualClock clock) {
        FaultKind[] hang = new FaultKind[20];
        java.util.Arrays.fill(hang, FaultKind.HANG);
        return SimConfig.builder().faults(FaultPlan.script(hang).withHangDuration(HANG)).clock(clock).build();
    }

    /** Waits for the first call record of the server; the upstream call ended (failed) by then. */
    private static CallRecord firstCall(Served s) throws InterruptedException {
        long until = System.nanoTime() + GUARD_MS * 1_000_000;
        while (System.nanoTime() < until) {
            List<CallRecord> all = s.calls.all();
            if (!all.isEmpty()) {
                return all.getFirst();
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the upstream call was not cancelled within " + GUARD_MS + " ms");
    }

    @Test
    void aStreamingClientThatLeavesHasItsMethodAndUpstreamCallCancelled() throws Exception {
        ManualClock clock = new ManualClock();
        try (Served s = Served.start(hanging(clock), x -> x.withKeepAlive(Duration.ofMillis(100)), b -> b, Duration.ofSeconds(60))) {
            byte[] body = Http.chat("standard-rag", "\"stream\": true").getBytes(StandardCharsets.UTF_8);
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
            }
            // the next keep-alive writes fail, the method is cancelled, its hanging upstream call with it
            CallRecord call = firstCall(s);
            assertThat(call.error()).as("the upstream call ended as cancelled, not answered").isNotNull();
            assertThat(clock.sleeping()).as("cancelled while the upstream still hung").containsExactly(HANG);
            FaultsTest.awaitIdle(s);
            assertThat(Http.get(s.server.baseUrl() + "/metrics").body())
                    .contains("veracity_serve_requests_total{method=\"standard-rag\",status=\"client_gone\",stream=\"true\"} 1.0");
        }
    }

    @Test
    void aRequestPastItsDeadlineIs503AndItsUpstreamCallIsCancelled() throws Exception {
        ManualClock clock = new ManualClock();
        try (Served s = Served.start(hanging(clock), x -> x.withLimits(x.limits().withRequestDeadline(Duration.ofMillis(500))),
                b -> b, Duration.ofSeconds(60))) {
            long t0 = System.nanoTime();
            Http.Reply r = Http.post(s.v1() + "/chat/completions", Http.chat("standard-rag", ""));
            assertThat(r.status()).isEqualTo(503);
            assertThat(r.error().path("code").asText()).isEqualTo("deadline_exceeded");
            assertThat(r.header("Retry-After")).isEqualTo("1");
            assertThat((System.nanoTime() - t0) / 1_000_000).as("not before the deadline").isGreaterThanOrEqualTo(400L);
            CallRecord call = firstCall(s);
            assertThat(call.error()).isNotNull();
            assertThat(clock.sleeping()).as("the call was cancelled at the deadline, while the hang still ran")
                    .containsExactly(HANG);
            FaultsTest.awaitIdle(s);
        }
    }

    @Test
    void aStopLetsTheRequestsInFlightFinishAndFreesThePort() throws Exception {
        ManualClock clock = new ManualClock();
        // a grace far longer than the guard: the stop returns because the request finished, not because the grace ran out
        Served s = Served.start(SimConfig.builder().latency(LatencyModel.ofMillis(600, 0)).clock(clock).build(),
                x -> x.withLimits(x.limits().withStopGrace(Duration.ofMinutes(10))), b -> b, Duration.ofSeconds(30));
        int port = s.server.port();
        try {
            CompletableFuture<Http.Reply> inFlight = CompletableFuture.supplyAsync(() ->
                    Http.post(s.v1() + "/chat/completions", Http.chat("standard-rag", "")));
            long until = System.nanoTime() + GUARD_MS * 1_000_000;
            while (clock.sleeping().isEmpty() && System.nanoTime() < until) {
                Thread.sleep(10); // until the method's upstream call is under way
            }
            assertThat(s.sim.counters().inFlight()).isEqualTo(1);
            CompletableFuture<Void> stopping = CompletableFuture.runAsync(s.server::close);
            clock.advance(Duration.ofMillis(600)); // the upstream answers; a stop that cut the request would answer 503
            stopping.get(GUARD_MS, java.util.concurrent.TimeUnit.MILLISECONDS);
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
