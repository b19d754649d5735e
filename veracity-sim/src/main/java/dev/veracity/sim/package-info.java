/**
 * An OpenAI-compatible LLM simulator served over HTTP on loopback, for tests and benchmarks.
 *
 * <p>{@link dev.veracity.sim.SimServer} answers {@code POST /v1/chat/completions},
 * {@code POST /v1/completions}, {@code POST /v1/embeddings} (deterministic vectors) and {@code GET /v1/models} with
 * JSON shaped exactly like OpenAI's,
 * or with server-sent events for {@code "stream": true}, so real clients (openai-java, LangChain4j, plain HTTP) can be pointed at it unchanged. Nothing is
 * learned or random: answers come from {@linkplain dev.veracity.sim.RuleSet rules} (a regex over
 * the prompt text selects a response template), and every choice that looks random (which of a
 * rule's alternatives a sample gets, logprob values, injected faults) is a hash of a seed, so the
 * same request always gets the same answer.
 *
 * <p>The prompt text that rules see is the {@code prompt} string for completions, and for chat the
 * messages' text contents joined with a blank line ({@code "\n\n"}), in order, system messages
 * included.
 *
 * <p>Beyond content, the simulator models what makes real servers awkward to call:
 * <ul>
 *   <li>a {@linkplain dev.veracity.sim.LatencyModel latency model} (time to first token plus a cost
 *       per generated token) and a server-wide capacity of concurrent generations with a FIFO queue
 *       in front, optionally bounded, so throughput saturates the way it does on a real server;</li>
 *   <li>{@linkplain dev.veracity.sim.FaultPlan fault injection} (429, 500, hangs, connection resets,
 *       malformed JSON, truncated and empty answers), scripted or at seeded rates;</li>
 *   <li>server quirks: refusing {@code n > 1}, requiring an API key;</li>
 *   <li>vLLM's {@code return_token_ids} (fake, deterministic token ids where vLLM puts them) and, optionally, AReaL's
 *       online-mode gateway ({@link dev.veracity.sim.ArealSession}: the sessions and rewards a client set).</li>
 * </ul>
 *
 * <p>Latency, hangs and pacing pass on a {@linkplain dev.veracity.sim.SimClock clock}: real time, or a
 * {@link dev.veracity.sim.ManualClock} a test moves on by hand.
 *
 * <p>{@link dev.veracity.sim.SimServer#counters()} and
 * {@link dev.veracity.sim.SimServer#recentRequests()} let tests assert what clients actually did.
 */
package dev.veracity.sim;
