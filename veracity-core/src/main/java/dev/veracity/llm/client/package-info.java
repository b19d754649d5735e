/**
 * Call execution: {@link dev.veracity.llm.client.LlmClient} runs model calls on virtual threads under a
 * per-backend concurrency limit (fixed, or adaptive: {@link dev.veracity.llm.client.CallLimiter}), with a per-attempt
 * timeout, retries with exponential back-off and jitter that honour Retry-After
 * ({@link dev.veracity.llm.client.RetrySettings}), the response cache, and a trace record for every call. Over several
 * servers of one model, {@code EndpointPool} sends each attempt to the one with the fewest
 * outstanding, each server under its own limit, and takes out and probes back one that fails repeatedly
 * ({@link dev.veracity.llm.client.Ejection}).
 */
package dev.veracity.llm.client;
