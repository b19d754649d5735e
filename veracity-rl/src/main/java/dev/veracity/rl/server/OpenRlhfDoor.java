package dev.veracity.rl.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * OpenRLHF's remote reward ({@code --reward.remote_url http://HOST:PORT/get_reward}, formerly {@code --remote_rm_url}):
 * {@code POST /get_reward} (or {@code POST /}) with {@code {"query": [...], "prompts": [...], "labels": [...]}}, as
 * {@code openrlhf/utils/agent.py} {@code SingleTurnAgentExecutor._fetch_rewards_via_http} sends it (OpenRLHF 0.11.0,
 * commit 3c3be623), answered {@code {"rewards": [...], "scores": [...], "extra_logs": {...}}} like its own
 * {@code openrlhf/cli/serve_rm.py}.
 * <p>Each query is the prompt and the response decoded with special tokens: the prompt prefix and the end tokens are
 * removed ({@link ChatTemplateText}) and the rest is scored. A query that does not start with its prompt gets the
 * fallback score, flagged, rather than a score of its prompt text.
 * <p>{@code scores} repeat {@code rewards} (serve_rm does the same). {@code extra_logs} ({@link ExtraLogs}) has one
 * list per key, one number per item, and the same keys in every answer: the reward's declared numeric details
 * (booleans as 1/0; the detail's neutral value for an item without it, a fallback included) and {@code fallback} (1
 * for a fallback score). Only numbers, because OpenRLHF turns every value into a tensor
 * ({@code openrlhf/trainer/ppo_utils/samples_generator.py}, {@code info[key] = torch.tensor([value])}): a string would
 * stop the trainer. Fallback reasons are in the server log.
 */
final class OpenRlhfDoor implements JsonRoute {

    private static final String SHAPE = "{\"query\": [...], \"prompts\": [...], \"labels\": [...]}";

    private final Reward reward;
    private final DeadlineScorer scorer;
    private final int maxResponseChars;
    private final ExtraLogs extraLogs;

    OpenRlhfDoor(Reward reward, DeadlineScorer scorer, int maxResponseChars, ExtraLogs extraLogs) {
        this.reward = reward;
        this.scorer = scorer;
        this.maxResponseChars = maxResponseChars;
        this.extraLogs = extraLogs;
    }

    @Override
    public JsonReply handle(JsonCall call) throws InterruptedException {
        JsonNode body = RequestFields.object(call.body(), SHAPE);
        JsonNode queries = RequestFields.list(body, "query");
        JsonNode prompts = RequestFields.list(body, "prompts");
        JsonNode labels = RequestFields.list(body, "labels");
        if (queries.size() != prompts.size() || queries.size() != labels.size()) {
            throw HttpProblem.badRequest(String.format(Locale.ROOT, "\"query\" has %d items, \"prompts\" %d and "
                    + "\"labels\" %d: they must be the same length (one prompt and one label per query)",
                    queries.size(), prompts.size(), labels.size()));
        }
        call.requireBatch(queries.size(), "\"query\"");
        List<DeadlineScorer.Item> items = new ArrayList<>(queries.size());
        for (int i = 0; i < queries.size(); i++) {
            String query = RequestFields.text(queries.get(i), "query[" + i + "]");
            String prompt = RequestFields.text(prompts.get(i), "prompts[" + i + "]");
            Label label = RequestFields.label(labels.get(i), "labels[" + i + "]"
                    + (labels.get(i).isTextual() && labels.get(i).textValue().isEmpty()
                    ? " (OpenRLHF sends \"\" when --data.label_key is not set)" : ""));
            Optional<String> rest = ChatTemplateText.afterPrompt(query, prompt);
            if (rest.isEmpty()) {
                items.add(DeadlineScorer.Item.fallback("query[" + i + "] does not start with prompts[" + i
                        + "], so the response in it is unknown"));
                continue;
            }
            String response = ChatTemplateText.withoutEndTokens(rest.get());
            RequestFields.checkLength(response, maxResponseChars, "the response in query[" + i + "]");
            items.add(DeadlineScorer.Item.score(RequestFields.scorable(reward,
                    RewardInput.of(prompt, response, label), "labels[" + i + "]")));
        }
        return JsonReply.ok(answer(scorer.score("openrlhf", items, call.startedNanos())));
    }

    ObjectNode answer(List<RewardResult> results) {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        ArrayNode rewards = out.putArray("rewards");
        ArrayNode scores = out.putArray("scores");
        for (RewardResult r : results) {
            rewards.add(r.score());
            scores.add(r.score());
        }
        out.set("extra_logs", extraLogs.of(results));
        return out;
    }
}
