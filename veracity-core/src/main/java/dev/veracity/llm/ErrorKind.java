package dev.veracity.llm;

/** What went wrong in a model call, and whether trying again can help. */
public enum ErrorKind {
    /** HTTP 429 or a full server queue: retried, honouring Retry-After. */
    RATE_LIMITED(true, "the server is rate-limiting; lower --concurrency or wait"),
    /** HTTP 5xx: retried. */
    SERVER_ERROR(true, "the server failed; check its logs, or retry later"),
    /** No answer within the per-call timeout: retried. */
    TIMEOUT(true, "the server did not answer in time; raise the timeout or lower --concurrency"),
    /** Connection refused, reset or closed early: retried. */
    CONNECTION(true, "could not talk to the server; check that it runs and that --llm-base-url is right"),
    /** An answer that is not the protocol's JSON: retried (gateways glitch). */
    MALFORMED_RESPONSE(true, "the server's answer was not valid protocol JSON; check that the URL is an OpenAI-compatible endpoint"),
    /**
     * A well-formed answer with an empty (or whitespace-only) text that is not a tool call: retried, never cached
     * (servers send it when a generation died early; a rerun would replay the emptiness).
     */
    EMPTY_RESPONSE(true, "the server answered with empty text; check the server's logs (a crashed or overloaded "
            + "worker, a chat template that ends the turn at once) or the prompt's length against the context size"),
    /**
     * A completion the server cut below the request's own {@code max_tokens} (finish reason {@code length} with fewer
     * completion tokens than asked): retried with the same request, never cached. A glitch passes; a server that caps
     * output below the request's limit fails every attempt, and then the call fails with this kind.
     */
    TRUNCATED(true, "the server cut the output below the max_tokens asked (finish_reason length); check the server's"
            + " own output cap (a gateway's max_tokens limit, vLLM's --max-model-len) or lower the method's max-tokens option"),
    /** HTTP 400/404/422: not retried, the request itself is wrong. */
    BAD_REQUEST(false, "the server rejected the request; check the model name and sampling settings"),
    /** HTTP 401/403: not retried. */
    AUTHENTICATION(false, "the server refused the credentials; set VERACITY_API_KEY (or OPENAI_API_KEY)"),
    /** The backend cannot do what was asked (for example logprobs on a backend without them). */
    UNSUPPORTED(false, "this backend cannot do what the request asks; change the request or the backend"),
    /** The caller was interrupted. */
    CANCELLED(false, "the call was cancelled"),
    /** A bug or an unexpected failure inside the backend. */
    INTERNAL(false, "an unexpected failure; please report it with the trace");

    private final boolean retryable;
    private final String advice;

    ErrorKind(boolean retryable, String advice) {
        this.retryable = retryable;
        this.advice = advice;
    }

    public boolean retryable() {
        return retryable;
    }

    /** What the user can do about it. */
    public String advice() {
        return advice;
    }

    /** The kind for an HTTP status code. */
    public static ErrorKind forHttpStatus(int status) {
        if (status == 429) {
            return RATE_LIMITED;
        }
        if (status == 401 || status == 403) {
            return AUTHENTICATION;
        }
        if (status == 408) {
            return TIMEOUT;
        }
        if (status >= 500) {
            return SERVER_ERROR;
        }
        return BAD_REQUEST;
    }
}
