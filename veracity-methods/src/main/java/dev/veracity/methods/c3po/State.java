package dev.veracity.methods.c3po;

import java.util.List;
import java.util.Map;

/**
 * What the next actor sees (Appendix B.2). Each state records the depth of the node whose action produced it (the
 * authors' tree depth: the question is 0, the router's action 1), so the depth rules read it directly.
 */
public sealed interface State {

    String question();

    /** The depth of the node whose action led here (0 for the question). */
    int depth();

    /** S1 = {q}: the Reasoning Router acts. */
    record RouterState(String question) implements State {
        @Override
        public int depth() {
            return 0;
        }
    }

    /** [Planning] was chosen: the LLM writes the roadmap (eq. 13's "[planning]" step). */
    record RoadmapState(String question, int depth) implements State {
    }

    /**
     * S3 = {q, accumulated documents, roadmap}: the Decision Maker acts.
     *
     * @param history how often this path has issued each query (the next-10 rule)
     */
    record DecisionState(String question, List<Doc> documents, String roadmap, Map<String, Integer> history, int depth)
            implements State {
        public DecisionState {
            roadmap = roadmap == null ? "" : roadmap;
            documents = List.copyOf(documents);
            history = Map.copyOf(history);
        }
    }

    /**
     * S2 = {q, retrieved documents[, current objective]}: the Information Filter acts. It also carries what the
     * transition after it needs: the strategy, the accumulated documents, the roadmap and the query history.
     *
     * @param query     the query that retrieved the documents
     * @param objective the Decision Maker's thought in [Planning] mode; null in single pass
     * @param history   query counts including this retrieval
     */
    record FilterState(String question, Strategy strategy, String query, List<Doc> retrieved, String objective,
                       List<Doc> accumulated, String roadmap, Map<String, Integer> history, int depth) implements State {
        public FilterState {
            retrieved = List.copyOf(retrieved);
            accumulated = List.copyOf(accumulated);
            history = Map.copyOf(history);
        }
    }

    /** The LLM answers with these documents (none: from its own knowledge). */
    record AnswerState(String question, Strategy strategy, List<Doc> documents, int depth) implements State {
        public AnswerState {
            documents = List.copyOf(documents);
        }
    }
}
