package dev.veracity.retrieval.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.http.HttpProblem;
import dev.veracity.http.JsonCall;
import dev.veracity.http.JsonReply;
import dev.veracity.http.JsonServer;
import dev.veracity.http.ServerLimits;
import dev.veracity.http.ServerLog;
import dev.veracity.retrieval.Passage;
import dev.veracity.retrieval.Retriever;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Retrieval as a service for RL trainers, speaking the protocol of Search-R1's retrieval server that VeRL's search
 * tool calls: {@code POST /retrieve} with {@code {"queries": [...], "topk": k, "return_scores": true}} answers
 * {@code {"result": [[{"document": {"id", "contents"}, "score": s}, ...], ...]}}, one list per query, with
 * {@code contents = '"' + title + '"\n' + text}. Without {@code return_scores} each hit is the document alone.
 * {@code topk} defaults to 3 (Search-R1's default). {@code GET /health} and {@code GET /metrics} are the server's own.
 *
 * <p>On the project's HTTP server ({@link JsonServer}, Jetty with virtual threads), so it has the limits every server of
 * the project has: a body limit (413 before the body is read whole), a batch limit on the queries of one request (413),
 * a concurrency limit (429), a request deadline, and a graceful stop. A request whose client has gone or whose deadline
 * has passed is interrupted, and the search stops at the next query instead of running the batch to its end. Bad
 * requests get 400 in the servers' JSON error shape, saying what to send.
 */
public final class RetrievalServer implements AutoCloseable {

    public static final int DEFAULT_TOPK = 3;
    static final int MAX_TOPK = 10_000;
    private static final String SHAPE = "{\"queries\": [...], \"topk\": 3, \"return_scores\": true}";

    private final JsonServer http;

    private RetrievalServer(JsonServer http) {
        this.http = http;
    }

    /** Starts serving the retriever on 127.0.0.1 ({@code port} 0 picks a free one) with the default limits. */
    public static RetrievalServer start(Retriever retriever, int port) throws IOException {
        return start(retriever, "127.0.0.1", port, ServerLimits.defaults(), ServerLog.none());
    }

    /**
     * Starts serving the retriever.
     *
     * @throws java.net.BindException when the port is taken
     */
    public static RetrievalServer start(Retriever retriever, String host, int port, ServerLimits limits, ServerLog log)
            throws IOException {
        var route = new RetrieveRoute(retriever);
        return new RetrievalServer(JsonServer.builder().name("retrieval-server").host(host).port(port).limits(limits)
                .log(log).route("POST", "/retrieve", route).route("POST", "/", route).start());
    }

    public int port() {
        return http.port();
    }

    /** {@code http://HOST:PORT/retrieve}. */
    public String url() {
        return http.baseUrl() + "/retrieve";
    }

    public void awaitStopped() throws InterruptedException {
        http.awaitStopped();
    }

    /** Stops taking requests, lets those in flight finish within the limits' stop grace, then cancels the rest. */
    @Override
    public void close() {
        http.close();
    }

    private record RetrieveRoute(Retriever retriever) implements dev.veracity.http.JsonRoute {

        @Override
        public JsonReply handle(JsonCall call) throws InterruptedException {
            Request req = Request.parse(call.body());
            call.requireBatch(req.queries().size(), "\"queries\"");
            ObjectNode out = JsonNodeFactory.instance.objectNode();
            ArrayNode result = out.putArray("result");
            for (String q : req.queries()) {
                if (Thread.interrupted()) {
                    // the client has gone, the deadline has passed or the server is stopping: nobody reads the rest
                    throw new InterruptedException("retrieval cancelled");
                }
                ArrayNode hits = result.addArray();
                for (Passage p : retriever.search(q, req.topk())) {
                    ObjectNode doc = JsonNodeFactory.instance.objectNode().put("id", p.id())
                            .put("contents", p.contents());
                    if (req.returnScores()) {
                        hits.addObject().<ObjectNode>set("document", doc).put("score", p.score());
                    } else {
                        hits.add(doc);
                    }
                }
            }
            return JsonReply.ok(out);
        }
    }

    private record Request(List<String> queries, int topk, boolean returnScores) {
        static Request parse(JsonNode body) {
            if (body == null || !body.isObject()) {
                throw HttpProblem.badRequest("Send a JSON object " + SHAPE);
            }
            JsonNode qs = body.get("queries");
            if (qs == null || !qs.isArray()) {
                throw HttpProblem.badRequest("\"queries\" must be an array of strings: send " + SHAPE);
            }
            List<String> queries = new ArrayList<>();
            for (JsonNode q : qs) {
                if (!q.isTextual()) {
                    throw HttpProblem.badRequest("\"queries\" must be an array of strings, found " + q.getNodeType());
                }
                queries.add(q.asText());
            }
            JsonNode k = body.get("topk");
            int topk = DEFAULT_TOPK;
            if (k != null && !k.isNull()) {
                if (!k.canConvertToInt() || !k.isIntegralNumber() || k.asInt() < 1 || k.asInt() > MAX_TOPK) {
                    throw HttpProblem.badRequest("\"topk\" must be an integer from 1 to " + MAX_TOPK + ", got " + k);
                }
                topk = k.asInt();
            }
            JsonNode rs = body.get("return_scores");
            if (rs != null && !rs.isNull() && !rs.isBoolean()) {
                throw HttpProblem.badRequest("\"return_scores\" must be true or false, got " + rs);
            }
            return new Request(queries, topk, rs != null && rs.asBoolean());
        }
    }
}
