package dev.veracity.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client still sending a body over the limit reads the 413: the server answers, then reads and throws away the rest
 * of the body (up to {@link RequestBody#DISCARD_LIMIT}) before the connection is done. Closing at once, as Jetty does
 * with a request not read to its end, gave Python's urllib (the openai client's transport), which writes the whole body
 * before reading, a broken pipe instead: 2 of 20 times for 2 MB over a 1 MiB limit, every time for 50 MB over 16 MiB.
 */
class OversizedBodyTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static JsonServer echo(long maxBody) throws IOException {
        return JsonServer.builder().limits(ServerLimits.defaults().withMaxBodyBytes(maxBody))
                .route("POST", "/v1/echo", call -> JsonReply.ok(call.body())).start();
    }

    @Test
    void pythonsUrllibReadsThe413ForA2MbBodyOverA1MibLimitEveryTime() throws Exception {
        try (JsonServer s = echo(1L << 20)) {
            JsonNode out = urllib(s.baseUrl() + "/v1/echo", 2_000_000, 20);
            assertThat(out.get("answers").toString()).isEqualTo("{\"413 body_too_large\":20}");
            assertThat(out.get("max_body").asText()).isEqualTo("1048576");
        }
    }

    @Test
    void pythonsUrllibReadsThe413ForA50MbBodyOverThe16MibDefault() throws Exception {
        try (JsonServer s = echo(ServerLimits.defaults().maxBodyBytes())) {
            JsonNode out = urllib(s.baseUrl() + "/v1/echo", 50_000_000, 3);
            assertThat(out.get("answers").toString()).isEqualTo("{\"413 body_too_large\":3}");
        }
    }

    @Test
    void theJdkClientReadsThe413WithADeclaredLengthAndChunked() throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        byte[] body = json(8_000_000);
        try (JsonServer s = echo(1L << 20)) {
            for (int i = 0; i < 5; i++) {
                HttpResponse<String> declared = client.send(HttpRequest.newBuilder(URI.create(s.baseUrl() + "/v1/echo"))
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(declared.statusCode()).as(declared.body()).isEqualTo(413);
                assertThat(declared.headers().firstValue("X-Max-Body-Bytes")).hasValue("1048576");
                HttpResponse<String> chunked = client.send(HttpRequest.newBuilder(URI.create(s.baseUrl() + "/v1/echo"))
                        .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body))).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(chunked.statusCode()).as(chunked.body()).isEqualTo(413);
                assertThat(JSON.readTree(chunked.body()).path("error").path("code").asText()).isEqualTo("body_too_large");
            }
        }
    }

    @Test
    void afterThe413TheSameConnectionServesTheNextRequest() throws Exception {
        try (JsonServer s = echo(1L << 20); Socket socket = new Socket("127.0.0.1", s.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            out.write(post(json(2_000_000), ""));
            out.flush();
            assertThat(readAnswer(in)).startsWith("HTTP/1.1 413").contains("body_too_large");
            out.write(post("{\"again\": true}".getBytes(StandardCharsets.UTF_8), ""));
            out.flush();
            assertThat(readAnswer(in)).startsWith("HTTP/1.1 200").endsWith("{\"again\":true}");
        }
    }

    @Test
    void aBodyDeclaredFarPastTheDiscardLimitIsRefusedAtOnceAndNotRead() throws Exception {
        try (JsonServer s = echo(1L << 20); Socket socket = new Socket("127.0.0.1", s.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            // the head of a 1 GiB upload, without its body: the answer comes at once and the connection is closed
            out.write(("POST /v1/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
                    + (1L << 30) + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            assertThat(readAnswer(in)).startsWith("HTTP/1.1 413").contains("1,073,741,824 bytes");
            assertThat(in.read()).isEqualTo(-1);
        }
    }

    @Test
    void aClientWaitingFor100ContinueGetsThe413AndIsNotAskedForItsBody() throws Exception {
        try (JsonServer s = echo(1L << 20); Socket socket = new Socket("127.0.0.1", s.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /v1/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: 100-continue\r\n"
                    + "Content-Length: 2000000\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(readAnswer(socket.getInputStream())).startsWith("HTTP/1.1 413");
        }
    }

    /** Runs the urllib client (test resource {@code python/post_oversized.py}); skipped, saying so, without python3. */
    private JsonNode urllib(String url, int size, int times) throws Exception {
        Assumptions.assumeTrue(python3(), "python3 is not installed: the urllib client test is skipped");
        Path script = dir.resolve("post_oversized.py");
        try (InputStream in = OversizedBodyTest.class.getResourceAsStream("/python/post_oversized.py")) {
            Files.copy(in, script);
        }
        Process p = new ProcessBuilder("python3", "-B", script.toString(), url, Integer.toString(size),
                Integer.toString(times)).redirectError(dir.resolve("err.txt").toFile()).start();
        String stdout = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(Files.readString(dir.resolve("err.txt"))).isZero();
        return JSON.readTree(stdout);
    }

    private static boolean python3() {
        try {
            Process p = new ProcessBuilder("python3", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static byte[] json(int size) {
        char[] x = new char[size];
        Arrays.fill(x, 'x');
        return ("{\"text\": \"" + new String(x) + "\"}").getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] post(byte[] body, String headers) {
        byte[] head = String.format(Locale.ROOT, "POST /v1/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + "%sContent-Length: %d\r\n\r\n", headers, body.length).getBytes(StandardCharsets.US_ASCII);
        byte[] all = Arrays.copyOf(head, head.length + body.length);
        System.arraycopy(body, 0, all, head.length, body.length);
        return all;
    }

    /** One HTTP/1.1 answer with a Content-Length: its head and body as text. */
    private static String readAnswer(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("the connection closed after " + head);
            }
            head.write(b);
        }
        String h = head.toString(StandardCharsets.ISO_8859_1);
        int length = List.of(h.split("\r\n")).stream().filter(l -> l.toLowerCase(Locale.ROOT).startsWith("content-length:"))
                .map(l -> Integer.parseInt(l.substring(15).strip())).findFirst().orElse(0);
        return h + new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }
}
