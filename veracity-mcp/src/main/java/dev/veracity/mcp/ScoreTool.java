package dev.veracity.mcp;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.eval.metrics.ItemScore;
import dev.veracity.eval.metrics.Metric;
import dev.veracity.eval.metrics.Metrics;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import java.util.List;

/**
 * {@code score}: one prediction scored against its gold answers by a benchmark metric, as {@code veracity score}
 * scores a file's lines ({@link Metrics}: em, f1, the official scripts' variants, substring, fever-acc,
 * strict-multi, truthfulness).
 */
final class ScoreTool {

    static final String INPUT = """
            {"type": "object", "properties": {
              "prediction": {"type": "string"},
              "gold": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}], "description": "The gold answer or answers (aliases)"},
              "wrong": {"type": "array", "items": {"type": "string"}, "description": "Wrong answers (strict-multi)"},
              "metric": {"type": "string", "description": "em, f1, nq-em, triviaqa-em, triviaqa-f1, musique-em, musique-f1, substring, fever-acc, strict-multi, truthfulness"}
            }, "required": ["prediction", "gold", "metric"]}""";

    static final String OUTPUT = """
            {"type": "object", "properties": {
              "metric": {"type": "string"}, "score": {"type": "number"}, "counted": {"type": "boolean"},
              "fields": {"type": "object", "additionalProperties": true}
            }, "required": ["metric", "score"]}""";

    private ScoreTool() {
    }

    static SyncToolSpecification spec() {
        return ToolSpec.of("score", "Score a prediction", "Score a prediction against its gold answers with a benchmark"
                + " metric, as the official evaluation scripts do.", INPUT, OUTPUT, (exchange, request, args) -> {
                    String prediction = args.optString("prediction");
                    List<String> gold = args.strings("gold");
                    if (prediction == null) {
                        throw new ToolError("missing 'prediction': give it as a string");
                    }
                    if (gold.isEmpty()) {
                        throw new ToolError("missing 'gold': give the gold answer as a string or a list of strings");
                    }
                    String name = args.string("metric").strip();
                    Metric metric;
                    try {
                        metric = Metrics.byName(name);
                    } catch (IllegalArgumentException e) {
                        throw new ToolError(e.getMessage());
                    }
                    ItemScore s = metric.score(prediction, gold, args.strings("wrong"));
                    ObjectNode out = ToolSpec.JSON.createObjectNode();
                    out.put("metric", metric.name());
                    out.put("score", s.score());
                    out.put("counted", s.counted());
                    out.set("fields", ToolSpec.JSON.valueToTree(s.fields()));
                    return out;
                });
    }
}
