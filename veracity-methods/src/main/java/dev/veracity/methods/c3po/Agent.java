package dev.veracity.methods.c3po;

/**
 * Who acts at a node: the proxy's three agents (section 4.1) and the LLM's two roles (roadmap, answer), with the
 * backend each runs on.
 */
public enum Agent {
    ROUTER("router", "router", true),
    FILTER("filter", "filter", true),
    DECISION("decision", "decision", true),
    /** The LLM's roadmap for [Planning] (Appendix D.1). */
    ROADMAP("llm", "roadmap", false),
    /** The LLM's final answer. */
    ANSWER("llm", "answer", false);

    /** The backend name of the proxy in {@link dev.veracity.method.MethodContext#client(String)}. */
    public static final String PROXY_BACKEND = "proxy";

    private final String treeName;
    private final String role;
    private final boolean proxy;

    Agent(String treeName, String role, boolean proxy) {
        this.treeName = treeName;
        this.role = role;
        this.proxy = proxy;
    }

    /** router, filter, decision or llm: the {@code agent} field of a tree node. */
    public String treeName() {
        return treeName;
    }

    /** router, filter, decision, roadmap or answer: the trace role and the record's role. */
    public String role() {
        return role;
    }

    /** Whether the proxy plays it (else the LLM). */
    public boolean proxy() {
        return proxy;
    }

    /** {@code proxy} or {@code llm}. */
    public String backend() {
        return proxy ? PROXY_BACKEND : "llm";
    }
}
