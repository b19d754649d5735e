package dev.veracity.rl.export;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.rl.jsonl.JsonlRows;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;

/**
 * A VeRL RL dataset row, as its preprocessing examples write them (verl {@code examples/data_preprocess/gsm8k.py}
 * l. 68-85 and {@code preprocess_search_r1_dataset.py} l. 45-98, at commit b178a3cd):
 * <pre>{@code
 * {"data_source": "ramdocs", "prompt": [{"role": "user", "content": "..."}], "ability": "fact-reasoning",
 *  "reward_model": {"style": "rule", "ground_truth": "{\"answers\": [...], ...}"},
 *  "extra_info": {"split": "train", "index": 0, "id": "...", "question": "...", "method": "march", "role": "solver",
 *                 "agent": "solver"},
 *  "agent_name": "..."}    // only when asked for: VeRL's agent loop picks its loop by it
 * }</pre>
 * {@code ability} is Search-R1's tag for QA ("fact-reasoning"; VeRL only logs it). {@code ground_truth} is the label
 * as a JSON string: VeRL hands it unchanged to {@code compute_score(data_source, solution_str, ground_truth,
 * extra_info)}, and one string type keeps the parquet column uniform across rows with and without documents.
 */
final class VerlRow {

    /** Search-R1's (and VeRL's search examples') ability for open-domain QA data. */
    static final String ABILITY = "fact-reasoning";

    /**
     * The parquet schema of these rows; VeRL reads nested lists and structs with pyarrow. Every field is optional, as
     * pyarrow and DuckDB write them, and {@code prompt} is a LIST of {@code {role, content}} structs in Parquet's
     * standard three-level layout (pyarrow's {@code list<element: struct<role: string, content: string>>}).
     */
    static MessageType schema(boolean agentName) {
        return MessageTypeParser.parseMessageType("""
                message schema {
                  optional binary data_source (STRING);
                  optional group prompt (LIST) {
                    repeated group list {
                      optional group element {
                        optional binary role (STRING);
                        optional binary content (STRING);
                      }
                    }
                  }
                  optional binary ability (STRING);
                  optional group reward_model {
                    optional binary style (STRING);
                    optional binary ground_truth (STRING);
                  }
                  optional group extra_info {
                    optional binary split (STRING);
                    optional int64 index (INTEGER(64,true));
                    optional binary id (STRING);
                    optional binary question (STRING);
                    optional binary method (STRING);
                    optional binary role (STRING);
                    optional binary agent (STRING);
                  }
                """ + (agentName ? "  optional binary agent_name (STRING);\n" : "") + "}");
    }

    private VerlRow() {
    }

    static ObjectNode of(TrainingPrompt p, String agentName) {
        ObjectNode o = JsonlRows.JSON.createObjectNode();
        o.put("data_source", p.dataSource());
        o.set("prompt", p.messagesJson());
        o.put("ability", ABILITY);
        o.putObject("reward_model").put("style", "rule").put("ground_truth", p.labelText());
        o.putObject("extra_info")
                .put("split", p.split())
                .put("index", p.index())
                .put("id", p.item().id())
                .put("question", p.item().question())
                .put("method", p.method())
                .put("role", p.role())
                .put("agent", p.prompt().agent());
        if (agentName != null) {
            o.put("agent_name", agentName);
        }
        return o;
    }
}
