package dev.veracity.methods.c3po;

import dev.veracity.method.ModelRole;

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

    /**
     * The proxy's model, a need C-3PO declares: the {@code --proxy-*} flags bind it
     * ({@link dev.veracity.method.MethodContext#model}); unbound, the LLM plays the proxy (C-3PO-ICL).
     */
    public static final ModelRole PROXY = new ModelRole("proxy",
            "the small proxy model (router, filter, decision maker): --proxy-base-url/--proxy-model, else the LLM");

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
        return proxy ? PROXY.name() : "llm";
    }
}
