package dev.veracity.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Answers as server-sent events over a raw socket: what arrives when, and how a stream ends. */
class EventStreamTest {

    /** A raw HTTP/1.1 exchange, so the test sees the bytes and their timing as a client would. */
    private static final class Raw implements AutoCloseable {
        final Socket socket;
        final BufferedReader in;

        Raw(JsonServer s, String path, String body) throws IOException {
            socket = new Socket("127.0.0.1", s.port());
            socket.setSoTimeout(60_000); // a guard against a hung test, not a measure
            OutputStream out = socket.getOutputStream();
            byte[] b = body.getBytes(StandardCharsets.UTF_8);
            out.write(("POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
                    + b.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(b);
            out.flush();
            in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        }

        /** The status line and headers, lower-cased names. */
        List<String> head() throws IOException {
            List<String> lines = new ArrayList<>();
            for (String l = in.readLine(); l != null && !l.isEmpty(); l = in.readLine()) {
                lines.add(lines.isEmpty() ? l : l.toLowerCase(java.util.Locale.ROOT));
            }
            return lines;
        }

        /** The next SSE line that is not blank, skipping chunk-size lines of the chunked encoding. */
        String nextLine() throws IOException {
            for (String l = in.readLine(); l != null; l = in.readLine()) {
                if (!l.isEmpty() && !l.matches("[0-9a-fA-F]+")) {
                    return l;
                }
            }
            return null;
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    @Test
    void eventsArriveAsTheRouteWritesThemAndTheStreamEndsWhenItReturns() throws Exception {
        CountDownLatch firstSeen = new CountDownLatch(1);
        try (JsonServer s = JsonServer.builder().route("POST", "/sse", call -> {
            try {
                EventStream events = call.openEvents(Map.of("X-Test", "yes"));
                events.comment("keep-alive");
                // the client must have the comment before the route goes on: events are not held back
                if (!firstSeen.await(5, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the first event never arrived");
                }
                events.data("{\"n\":1}");
                events.data("[DONE]");
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            return JsonReply.streamed();
        }).start(); Raw raw = new Raw(s, "/sse", "{}")) {
            List<String> head = raw.head();
            assertThat(head.getFirst()).isEqualTo("HTTP/1.1 200 OK");
            assertThat(head).contains("content-type: text/event-stream; charset=utf-8", "cache-control: no-cache",
                    "x-test: yes", "x-accel-buffering: no");
            assertThat(raw.nextLine()).isEqualTo(": keep-alive");
            firstSeen.countDown();
            assertThat(raw.nextLine()).isEqualTo("data: {\"n\":1}");
            assertThat(raw.nextLine()).isEqualTo("data: [DONE]");
            // then the chunked encoding's last chunk: the answer is complete, the connection stays usable
            List<String> rest = new ArrayList<>();
            for (String l = raw.in.readLine(); l != null && !l.equals("0"); l = raw.in.readLine()) {
                rest.add(l);
            }
            assertThat(rest).allMatch(String::isEmpty);
        }
    }

    @Test
    void aRouteThatFailsAfterOpeningItsStreamEndsItWithAnErrorEvent() throws Exception {
        try (JsonServer s = JsonServer.builder().route("POST", "/sse", call -> {
            try {
                call.openEvents(Map.of()).data("{\"n\":1}");
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            throw new HttpProblem(502, "upstream_error", "the upstream failed");
        }).start(); Raw raw = new Raw(s, "/sse", "{}")) {
            assertThat(raw.head().getFirst()).isEqualTo("HTTP/1.1 200 OK");
            assertThat(raw.nextLine()).isEqualTo("data: {\"n\":1}");
            assertThat(raw.nextLine()).isEqualTo("data: {\"error\":{\"message\":\"the upstream failed\","
                    + "\"type\":\"server_error\",\"code\":\"upstream_error\"}}");
        }
    }

    @Test
    void theDeadlineInterruptsAStreamingRouteAndEndsTheStreamSayingSo() throws Exception {
        CountDownLatch interrupted = new CountDownLatch(1);
        try (JsonServer s = JsonServer.builder().limits(ServerLimits.defaults().withRequestDeadline(Duration.ofMillis(400)))
                .route("POST", "/sse", call -> {
                    try {
                        call.openEvents(Map.of()).comment("working");
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                    try {
                        Thread.sleep(Duration.ofMinutes(10)); // for ever: only the deadline or the stop ends it
                    } catch (InterruptedException e) {
                        interrupted.countDown();
                        throw e;
                    }
                    return JsonReply.streamed();
                }).start(); Raw raw = new Raw(s, "/sse", "{}")) {
            assertThat(raw.head().getFirst()).isEqualTo("HTTP/1.1 200 OK");
            assertThat(raw.nextLine()).isEqualTo(": working");
            assertThat(raw.nextLine()).contains("\"code\":\"deadline_exceeded\"");
            assertThat(interrupted.await(60, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void aStreamStillOpenWhenTheStopsGraceEndsEndsWithAStoppingEvent() throws Exception {
        CountDownLatch interrupted = new CountDownLatch(1);
        JsonServer s = JsonServer.builder().limits(ServerLimits.defaults().withStopGrace(Duration.ofMillis(200)))
                .route("POST", "/sse", call -> {
                    try {
                        call.openEvents(Map.of()).comment("working");
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                    try {
                        Thread.sleep(Duration.ofMinutes(10)); // for ever: only the deadline or the stop ends it
                    } catch (InterruptedException e) {
                        interrupted.countDown();
                        throw e;
                    }
                    return JsonReply.streamed();
                }).start();
        try (Raw raw = new Raw(s, "/sse", "{}")) {
            assertThat(raw.head().getFirst()).isEqualTo("HTTP/1.1 200 OK");
            assertThat(raw.nextLine()).isEqualTo(": working");
            s.close();
            assertThat(raw.nextLine()).contains("\"code\":\"stopping\"");
            assertThat(interrupted.await(60, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void aClientThatHasGoneIsNoticedAtTheNextWrite() throws Exception {
        CountDownLatch opened = new CountDownLatch(1);
        AtomicReference<String> failure = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        try (JsonServer s = JsonServer.builder().route("POST", "/sse", call -> {
            try {
                EventStream events = call.openEvents(Map.of());
                events.comment("open");
                opened.countDown();
                for (int i = 0; i < 200; i++) { // a keep-alive every 20 ms, as a long pipeline would
                    Thread.sleep(20);
                    events.comment("keep-alive");
                }
                failure.set("every write succeeded");
            } catch (IOException e) {
                failure.set("gone");
            } finally {
                done.countDown();
            }
            return JsonReply.streamed();
        }).start()) {
            Raw raw = new Raw(s, "/sse", "{}");
            raw.head();
            assertThat(opened.await(5, TimeUnit.SECONDS)).isTrue();
            raw.close();
            assertThat(done.await(4, TimeUnit.SECONDS)).as("the route noticed within a few writes").isTrue();
            assertThat(failure.get()).isEqualTo("gone");
        }
    }

    @Test
    void aStreamCannotBeOpenedAfterTheRequestWasAnswered() throws Exception {
        AtomicReference<String> seen = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        try (JsonServer s = JsonServer.builder().limits(ServerLimits.defaults().withRequestDeadline(Duration.ofMillis(200)))
                .route("POST", "/late", call -> {
                    try {
                        Thread.sleep(600);
                    } catch (InterruptedException e) {
                        // the deadline answered 503; the route goes on as a careless one would
                    }
                    try {
                        call.openEvents(Map.of());
                        seen.set("opened");
                    } catch (IOException e) {
                        seen.set("refused");
                    }
                    done.countDown();
                    return JsonReply.streamed();
                }).start(); Raw raw = new Raw(s, "/late", "{}")) {
            assertThat(raw.head().getFirst()).startsWith("HTTP/1.1 503");
            assertThat(done.await(5, TimeUnit.SECONDS)).isTrue();
            assertThat(seen.get()).isEqualTo("refused");
        }
    }
}
