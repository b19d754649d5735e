package dev.veracity.method;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.llm.ChatMessage;
import dev.veracity.llm.Completion;
import dev.veracity.llm.TokenIds;
import dev.veracity.llm.TokenLogprob;
import dev.veracity.schema.SchemaVersion;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One agent step of a multi-agent rollout, as RL trainers take it: the one record schema every method's rollouts are
 * written in (MARCH's Solver and Checker, C-3PO's tree nodes, MADAM's agents and aggregator, Reasoning Court's agents
 * and judge), so one exporter and one inspector serve them all. One JSON line:
 * {@code {schema_version, run, question_id, method, role, node_id, parent_id, messages, response, reward, credit?, advantage?,
 * prompt_ids?, response_ids?, logprobs?}}.
 *
 * @param run         the run it came from
 * @param questionId  the question
 * @param method      the method
 * @param role        the agent role (a trainer trains or groups per role)
 * @param nodeId      this step's id, unique within the question
 * @param parentId    the step it follows in the rollout tree, or null for a root
 * @param messages    the prompt as chat messages, exactly as sent
 * @param response    the agent's output
 * @param reward      the reward this step is trained with (the question's outcome reward, MARCH's ZTR, ...)
 * @param credit      a per-node credit (C-3PO's Monte Carlo credit: the mean reward of the leaves below), or null
 * @param advantage   a precomputed advantage, or null
 * @param promptIds   the serving engine's prompt token ids, or null (never re-tokenised by us)
 * @param responseIds the serving engine's response token ids, or null
 * @param logprobs    the response tokens' log-probabilities, or null
 */
public record AgentRecord(String run, String questionId, String method, String role, String nodeId, String parentId,
                          List<ChatMessage> messages, String response, Double reward, Double credit, Double advantage,
                          List<Integer> promptIds, List<Integer> responseIds, List<Double> logprobs) {

    private static final ObjectMapper JSON = new ObjectMapper();

    public AgentRecord {
        Objects.requireNonNull(questionId, "questionId");
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(nodeId, "nodeId");
        messages = messages == null ? List.of() : List.copyOf(messages);
        response = Objects.requireNonNullElse(response, "");
    }

    /** A record of a step with a reward and nothing token-level. */
    public static AgentRecord of(String run, String questionId, String method, String role, String nodeId,
                                 String parentId, List<ChatMessage> messages, String response, Double reward) {
        return new AgentRecord(run, questionId, method, role, nodeId, parentId, messages, response, reward, null, null,
                null, null, null);
    }

    /**
     * This record with the serving engine's view of the sample it holds: prompt and response token ids, and the
     * chosen tokens' logprobs, each where the completion has them (a server that ignored the request for them leaves
     * the record without). Null: unchanged.
     */
    public AgentRecord withTokens(Completion c) {
        if (c == null) {
            return this;
        }
        return new AgentRecord(run, questionId, method, role, nodeId, parentId, messages, response, reward, credit,
                advantage, c.tokenIds().map(TokenIds::prompt).orElse(promptIds),
                c.tokenIds().map(TokenIds::response).orElse(responseIds),
                c.logprobs().map(l -> l.stream().map(TokenLogprob::logprob).toList()).orElse(logprobs));
    }

    public ObjectNode toJson() {
        ObjectNode o = JSON.createObjectNode();
        o.put(SchemaVersion.FIELD, SchemaVersion.CURRENT);
        o.put("run", run);
        o.put("question_id", questionId);
        o.put("method", method);
        o.put("role", role);
        o.put("node_id", nodeId);
        if (parentId == null) {
            o.putNull("parent_id");
        } else {
            o.put("parent_id", parentId);
        }
        ArrayNode m = o.putArray("messages");
        for (ChatMessage c : messages) {
            m.addObject().put("role", c.role().wireName()).put("content", c.content());
        }
        o.put("response", response);
        if (reward == null) {
            o.putNull("reward");
        } else {
            o.put("reward", reward);
        }
        if (credit != null) {
            o.put("credit", credit);
        }
        if (advantage != null) {
            o.put("advantage", advantage);
        }
        if (promptIds != null) {
            promptIds.forEach(o.putArray("prompt_ids")::add);
        }
        if (responseIds != null) {
            responseIds.forEach(o.putArray("response_ids")::add);
        }
        if (logprobs != null) {
            logprobs.forEach(o.putArray("logprobs")::add);
        }
        return o;
    }

    /**
     * Reads a record back (the inspector, tests); a line without the required fields, or with token fields that are
     * not lists of numbers, is an error naming the field.
     */
    public static AgentRecord fromJson(JsonNode n) {
        JsonNode version = n.get(SchemaVersion.FIELD);
        if (version != null && !version.isNull() && !version.canConvertToInt()) {
            throw new IllegalArgumentException("an agent record's \"" + SchemaVersion.FIELD + "\" must be a number");
        }
        SchemaVersion.check(version == null || version.isNull() ? null : version.intValue(), "an agent record");
        for (String f : List.of("question_id", "role", "node_id")) {
            if (!n.path(f).isTextual()) {
                throw new IllegalArgumentException("an agent record needs a string \"" + f + "\"");
            }
        }
        List<ChatMessage> messages = new ArrayList<>();
        n.path("messages").forEach(m -> messages.add(new ChatMessage(ChatMessage.Role.fromWire(m.path("role").asText()),
                m.path("content").asText(""))));
        return new AgentRecord(n.path("run").asText(null), n.get("question_id").asText(), n.path("method").asText(null),
                n.get("role").asText(), n.get("node_id").asText(), n.path("parent_id").isTextual()
                ? n.get("parent_id").asText() : null, messages, n.path("response").asText(""), number(n, "reward"),
                number(n, "credit"), number(n, "advantage"), ints(n, "prompt_ids"), ints(n, "response_ids"),
                numbers(n, "logprobs"));
    }

    private static Double number(JsonNode n, String f) {
        return n.path(f).isNumber() ? n.get(f).asDouble() : null;
    }

    /** An optional list of integers (token ids); present but not one is an error naming the field. */
    private static List<Integer> ints(JsonNode n, String f) {
        List<Integer> out = new ArrayList<>();
        return list(n, f, v -> v.isIntegralNumber() && v.canConvertToInt(), v -> out.add(v.intValue()), "integers")
                ? out : null;
    }

    /** An optional list of numbers (logprobs); present but not one is an error naming the field. */
    private static List<Double> numbers(JsonNode n, String f) {
        List<Double> out = new ArrayList<>();
        return list(n, f, JsonNode::isNumber, v -> out.add(v.doubleValue()), "numbers") ? out : null;
    }

    private static boolean list(JsonNode n, String f, java.util.function.Predicate<JsonNode> ok,
                                java.util.function.Consumer<JsonNode> add, String what) {
        JsonNode a = n.get(f);
        if (a == null || a.isNull()) {
            return false;
        }
        if (!a.isArray()) {
            throw new IllegalArgumentException("an agent record's \"" + f + "\" must be a list of " + what);
        }
        for (JsonNode v : a) {
            if (!ok.test(v)) {
                throw new IllegalArgumentException("an agent record's \"" + f + "\" must be a list of " + what);
            }
            add.accept(v);
        }
        return true;
    }
}
