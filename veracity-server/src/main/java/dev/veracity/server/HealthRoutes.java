package dev.veracity.server;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.http.JsonCall;
import dev.veracity.http.JsonReply;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * {@code GET /healthz}: the process answers ({@code 200 {"status": "ok"}}, 503 once stopping). {@code GET /readyz}:
 * it can answer questions, meaning the upstream model server is reachable ({@link UpstreamProbe}); 503 with the reason
 * otherwise, so a load balancer sends requests elsewhere. Neither needs an API key (probes carry none).
 */
final class HealthRoutes {

    private final UpstreamProbe upstream;
    private final BooleanSupplier stopping;

    HealthRoutes(UpstreamProbe upstream, BooleanSupplier stopping) {
        this.upstream = upstream;
        this.stopping = stopping;
    }

    JsonReply healthz(JsonCall call) {
        boolean down = stopping.getAsBoolean();
        return new JsonReply(down ? 503 : 200, status(down ? "stopping" : "ok", null));
    }

    JsonReply readyz(JsonCall call) {
        if (stopping.getAsBoolean()) {
            return new JsonReply(503, status("stopping", null));
        }
        Optional<String> problem = upstream.problem();
        return problem.map(p -> new JsonReply(503, status("not_ready", p)))
                .orElseGet(() -> JsonReply.ok(status("ready", null)));
    }

    private static ObjectNode status(String status, String reason) {
        ObjectNode o = JsonNodeFactory.instance.objectNode().put("status", status);
        if (reason != null) {
            o.put("reason", reason);
        }
        return o;
    }
}
