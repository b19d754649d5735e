/**
 * Call execution: {@link dev.veracity.llm.client.LlmClient} runs model calls on virtual threads under a
 * per-backend concurrency limit (fixed, or adaptive: {@link dev.veracity.llm.client.CallLimiter}), with a per-attempt
 * timeout, retries with exponential back-off and jitter that honour Retry-After
 * ({@link dev.veracity.llm.client.RetrySettings}), the response cache, and a trace record for every call.
 */
package dev.veracity.llm.client;
