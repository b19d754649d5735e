package dev.veracity.cli;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A minimal HTTP/1.1 client for benchmarks over loopback: POSTs a body, reads the status and a Content-Length body.
 * Costs a fraction of the JDK's {@code HttpClient} per request, so a benchmark measures the server rather than its
 * client on a machine with two cores. One connection, reused unless {@code newConnectionEach} (OpenRLHF opens a new
 * aiohttp session, so a new connection, for every request).
 */
final class LoopbackHttp implements AutoCloseable {

    /** An answer: the status and the body. */
    record Answer(int status, byte[] body) {
    }

    private final int port;
    private final boolean newConnectionEach;
    private Socket socket;
    private InputStream in;
    private OutputStream out;

    LoopbackHttp(int port, boolean newConnectionEach) {
        this.port = port;
        this.newConnectionEach = newConnectionEach;
    }

    Answer post(String path, byte[] body) throws IOException {
        if (socket == null) {
            socket = new Socket(InetAddress.getLoopbackAddress(), port);
            socket.setTcpNoDelay(true);
            in = new BufferedInputStream(socket.getInputStream());
            out = socket.getOutputStream();
        }
        String head = "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + body.length + "\r\n" + (newConnectionEach ? "Connection: close\r\n" : "") + "\r\n";
        out.write(head.getBytes(StandardCharsets.US_ASCII));
        out.write(body);
        out.flush();
        String status = line();
        int code = Integer.parseInt(status.substring(9, 12));
        int length = -1;
        boolean close = newConnectionEach;
        for (String h = line(); !h.isEmpty(); h = line()) {
            String lower = h.toLowerCase(Locale.ROOT);
            if (lower.startsWith("content-length:")) {
                length = Integer.parseInt(h.substring(15).strip());
            } else if (lower.startsWith("connection:") && lower.contains("close")) {
                close = true;
            }
        }
        byte[] answer = length >= 0 ? in.readNBytes(length) : in.readAllBytes();
        if (close || length < 0) {
            disconnect();
        }
        return new Answer(code, answer);
    }

    private String line() throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream(64);
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new IOException("the connection closed mid-answer");
            }
            if (c != '\r') {
                b.write(c);
            }
        }
        return b.toString(StandardCharsets.US_ASCII);
    }

    /** Drops the connection; the next request opens a new one. */
    void disconnect() throws IOException {
        if (socket != null) {
            socket.close();
            socket = null;
        }
    }

    @Override
    public void close() throws IOException {
        disconnect();
    }
}
