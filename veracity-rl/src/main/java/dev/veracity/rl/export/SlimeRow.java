package dev.veracity.rl.export;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.rl.jsonl.JsonlRows;

/**
 * A slime prompt row: {@code {"prompt": [messages], "label": "<label JSON>", "metadata": {"source_name", "id",
 * "question", "method", "role", "agent"}}}. slime reads {@code data[--input-key]} (default {@code input}; its
 * documentation and examples use {@code --input-key prompt --label-key label --apply-chat-template}),
 * {@code data[--label-key]} (no default) into {@code Sample.label}, which its remote reward posts as given, and
 * {@code data[--metadata-key]} (default {@code metadata}), where {@code source_name} names the data source
 * ({@code slime/utils/data.py} {@code Dataset}, {@code slime/utils/arguments.py} l. 656-669,
 * {@code docs/en/get_started/usage.md} "Data Format", slime at 624b824a).
 */
final class SlimeRow {

    private SlimeRow() {
    }

    static ObjectNode of(TrainingPrompt p) {
        ObjectNode o = JsonlRows.JSON.createObjectNode();
        o.set("prompt", p.messagesJson());
        o.put("label", p.labelText());
        o.putObject("metadata")
                .put("source_name", p.dataSource())
                .put("id", p.item().id())
                .put("question", p.item().question())
                .put("method", p.method())
                .put("role", p.role())
                .put("agent", p.prompt().agent());
        return o;
    }
}
