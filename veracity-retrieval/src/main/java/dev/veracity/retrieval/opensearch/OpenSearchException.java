package dev.veracity.retrieval.opensearch;

/**
 * A one-line failure talking to OpenSearch: the cluster unreachable or red, the index missing, unfinished or mapped
 * otherwise than we need, a request refused. The message says what went wrong and what to do.
 */
public final class OpenSearchException extends IllegalStateException {

    public OpenSearchException(String message) {
        super(message);
    }

    public OpenSearchException(String message, Throwable cause) {
        super(message, cause);
    }
}
