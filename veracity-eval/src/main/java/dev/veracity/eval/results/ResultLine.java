package dev.veracity.eval.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Map;

/**
 * One line of {@code results.jsonl}: an answered question (its prediction, gold answers, scores, what it cost, how its
 * documents were found), or a failure record ({@link #failed()} set: the question is asked again by the next run).
 * Fields a line does not have are null and not written; lines of earlier runs lack the fields added since.
 *
 * @param schemaVersion    {@link dev.veracity.schema.SchemaVersion} (null in lines written before it)
 * @param position         the question's place among the run's questions, from 0: the order of the dataset file (of
 *                         the drawn sample for a paper's sample); lines are written as questions finish, so the report
 *                         lists them by it (null in lines written before it)
 * @param questionType     CRAG's question type, by which report and compare break a run down
 * @param raw              the output the prediction was read from, when not the prediction itself
 * @param answers          the answer set read from the prediction (multi-answer datasets)
 * @param metrics          each metric's score by name, and its fields as {@code name.field} (numbers, strings, flags)
 * @param calls            model requests; {@code samples} the samples they asked for
 * @param modelMs          the model's time, absent when a cache entry lacked its latency
 * @param roles            per agent role, its calls, samples and seconds
 * @param truncated        the outputs a token limit cut
 * @param candidates       the answers the method chose among (Reasoning Court's agents)
 * @param retrieval        where the question's documents came from
 * @param parseFailures    model outputs the method could not parse
 * @param signals          numbers the method reports per question (MARCH's verification)
 * @param judge            the run's judge's verdict
 * @param failed           a failure record's reason (null for an answer)
 * @param failedKind       a failure record's error kind
 * @param error            an error the question met, in lines of early runs (not written any more)
 * @param details          what a plug-in method reports beyond its answer ({@code MethodAnswer.details}), by its keys'
 *                         names; the Court's candidates have their own field
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ResultLine(Integer schemaVersion, String id, Integer position, String question, String questionType, String prediction,
                         String raw, List<String> answers, List<String> gold, List<String> wrong,
                         @JsonInclude(value = JsonInclude.Include.NON_NULL, content = JsonInclude.Include.ALWAYS)
                         Map<String, Object> metrics,
                         Long calls, Long samples, Long promptTokens, Long completionTokens, Long cacheHits,
                         Long cachedSamples, Long cachedTokens, Double wallMs, Double criticalPathMs, Double modelMs,
                         String traceRun, Map<String, Role> roles, Cut truncated, List<Candidate> candidates,
                         Retrieval retrieval, List<String> parseFailures, Map<String, Double> signals, Judge judge,
                         String failed, String failedKind, String error, Map<String, Object> details) {

    /**
     * A failure record: the question at {@code position} (null: not known) failed after all retries, for
     * {@code reason}, of error {@code kind}.
     */
    public static ResultLine failure(String id, Integer position, String question, String reason, String kind) {
        return new ResultLine(null, id, position, question, null, null, null, null, null, null, null, null, null, null, null,
                null, null, null, null, null, null, null, null, null, null, null, null, null, null, reason, kind, null, null);
    }

    /** The JSON tree of this ResultLine as it is written (for printing it, and for tests of the file's shape). */
    public com.fasterxml.jackson.databind.JsonNode toJson() {
        return ResultsJson.tree(this);
    }

    /** Whether this is a failure record. */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public boolean isFailure() {
        return failed != null;
    }

    /** This line with {@code schema_version} set to {@code version}. */
    public ResultLine withSchemaVersion(Integer version) {
        return new ResultLine(version, id, position, question, questionType, prediction, raw, answers, gold, wrong, metrics,
                calls, samples, promptTokens, completionTokens, cacheHits, cachedSamples, cachedTokens, wallMs,
                criticalPathMs, modelMs, traceRun, roles, truncated, candidates, retrieval, parseFailures, signals,
                judge, failed, failedKind, error, details);
    }

    /** The prediction, or "" when the line has none. */
    public String predictionText() {
        return prediction == null ? "" : prediction;
    }

    /** The gold answers, or none. */
    public List<String> goldOrEmpty() {
        return gold == null ? List.of() : gold;
    }

    /**
     * A per-question figure by its field name ({@code calls}, {@code samples}, {@code prompt_tokens},
     * {@code completion_tokens}, {@code cache_hits}, {@code cached_samples}, {@code cached_tokens}, {@code wall_ms},
     * {@code critical_path_ms}, {@code model_ms}), or null when the line has none.
     */
    public Number figure(String field) {
        return switch (field) {
            case "calls" -> calls;
            case "samples" -> samples;
            case "prompt_tokens" -> promptTokens;
            case "completion_tokens" -> completionTokens;
            case "cache_hits" -> cacheHits;
            case "cached_samples" -> cachedSamples;
            case "cached_tokens" -> cachedTokens;
            case "wall_ms" -> wallMs;
            case "critical_path_ms" -> criticalPathMs;
            case "model_ms" -> modelMs;
            default -> throw new IllegalArgumentException("a result line has no figure '" + field + "'");
        };
    }

    /** The metric values by name, or none. */
    public Map<String, Object> metricsOrEmpty() {
        return metrics == null ? Map.of() : metrics;
    }

    /** The signals by name, or none. */
    public Map<String, Double> signalsOrEmpty() {
        return signals == null ? Map.of() : signals;
    }

    /** One metric's value as a number, or null when the line has none or it is not a number. */
    public Double metricValue(String name) {
        return metricsOrEmpty().get(name) instanceof Number n ? n.doubleValue() : null;
    }

    /** One agent role's figures within the question. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Role(Long calls, Long samples, Double seconds, Double modelSeconds) {
    }

    /** The outputs of the question a token limit cut: samples, per role, and whether the answer was read from one. */
    public record Cut(long samples, Map<String, Long> roles, boolean answer) {

        /** The line's {@code truncated} object for {@code t}: {@code {"samples", "roles": {role: n}, "answer"}}. */
        public static Cut of(dev.veracity.method.Truncation t) {
            Map<String, Long> r = new java.util.LinkedHashMap<>();
            new java.util.TreeMap<>(t.roles()).forEach((k, v) -> r.put(k, v.longValue()));
            return new Cut(t.samples(), r, t.answer());
        }
    }

    /** An answer the method chose among: the agent that gave it, its steps, whether it was forced, a note. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Candidate(String agent, String answer, Integer steps, Boolean forced, String note) {
    }

    /**
     * Where the question's documents came from ({@code source}: dataset, index or none): the index's hits (ids,
     * scores, search time), or the dataset's document count; whether a document contains a gold answer.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Retrieval(String source, List<String> ids, List<Double> scores, Double ms, Integer documents,
                            Boolean answerFound) {
    }

    /**
     * The judge's verdict: its name and outcome ({@code CORRECT}, {@code INCORRECT}, {@code UNPARSEABLE}); in TruthRL's
     * order ({@code order} "truthrl") what decided it and the judge's calls.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Judge(String name, String outcome, Long unparseableSamples, String explanation, String order,
                        String decidedBy, Integer judgeCalls) {
    }
}
