/**
 * The files an eval run leaves, as types: {@link dev.veracity.eval.results.ResultLine} (a line of
 * {@code results.jsonl}), {@link dev.veracity.eval.results.Summary} ({@code summary.json}) and
 * {@link dev.veracity.eval.results.RunConfiguration} ({@code run.json}); the agent records are
 * {@link dev.veracity.method.AgentRecord}. Each is a record bound with Jackson, read and written through
 * {@link dev.veracity.eval.results.ResultsJson}, which writes {@code schema_version} and refuses a newer one
 * ({@link dev.veracity.schema.SchemaVersion}). The JSON Schemas of the four files are in {@code docs/schema/}.
 */
package dev.veracity.eval.results;
