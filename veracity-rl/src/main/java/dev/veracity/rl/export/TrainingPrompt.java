package dev.veracity.rl.export;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.llm.ChatMessage;
import dev.veracity.method.AgentPrompt;
import dev.veracity.qa.QaItem;
import dev.veracity.rl.jsonl.JsonlRows;
import java.util.List;

/**
 * One prompt of a training file and what its row says about it.
 *
 * @param dataSource the dataset's canonical name (VeRL {@code data_source}, OpenRLHF {@code datasource})
 * @param split      the split named on the command line ({@code extra_info.split})
 * @param index      the row's position in the file, from 0 ({@code extra_info.index})
 * @param item       the question as the prompt was built from it
 * @param method     the method whose prompt it is
 * @param role       the role
 * @param prompt     the agent and its messages
 * @param label      the label the reward core reads ({@link ExportLabel}); null for SFT and preference formats
 */
record TrainingPrompt(String dataSource, String split, long index, QaItem item, String method, String role,
                      AgentPrompt prompt, ObjectNode label) {

    /** The messages as chat JSON: {@code [{"role": "user", "content": "..."}]}. */
    ArrayNode messagesJson() {
        return messages(prompt.messages());
    }

    /** The label as the JSON string the trainers carry and the reward core parses. */
    String labelText() {
        return label.toString();
    }

    static ArrayNode messages(List<ChatMessage> messages) {
        ArrayNode a = JsonlRows.JSON.createArrayNode();
        for (ChatMessage m : messages) {
            a.addObject().put("role", m.role().wireName()).put("content", m.content());
        }
        return a;
    }

    /** One assistant message, the shape TRL's conversational completions take. */
    static ArrayNode assistant(String content) {
        return messages(List.of(ChatMessage.assistant(content)));
    }
}
