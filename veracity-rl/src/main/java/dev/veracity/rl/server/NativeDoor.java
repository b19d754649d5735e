package dev.veracity.rl.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.http.HttpProblem;
import dev.veracity.http.JsonCall;
import dev.veracity.http.JsonReply;
import dev.veracity.http.JsonRoute;
import dev.veracity.rl.reward.Reward;
import dev.veracity.rl.reward.RewardInput;
import dev.veracity.rl.reward.RewardResult;
import dev.veracity.rl.reward.RewardRows;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The native batch endpoint, {@code POST /v1/rewards}, which the Python shims call: the rows of
 * {@code veracity reward} in, their {@code reward} and {@code details} out, in order.
 * <pre>
 * {"items": [{"question": "...", "response": "...", "label": ..., "context": {"data_source": "nq"}}, ...],
 *  "reward": "truthrl-ternary"}
 * -> {"reward": "truthrl-ternary", "results": [{"reward": 1.0, "details": {"outcome": "correct", "boxed": true}}, ...]}
 * </pre>
 * {@code question} (default "") and {@code context} (string values, passed to the reward) are optional;
 * {@code reward}, when given, must be the served reward's name, so a client pointed at the wrong server is told. The
 * response is scored as sent (no chat-template stripping): the same function as the Java API and the file door.
 */
final class NativeDoor implements JsonRoute {

    private static final String SHAPE = "{\"items\": [{\"question\", \"response\", \"label\"}, ...]}";

    private final Reward reward;
    private final DeadlineScorer scorer;
    private final int maxResponseChars;

    NativeDoor(Reward reward, DeadlineScorer scorer, int maxResponseChars) {
        this.reward = reward;
        this.scorer = scorer;
        this.maxResponseChars = maxResponseChars;
    }

    @Override
    public JsonReply handle(JsonCall call) throws InterruptedException {
        JsonNode body = RequestFields.object(call.body(), SHAPE);
        JsonNode asked = body.get("reward");
        if (asked != null && !asked.isNull() && !(asked.isTextual() && asked.textValue().equals(reward.name()))) {
            throw HttpProblem.badRequest("this server scores with " + reward.name() + ", not " + asked
                    + ": start serve-rewards with --reward " + (asked.isTextual() ? asked.textValue() : "NAME")
                    + " or drop \"reward\"");
        }
        JsonNode items = RequestFields.list(body, "items");
        call.requireBatch(items.size(), "\"items\"");
        List<DeadlineScorer.Item> inputs = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            String where = "items[" + i + "]";
            JsonNode item = items.get(i);
            if (!item.isObject()) {
                throw HttpProblem.badRequest(where + " must be an object {\"question\", \"response\", \"label\"}, was "
                        + RequestFields.kind(item));
            }
            JsonNode q = item.get("question");
            String question = q == null || q.isNull() ? "" : RequestFields.text(q, where + ".question");
            String response = RequestFields.text(item.get("response"), where + ".response");
            RequestFields.checkLength(response, maxResponseChars, where + ".response");
            RewardInput input = new RewardInput(question, response,
                    RequestFields.label(item.get("label"), where + ".label"), context(item.get("context"), where));
            inputs.add(DeadlineScorer.Item.score(RequestFields.scorable(reward, input, where)));
        }
        List<RewardResult> results = scorer.score("native", inputs, call.startedNanos());
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.put("reward", reward.name());
        ArrayNode rs = out.putArray("results");
        for (RewardResult r : results) {
            ObjectNode o = rs.addObject();
            o.put("reward", r.score());
            o.set("details", RewardRows.details(r));
        }
        return JsonReply.ok(out);
    }

    private static Map<String, String> context(JsonNode c, String where) {
        if (c == null || c.isNull()) {
            return Map.of();
        }
        if (!c.isObject()) {
            throw HttpProblem.badRequest(where + ".context must be an object of strings, was " + RequestFields.kind(c));
        }
        Map<String, String> out = new LinkedHashMap<>();
        c.properties().forEach(e -> out.put(e.getKey(), RequestFields.text(e.getValue(), where + ".context." + e.getKey())));
        return out;
    }
}
