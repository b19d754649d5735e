package dev.veracity.rl.export;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.llm.ChatMessage;
import dev.veracity.rl.jsonl.JsonlRows;
import java.util.List;

/**
 * LLaMA-Factory's alpaca format (LLaMA-Factory {@code data/README.md}, at ff6d4d12): {@code instruction} is the user
 * message, {@code input} empty (its converter joins the two with a newline and skips an empty input, so the user turn
 * is the prompt exactly: {@code src/llamafactory/data/converter.py} {@code AlpacaDatasetConverter}), {@code system}
 * the system message when the prompt has one; then {@code output} (SFT) or {@code chosen}/{@code rejected}
 * (preference, {@code "ranking": true} in {@code dataset_info.json}). Our role prompts are one user message and at
 * most one system message before it; any other shape has no alpaca form and is refused.
 */
final class LlamaFactoryRow {

    private LlamaFactoryRow() {
    }

    static ObjectNode sft(TrainingPrompt p, String response) {
        ObjectNode o = prompt(p);
        o.put("output", response);
        return o;
    }

    static ObjectNode preference(TrainingPrompt p, String chosen, String rejected) {
        ObjectNode o = prompt(p);
        o.put("chosen", chosen);
        o.put("rejected", rejected);
        return o;
    }

    /** Whether the prompt has a system message (then the {@code system} column is declared). */
    static boolean hasSystem(List<ChatMessage> messages) {
        return messages.getFirst().role() == ChatMessage.Role.SYSTEM;
    }

    private static ObjectNode prompt(TrainingPrompt p) {
        List<ChatMessage> m = p.prompt().messages();
        boolean system = hasSystem(m);
        List<ChatMessage> rest = system ? m.subList(1, m.size()) : m;
        if (rest.size() != 1 || rest.getFirst().role() != ChatMessage.Role.USER) {
            throw new IllegalArgumentException(p.method() + ":" + p.role() + "'s prompt is not one user message (after an"
                    + " optional system message): it has no LLaMA-Factory alpaca form; use --format trl-sft or trl-dpo");
        }
        ObjectNode o = JsonlRows.JSON.createObjectNode();
        o.put("instruction", rest.getFirst().content());
        o.put("input", "");
        if (system) {
            o.put("system", m.getFirst().content());
        }
        return o;
    }
}
