package dev.veracity.sim;

/** The API endpoints the simulator serves, with the method each accepts. */
public enum Endpoint {
    CHAT_COMPLETIONS("POST", "/v1/chat/completions"),
    COMPLETIONS("POST", "/v1/completions"),
    /** Deterministic vectors ({@link Embeddings}); subject to faults, not to latency or capacity. */
    EMBEDDINGS("POST", "/v1/embeddings"),
    /** {@code GET /v1/models} and {@code GET /v1/models/{id}}. */
    MODELS("GET", "/v1/models"),
    /** AReaL's online-mode gateway ({@link ArealGateway}), served only when {@link SimConfig#arealAdminKey()} is set. */
    AREAL_START_SESSION("POST", "/rl/start_session"),
    AREAL_CHAT_COMPLETIONS("POST", "/chat/completions"),
    AREAL_SET_REWARD("POST", "/rl/set_reward"),
    AREAL_END_SESSION("POST", "/rl/end_session");

    private final String method;
    private final String path;

    Endpoint(String method, String path) {
        this.method = method;
        this.path = path;
    }

    public String method() {
        return method;
    }

    public String path() {
        return path;
    }

    /** Whether this endpoint generates text (and so is subject to faults, latency and capacity). */
    public boolean generates() {
        return this == CHAT_COMPLETIONS || this == COMPLETIONS || this == AREAL_CHAT_COMPLETIONS;
    }

    /** Whether this is one of AReaL's gateway endpoints. */
    public boolean areal() {
        return name().startsWith("AREAL_");
    }

    /** The endpoint serving a request path, or {@code null} for an unknown path. */
    static Endpoint forPath(String path) {
        return switch (path) {
            case "/v1/chat/completions" -> CHAT_COMPLETIONS;
            case "/v1/completions" -> COMPLETIONS;
            case "/v1/embeddings" -> EMBEDDINGS;
            case "/v1/models" -> MODELS;
            case "/rl/start_session" -> AREAL_START_SESSION;
            case "/chat/completions" -> AREAL_CHAT_COMPLETIONS;
            case "/rl/set_reward" -> AREAL_SET_REWARD;
            case "/rl/end_session" -> AREAL_END_SESSION;
            default -> path.startsWith("/v1/models/") && path.length() > "/v1/models/".length() ? MODELS : null;
        };
    }
}
