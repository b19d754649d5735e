package dev.veracity.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.Headers;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * AReaL's online-mode gateway as its clients see it (AReaL 1.0.4, {@code areal/experimental/openai/proxy/}
 * {@code proxy_gateway.py} and {@code proxy_rollout_server.py}), served beside the OpenAI endpoints when
 * {@link SimConfig#arealAdminKey()} is set, and recording every session, interaction and reward so a test can assert
 * exactly what a client set:
 * <ul>
 *   <li>{@code POST /rl/start_session} with {@code Authorization: Bearer ADMIN_KEY} and {@code {"task_id"}}:
 *       {@code {"session_id": "TASK-0", "api_key": "..."}} (the id is the task id and a counter, as AReaL's);</li>
 *   <li>{@code POST /chat/completions} with the session key: an ordinary chat completion (rules, reader, faults),
 *       recorded as an interaction under its response id ({@code chatcmpl-...}), AReaL's interaction id;
 *       {@code n} other than 1 is AReaL's 500 ({@code NotImplementedError: n != 1 is not supported yet});</li>
 *   <li>{@code POST /rl/set_reward} with the session key and {@code {"reward", "interaction_id"}} ({@code null}: the
 *       last interaction): {@code {"message": "success"}}; no interaction yet or an unknown id is a 400;</li>
 *   <li>{@code POST /rl/end_session} with the session key: {@code {"message": "success", "interaction_count": n}};
 *       the key is then unknown, as the gateway drops its route (401 afterwards).</li>
 * </ul>
 * Errors are FastAPI's {@code {"detail": "..."}}: 401 for a missing or unknown key, 422 for a body that does not
 * validate. Not simulated: session refresh ({@code api_key} in start_session, refused with a 400), capacity (429),
 * streaming, {@code /responses}, {@code /v1/messages}, the trainer behind it.
 */
final class ArealGateway {

    private final String adminKey;
    private final long seed;
    private final Map<String, Live> byKey = new LinkedHashMap<>();
    private final List<Live> all = new ArrayList<>();
    private final Map<String, Integer> perTask = new LinkedHashMap<>();

    /** One session as it stands. Guarded by the gateway's lock. */
    private static final class Live {
        final String sessionId;
        final String taskId;
        final List<Interaction> interactions = new ArrayList<>();
        boolean ended;

        Live(String sessionId, String taskId) {
            this.sessionId = sessionId;
            this.taskId = taskId;
        }
    }

    /** One recorded interaction: its id, the prompt text rules saw, the answer, and the reward set (null: none). */
    private static final class Interaction {
        final String id;
        final String prompt;
        String response;
        Double reward;
        int rewardsSet;

        Interaction(String id, String prompt) {
            this.id = id;
            this.prompt = prompt;
        }
    }

    /** A reply to send: status and body. */
    record Reply(int status, byte[] body) {
    }

    ArealGateway(String adminKey, long seed) {
        this.adminKey = adminKey;
        this.seed = seed;
    }

    synchronized Reply startSession(Headers headers, JsonNode body) {
        if (!adminKey.equals(bearer(headers))) {
            return detail(401, "Unauthorized");
        }
        if (body == null || !body.path("task_id").isTextual()) {
            return detail(422, "task_id: a string is required");
        }
        if (body.hasNonNull("api_key")) {
            return detail(400, "session refresh (api_key) is not simulated");
        }
        String task = body.get("task_id").asText();
        int idx = perTask.merge(task, 1, Integer::sum) - 1;
        Live s = new Live(task + "-" + idx, task);
        String key = "sk-sess-" + HexFormat.of().formatHex(sha(seed + "/" + s.sessionId + "/" + all.size()), 0, 12);
        byKey.put(key, s);
        all.add(s);
        ObjectNode o = Json.MAPPER.createObjectNode().put("session_id", s.sessionId).put("api_key", key);
        return new Reply(200, o.toString().getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Checks a chat request against its session and records the interaction under {@code id} before it is answered
     * (as AReaL adds it to the session before generating); null when it may go on, else the reply to send.
     */
    synchronized Reply openInteraction(Headers headers, JsonNode body, String id, String prompt) {
        Live s = byKey.get(bearer(headers));
        if (s == null) {
            return detail(401, "Invalid session key");
        }
        JsonNode n = body == null ? null : body.get("n");
        if (n != null && !n.isNull() && !(n.isIntegralNumber() && n.asInt() == 1)) {
            return detail(500, "NotImplementedError: n != 1 is not supported yet");
        }
        s.interactions.add(new Interaction(id, prompt));
        return null;
    }

    /** The interaction's answer, once sent; a failed generation removes it (AReaL deletes it from the session). */
    synchronized void closeInteraction(String id, String response) {
        for (Live s : all) {
            for (int i = 0; i < s.interactions.size(); i++) {
                if (s.interactions.get(i).id.equals(id)) {
                    if (response == null) {
                        s.interactions.remove(i);
                    } else {
                        s.interactions.get(i).response = response;
                    }
                    return;
                }
            }
        }
    }

    synchronized Reply setReward(Headers headers, JsonNode body) {
        Live s = byKey.get(bearer(headers));
        if (s == null) {
            return detail(401, "Invalid session key");
        }
        if (body == null || !body.isObject() || !body.path("reward").isNumber()) {
            return detail(422, "reward: a number is required");
        }
        JsonNode idNode = body.get("interaction_id");
        if (idNode != null && !idNode.isNull() && !idNode.isTextual()) {
            return detail(422, "interaction_id: a string or null is required");
        }
        Interaction target = null;
        if (idNode == null || idNode.isNull()) {
            if (s.interactions.isEmpty()) {
                return detail(400, "No interactions in session");
            }
            target = s.interactions.getLast();
        } else {
            for (Interaction i : s.interactions) {
                if (i.id.equals(idNode.asText())) {
                    target = i;
                }
            }
            if (target == null) {
                return detail(400, "Interaction " + idNode.asText() + " not found");
            }
        }
        target.reward = body.get("reward").asDouble();
        target.rewardsSet++;
        return new Reply(200, "{\"message\":\"success\"}".getBytes(StandardCharsets.UTF_8));
    }

    synchronized Reply endSession(Headers headers) {
        String key = bearer(headers);
        Live s = byKey.remove(key);
        if (s == null) {
            return detail(401, "Invalid session key");
        }
        s.ended = true;
        return new Reply(200, ("{\"message\":\"success\",\"interaction_count\":" + s.interactions.size() + "}")
                .getBytes(StandardCharsets.UTF_8));
    }

    /** Every session so far, in start order, as it stands now. */
    synchronized List<ArealSession> sessions() {
        List<ArealSession> out = new ArrayList<>();
        for (Live s : all) {
            out.add(new ArealSession(s.sessionId, s.taskId, s.interactions.stream().map(i ->
                    new ArealSession.Interaction(i.id, i.prompt, i.response, i.reward, i.rewardsSet)).toList(), s.ended));
        }
        return out;
    }

    private static String bearer(Headers headers) {
        String auth = headers.getFirst("Authorization");
        return auth != null && auth.regionMatches(true, 0, "Bearer ", 0, 7) ? auth.substring(7).strip() : "";
    }

    static Reply detail(int status, String detail) {
        return new Reply(status, Json.MAPPER.createObjectNode().put("detail", detail).toString()
                .getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] sha(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
