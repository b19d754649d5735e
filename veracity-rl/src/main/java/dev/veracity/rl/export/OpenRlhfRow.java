package dev.veracity.rl.export;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.rl.jsonl.JsonlRows;

/**
 * An OpenRLHF PPO prompt row: {@code {"input": [chat messages], "label": "<label JSON>", "datasource": "ramdocs"}}.
 * OpenRLHF reads {@code data[input_key]} ({@code --data.input_key}, default {@code input}) and, with
 * {@code --data.apply_chat_template}, applies the tokenizer's chat template to a message list; the label comes from
 * {@code --data.label_key label} (no default) and reaches the remote reward as given; {@code datasource} is read by
 * name ({@code openrlhf/datasets/prompts_dataset.py} {@code preprocess_data} and {@code PromptDataset}, OpenRLHF
 * 0.11.0 at 3c3be623; the flags in {@code openrlhf/cli/train_ppo_ray.py} l. 542-547).
 */
final class OpenRlhfRow {

    private OpenRlhfRow() {
    }

    static ObjectNode of(TrainingPrompt p) {
        ObjectNode o = JsonlRows.JSON.createObjectNode();
        o.set("input", p.messagesJson());
        o.put("label", p.labelText());
        o.put("datasource", p.dataSource());
        return o;
    }
}
