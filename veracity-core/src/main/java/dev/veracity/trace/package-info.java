/**
 * Traces and accounting: every model call is recorded with its run, question, method, agent role and step,
 * its prompt and output, tokens, latency, cache hit and retries ({@link dev.veracity.trace.CallRecord}).
 * {@link dev.veracity.trace.TraceStore} keeps them in SQLite and exports JSONL;
 * {@link dev.veracity.trace.CallStats} sums calls, tokens, wall time and the critical path.
 */
package dev.veracity.trace;
