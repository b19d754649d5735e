package dev.veracity.rl.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.http.HttpProblem;
import dev.veracity.http.JsonCall;
import dev.veracity.http.JsonReply;
import dev.veracity.http.JsonRoute;
import dev.veracity.rl.reward.Label;
import dev.veracity.rl.reward.Reward;
import dev.veracity.rl.reward.RewardInput;
import dev.veracity.rl.reward.RewardResult;
import dev.veracity.rl.reward.RewardRows;
import java.util.List;

/**
 * slime's remote reward ({@code --rm-type remote_rm --rm-url http://HOST:PORT/slime --reward-key reward}):
 * {@code POST /slime} with {@code {"prompt", "response", "label"}}, one sample per request, as
 * {@code slime/rollout/rm_hub/__init__.py} {@code remote_rm} sends it (commit 624b824a), answered
 * {@code {"reward": r, ...details}}. slime keeps the whole JSON as the sample's reward and reads the number with
 * {@code --reward-key reward}. The prompt is a string or a list of chat messages (slime's {@code Sample.prompt});
 * the question is the prompt string, or the last user message's content. End tokens at the response's end are removed
 * ({@link ChatTemplateText}), as for OpenRLHF.
 */
final class SlimeDoor implements JsonRoute {

    private static final String SHAPE = "{\"prompt\": \"...\", \"response\": \"...\", \"label\": \"...\"}";

    private final Reward reward;
    private final DeadlineScorer scorer;
    private final int maxResponseChars;

    SlimeDoor(Reward reward, DeadlineScorer scorer, int maxResponseChars) {
        this.reward = reward;
        this.scorer = scorer;
        this.maxResponseChars = maxResponseChars;
    }

    @Override
    public JsonReply handle(JsonCall call) throws InterruptedException {
        JsonNode body = RequestFields.object(call.body(), SHAPE);
        String response = ChatTemplateText.withoutEndTokens(RequestFields.text(body.get("response"), "\"response\""));
        RequestFields.checkLength(response, maxResponseChars, "\"response\"");
        JsonNode labelNode = body.get("label");
        if (labelNode == null || labelNode.isNull()) {
            throw HttpProblem.badRequest("missing \"label\": slime sends the dataset's --label-key column; set it");
        }
        Label label = RequestFields.label(labelNode, "\"label\"");
        RewardInput input = RequestFields.scorable(reward, RewardInput.of(question(body.get("prompt")), response, label),
                "\"label\"");
        RewardResult r = scorer.score("slime", List.of(DeadlineScorer.Item.score(input)), call.startedNanos()).getFirst();
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.put("reward", r.score());
        out.setAll(RewardRows.details(r));
        return JsonReply.ok(out);
    }

    /** The prompt string, or the content of the last user message of a chat prompt; "" when absent. */
    private static String question(JsonNode prompt) {
        if (prompt == null || prompt.isNull()) {
            return "";
        }
        if (prompt.isTextual()) {
            return prompt.textValue();
        }
        if (!prompt.isArray()) {
            throw HttpProblem.badRequest("\"prompt\" must be a string or a list of chat messages, was " + RequestFields.kind(prompt));
        }
        String question = "";
        for (int i = 0; i < prompt.size(); i++) {
            JsonNode m = prompt.get(i);
            if (!m.isObject() || !m.path("role").isTextual()) {
                throw HttpProblem.badRequest("\"prompt\" item " + i + " must be a chat message {\"role\", \"content\"}");
            }
            if (m.get("role").textValue().equals("user") && m.path("content").isTextual()) {
                question = m.get("content").textValue();
            }
        }
        return question;
    }
}
