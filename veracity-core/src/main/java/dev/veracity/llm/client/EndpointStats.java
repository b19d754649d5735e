package dev.veracity.llm.client;

/**
 * What one model server of a client did: the attempts sent to it, those it answered, those that failed for the
 * server's own reasons, how often it was taken out and came back ({@link Ejection}), and its concurrency limit now.
 *
 * @param endpoint  the server's backend id (its base URL)
 * @param attempts  attempts sent to it
 * @param answered  attempts it answered (whatever the answer's faults: the server was up)
 * @param failures  attempts that failed for the server's own reasons (connection, 5xx, timeout)
 * @param ejections times it was taken out
 * @param returns   times a probe brought it back
 * @param limit     its concurrency limit now (fixed, or where {@code auto} stands)
 * @param out       whether it is out now
 * @param outstanding attempts it has now, waiting for its limit or in flight
 */
public record EndpointStats(String endpoint, long attempts, long answered, long failures, long ejections,
                            long returns, int limit, boolean out, int outstanding) {
}
