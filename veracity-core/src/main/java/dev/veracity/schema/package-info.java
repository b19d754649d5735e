/**
 * The version of the files a run leaves ({@code results.jsonl}, {@code summary.json}, {@code run.json}, agent
 * records): {@link dev.veracity.schema.SchemaVersion} is written in each and checked by every reader. Their JSON
 * Schemas are in {@code docs/schema/}.
 */
package dev.veracity.schema;
