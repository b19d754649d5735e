package dev.veracity.llm.openai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.veracity.llm.LlmRequest;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The backend keeps the connections of a burst of concurrent calls open for the next burst (OkHttp's default pool, under
 * the SDK this backend used before, kept five: under 32 calls at once, 27 connections were closed as their calls ended
 * and opened again by the next burst).
 * The server here is a raw socket loop, so that it can count the connections it accepts.
 */
class ConnectionReuseTest {

    private static final int AT_ONCE = 32;

    private static final byte[] ANSWER = ("{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"created\":1,\"model\":\"m\","
            + "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"Paris.\"},\"finish_reason\":\"stop\"}],"
            + "\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":2,\"total_tokens\":5}}").getBytes(StandardCharsets.UTF_8);

    @Test
    void aSecondBurstOfConcurrentCallsReusesTheFirstBurstsConnections() throws Exception {
        AtomicInteger accepted = new AtomicInteger();
        List<Socket> sockets = java.util.Collections.synchronizedList(new ArrayList<>());
        try (ServerSocket server = new ServerSocket(0, 256, InetAddress.getLoopbackAddress());
             ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            // Every request waits until all of its burst have arrived, so that the burst really holds 32 connections.
            CountDownLatch[] bursts = {new CountDownLatch(AT_ONCE), new CountDownLatch(AT_ONCE)};
            AtomicInteger requests = new AtomicInteger();
            threads.submit(() -> {
                while (!server.isClosed()) {
                    Socket s = server.accept();
                    accepted.incrementAndGet();
                    sockets.add(s);
                    threads.submit(() -> serve(s, bursts, requests));
                }
                return null;
            });
            String url = "http://127.0.0.1:" + server.getLocalPort() + "/v1";
            try (OpenAiCompatibleBackend backend = OpenAiCompatibleBackend.builder().baseUrl(url).model("m").build()) {
                for (int burst = 0; burst < 2; burst++) {
                    List<Future<String>> calls = new ArrayList<>();
                    for (int i = 0; i < AT_ONCE; i++) {
                        calls.add(threads.submit(() -> backend.generate(LlmRequest.user("Where is the Eiffel Tower?")
                                .build(), Duration.ofSeconds(20)).text()));
                    }
                    for (Future<String> c : calls) {
                        assertThat(c.get(30, TimeUnit.SECONDS)).isEqualTo("Paris.");
                    }
                }
            }
            server.close();
            synchronized (sockets) {
                for (Socket s : sockets) {
                    s.close(); // ends the connection loops still waiting for a request
                }
            }
        }
        assertThat(accepted.get()).as("connections opened for two bursts of %d calls", AT_ONCE).isEqualTo(AT_ONCE);
    }

    /** Answers requests on one kept-alive connection until the client closes it. */
    private static Void serve(Socket socket, CountDownLatch[] bursts, AtomicInteger requests) throws Exception {
        try (socket; InputStream in = new BufferedInputStream(socket.getInputStream()); OutputStream out = socket.getOutputStream()) {
            while (true) {
                int length = readHead(in);
                if (length < 0) {
                    return null;
                }
                in.readNBytes(length);
                CountDownLatch burst = bursts[Math.min(requests.getAndIncrement() / AT_ONCE, bursts.length - 1)];
                burst.countDown();
                burst.await(20, TimeUnit.SECONDS);
                out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + ANSWER.length
                        + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(ANSWER);
                out.flush();
            }
        } catch (IOException e) {
            return null; // the client closed the connection
        }
    }

    /** Reads a request head; returns its Content-Length, or -1 at the end of the stream. */
    private static int readHead(InputStream in) throws IOException {
        int length = 0;
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); c >= 0; c = in.read()) {
            if (c == '\n') {
                String l = line.toString().strip();
                if (l.isEmpty()) {
                    return length;
                }
                if (l.regionMatches(true, 0, "content-length:", 0, 15)) {
                    length = Integer.parseInt(l.substring(15).strip());
                }
                line.setLength(0);
            } else {
                line.append((char) c);
            }
        }
        return -1;
    }
}
