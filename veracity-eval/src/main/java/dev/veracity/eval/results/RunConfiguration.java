package dev.veracity.eval.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Map;

/**
 * {@code run.json}: what an eval run's answers depend on, written before its first question; a run started again in
 * the same folder resumes only with the same configuration. {@code summary.json} carries a copy as {@code config}.
 *
 * @param schemaVersion {@link dev.veracity.schema.SchemaVersion} (null in files written before it)
 * @param methodOptions the method's options as resolved (defaults filled in), typed: numbers, booleans, lists of
 *                      numbers and text ({@link dev.veracity.method.OptionSpec#typed}); a run.json written before
 *                      has them all as text, and resumes as the same configuration
 * @param data          the dataset file, absolute; {@code dataSha256} its bytes' SHA-256
 * @param sample        a paper's random selection of the questions, when used
 * @param metrics       the metric names, main first
 * @param llmBaseUrl    the model server (or what {@code reproduce --simulator} records in its place)
 * @param documents     where the documents come from ({@code dataset}, {@code none}, or {@code PATH k=N MODE})
 * @param pages         the page store the agents search ({@code PATH sha256=...}), when used
 * @param proxy         C-3PO's proxy model, when used
 * @param truncated     the policy for answers read from a cut output, when not the default
 * @param judge         the judge, its model, samples and prompt, or {@code none}
 * @param shard         the share of the questions this folder answers ({@code eval --shard I/N}), when sharded; a
 *                      resume with another shard is refused, and {@code merge} compares everything else
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record RunConfiguration(Integer schemaVersion, String method, Map<String, Object> methodOptions, String dataset,
                               String data, String dataSha256, String sample, List<String> metrics, String model,
                               String llmBaseUrl, String documents, String pages, String proxy, String truncated,
                               String judge, String shard) {

    /** A configuration without a shard (every question of the run). */
    public RunConfiguration(Integer schemaVersion, String method, Map<String, Object> methodOptions, String dataset,
                            String data, String dataSha256, String sample, List<String> metrics, String model,
                            String llmBaseUrl, String documents, String pages, String proxy, String truncated,
                            String judge) {
        this(schemaVersion, method, methodOptions, dataset, data, dataSha256, sample, metrics, model, llmBaseUrl,
                documents, pages, proxy, truncated, judge, null);
    }

    /** This configuration with {@code schema_version} set to {@code version}. */
    public RunConfiguration withSchemaVersion(Integer version) {
        return new RunConfiguration(version, method, methodOptions, dataset, data, dataSha256, sample, metrics, model,
                llmBaseUrl, documents, pages, proxy, truncated, judge, shard);
    }

    /** This configuration with {@code shard} set to {@code shard} (null: the whole run). */
    public RunConfiguration withShard(String shard) {
        return new RunConfiguration(schemaVersion, method, methodOptions, dataset, data, dataSha256, sample, metrics,
                model, llmBaseUrl, documents, pages, proxy, truncated, judge, shard);
    }

    /** The metric names, or none. */
    public List<String> metricsOrEmpty() {
        return metrics == null ? List.of() : metrics;
    }
}
