package dev.veracity.methods.march;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.List;

/**
 * One trajectory for RL (equation 8): the Solver's response, and one Checker sample, each with the ZTR of its
 * question ("both trajectories derive their terminal reward from the same evidentiary identity match"). As in the
 * authors' code, only one Checker sample (sample 0) is trained and the Proposer is not. One JSONL line:
 * {@code {"question_id", "attempt", "role", "prompt": [{"role": "user", "content": ...}], "response", "reward"}}.
 */
public record TrainingRecord(String questionId, int attempt, String role, String prompt, String response, double reward) {

    private static final ObjectMapper JSON = new ObjectMapper();

    public ObjectNode toJson() {
        ObjectNode o = JSON.createObjectNode();
        o.put("question_id", questionId);
        o.put("attempt", attempt);
        o.put("role", role);
        ObjectNode m = o.putArray("prompt").addObject();
        m.put("role", "user");
        m.put("content", prompt);
        o.put("response", response);
        o.put("reward", reward);
        return o;
    }

    public String toJsonLine() {
        return toJson().toString();
    }

    /** Writes one line per record. */
    public static void writeJsonl(Writer out, List<TrainingRecord> records) {
        try {
            for (TrainingRecord r : records) {
                out.write(r.toJsonLine());
                out.write('\n');
            }
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
