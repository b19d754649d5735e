package dev.veracity.sim;

/** A failure the simulator can inject into a completions request; see {@link FaultPlan}. */
public enum FaultKind {
    /** No fault: answer normally. Useful as a placeholder in {@link FaultPlan#script(FaultKind...)}. */
    NONE,
    /** HTTP 429 with a {@code Retry-After} header and an OpenAI-style rate-limit error body. */
    RATE_LIMIT,
    /** HTTP 500 with an OpenAI-style server error body. */
    SERVER_ERROR,
    /**
     * Hold the request without answering for {@link FaultPlan#hangDuration()} (meant to outlast the
     * client's timeout), then answer normally; ends early, with the connection closed, when the
     * server closes.
     */
    HANG,
    /**
     * Close the connection without sending any response. The JDK HTTP server cannot set
     * {@code SO_LINGER=0}, so the client sees an orderly close (EOF) rather than a TCP RST; either
     * way its call fails with an {@link java.io.IOException} and nothing was answered.
     */
    RESET,
    /** HTTP 200 whose body is a response cut in half: not valid JSON. */
    MALFORMED_JSON,
    /** A valid response whose texts are cut to half their tokens, with {@code finish_reason "length"}. */
    TRUNCATED,
    /** A valid response whose texts are all empty ({@code finish_reason "stop"}, 0 completion tokens). */
    EMPTY_CONTENT
}
