package dev.veracity.retrieval.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.veracity.retrieval.Passage;
import dev.veracity.retrieval.Retriever;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Retrieval as a service for RL trainers, speaking the protocol of Search-R1's retrieval server that VeRL's search
 * tool calls: {@code POST /retrieve} with {@code {"queries": [...], "topk": k, "return_scores": true}} answers
 * {@code {"result": [[{"document": {"id", "contents"}, "score": s}, ...], ...]}}, one list per query, with
 * {@code contents = '"' + title + '"\n' + text}. Without {@code return_scores} each hit is the document alone.
 * {@code topk} defaults to 3 (Search-R1's default). {@code GET /health} answers {@code {"status": "ok"}}.
 *
 * <p>JDK {@link HttpServer} on 127.0.0.1, one virtual thread per request. Bad requests get HTTP 400 with
 * {@code {"error": "..."}} saying what to send.
 */
public final class RetrievalServer implements AutoCloseable {

    public static final int DEFAULT_TOPK = 3;
    static final int MAX_TOPK = 10_000;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final ExecutorService executor;
    private final Retriever retriever;

    private RetrievalServer(Retriever retriever, int port) throws IOException {
        this.retriever = retriever;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        this.executor = Executors.newVirtualThreadPerTaskExecutor();
        server.setExecutor(executor);
        server.createContext("/", this::handle);
    }

    /** Starts serving the retriever on 127.0.0.1 ({@code port} 0 picks a free one). */
    public static RetrievalServer start(Retriever retriever, int port) throws IOException {
        RetrievalServer s = new RetrievalServer(retriever, port);
        s.server.start();
        return s;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** {@code http://127.0.0.1:PORT/retrieve}. */
    public String url() {
        return "http://127.0.0.1:" + port() + "/retrieve";
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String path = ex.getRequestURI().getPath();
            if (path.equals("/health")) {
                send(ex, 200, JSON.createObjectNode().put("status", "ok"));
                return;
            }
            if (!path.equals("/retrieve") && !path.equals("/")) {
                send(ex, 404, error("No such endpoint " + path + ": POST to /retrieve"));
                return;
            }
            if (!ex.getRequestMethod().equals("POST")) {
                send(ex, 405, error("Use POST with a JSON body {\"queries\": [...], \"topk\": 3, \"return_scores\": true}"));
                return;
            }
            JsonNode body;
            try (InputStream in = ex.getRequestBody()) {
                body = JSON.readTree(in);
            } catch (IOException e) {
                send(ex, 400, error("The body is not JSON: send {\"queries\": [...], \"topk\": 3, \"return_scores\": true}"));
                return;
            }
            Request req;
            try {
                req = Request.parse(body);
            } catch (IllegalArgumentException e) {
                send(ex, 400, error(e.getMessage()));
                return;
            }
            ObjectNode out = JSON.createObjectNode();
            ArrayNode result = out.putArray("result");
            for (String q : req.queries()) {
                ArrayNode hits = result.addArray();
                for (Passage p : retriever.search(q, req.topk())) {
                    ObjectNode doc = JSON.createObjectNode().put("id", p.id()).put("contents", SearchR1Contents.of(p));
                    if (req.returnScores()) {
                        hits.addObject().<ObjectNode>set("document", doc).put("score", p.score());
                    } else {
                        hits.add(doc);
                    }
                }
            }
            send(ex, 200, out);
        } catch (RuntimeException e) {
            send(ex, 500, error("Retrieval failed: " + e.getMessage()));
        }
    }

    private record Request(List<String> queries, int topk, boolean returnScores) {
        static Request parse(JsonNode body) {
            if (body == null || !body.isObject()) {
                throw new IllegalArgumentException("Send a JSON object {\"queries\": [...], \"topk\": 3, \"return_scores\": true}");
            }
            JsonNode qs = body.get("queries");
            if (qs == null || !qs.isArray()) {
                throw new IllegalArgumentException("\"queries\" must be an array of strings");
            }
            List<String> queries = new ArrayList<>();
            for (JsonNode q : qs) {
                if (!q.isTextual()) {
                    throw new IllegalArgumentException("\"queries\" must be an array of strings, found " + q.getNodeType());
                }
                queries.add(q.asText());
            }
            JsonNode k = body.get("topk");
            int topk = DEFAULT_TOPK;
            if (k != null && !k.isNull()) {
                if (!k.canConvertToInt() || !k.isIntegralNumber() || k.asInt() < 1 || k.asInt() > MAX_TOPK) {
                    throw new IllegalArgumentException("\"topk\" must be an integer from 1 to " + MAX_TOPK + ", got " + k);
                }
                topk = k.asInt();
            }
            JsonNode rs = body.get("return_scores");
            if (rs != null && !rs.isNull() && !rs.isBoolean()) {
                throw new IllegalArgumentException("\"return_scores\" must be true or false, got " + rs);
            }
            return new Request(queries, topk, rs != null && rs.asBoolean());
        }
    }

    private static ObjectNode error(String message) {
        return JSON.createObjectNode().put("error", message);
    }

    private static void send(HttpExchange ex, int status, JsonNode body) throws IOException {
        byte[] bytes = JSON.writeValueAsBytes(body);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.close();
    }
}
