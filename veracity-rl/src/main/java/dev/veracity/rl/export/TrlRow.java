package dev.veracity.rl.export;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.rl.jsonl.JsonlRows;
import java.util.List;

/**
 * TRL's conversational dataset types (TRL {@code docs/source/dataset_formats.md}, 1.10.0.dev at f2cd5771):
 * <ul>
 *   <li>{@code trl}, prompt-only for GRPO/RLOO: {@code {"prompt": [messages], "label", "answers", "data_source",
 *       "id", "question"}}. GRPOTrainer passes every column but the prompt and completion to the reward functions as
 *       keyword arguments ({@code trl/trainer/grpo_trainer.py} l. 1617), so our shim reads {@code label} and a
 *       hand-written reward can read {@code answers};</li>
 *   <li>{@code trl-dpo}, preference: {@code {"prompt": [messages], "chosen": [assistant], "rejected": [assistant]}};</li>
 *   <li>{@code trl-sft}, language modeling: {@code {"messages": [prompt messages..., assistant]}}.</li>
 * </ul>
 */
final class TrlRow {

    private TrlRow() {
    }

    static ObjectNode prompt(TrainingPrompt p, List<String> answers) {
        ObjectNode o = JsonlRows.JSON.createObjectNode();
        o.set("prompt", p.messagesJson());
        o.put("label", p.labelText());
        ArrayNode a = o.putArray("answers");
        answers.forEach(a::add);
        o.put("data_source", p.dataSource());
        o.put("id", p.item().id());
        o.put("question", p.item().question());
        return o;
    }

    static ObjectNode preference(TrainingPrompt p, String chosen, String rejected) {
        ObjectNode o = JsonlRows.JSON.createObjectNode();
        o.set("prompt", p.messagesJson());
        o.set("chosen", TrainingPrompt.assistant(chosen));
        o.set("rejected", TrainingPrompt.assistant(rejected));
        return o;
    }

    static ObjectNode sft(TrainingPrompt p, String response) {
        ObjectNode o = JsonlRows.JSON.createObjectNode();
        ArrayNode m = p.messagesJson();
        m.addAll(TrainingPrompt.assistant(response));
        o.set("messages", m);
        return o;
    }
}
