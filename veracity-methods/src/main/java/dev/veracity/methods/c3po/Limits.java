package dev.veracity.methods.c3po;

/**
 * The authors' limits on a question's search (GUIDE section 3; their {@code arguments.py} and
 * {@code decide_next_step_role.py}).
 *
 * @param maxDepth     deepest tree node before a branch stops: 15 at test time, 13 when collecting data (their
 *                     sampling script's {@code --max_depth 13}; MuSiQue max(2 x hops + 5, 13)) and in the paper's RL
 *                     phase (Table 7)
 * @param maxDocuments more accumulated documents than this force [LLM] (the authors' 10)
 * @param pageSize     passages per retrieval (their {@code retrieve_top_k}, 10)
 */
public record Limits(int maxDepth, int maxDocuments, int pageSize) {

    /** The authors' test settings. */
    public static final Limits TEST = new Limits(15, 10, SearchCache.PAGE_SIZE);

    public Limits {
        if (maxDepth < 3) {
            throw new IllegalArgumentException("max depth must be >= 3 (router, answer prompt, answer), was " + maxDepth);
        }
        if (maxDocuments < 0 || pageSize < 1) {
            throw new IllegalArgumentException("max documents must be >= 0 and the page size >= 1");
        }
    }

    /**
     * Whether the Decision Maker must answer: more than {@code maxDocuments} documents, or the state deeper than
     * {@code maxDepth - 4} (the authors' "3 + 1 due to focusing on current step": room for the decision, the answer
     * prompt and the answer).
     */
    public boolean forcesLlm(State.DecisionState s) {
        return s.documents().size() > maxDocuments || s.depth() > maxDepth - 4;
    }

    /** Whether a node at this depth that is not an answer ends its branch (the authors' "Max Depth"). */
    public boolean tooDeep(int depth) {
        return depth > maxDepth;
    }

    public Limits withMaxDepth(int depth) {
        return new Limits(depth, maxDocuments, pageSize);
    }
}
