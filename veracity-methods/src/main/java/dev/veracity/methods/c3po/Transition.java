package dev.veracity.methods.c3po;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The deterministic state transition function T of Appendix B.2, as plain Java. Retrieval is the environment's part
 * of a transition (eq. 12 and 14 go "through retrieval"): it comes from the question's {@link SearchCache}, and a
 * retriever failure propagates to the caller.
 *
 * <ul>
 *   <li>router {@code [No Retrieval]}: the LLM answers, no documents;</li>
 *   <li>router {@code [Retrieval] q} (eq. 12): retrieve q, the filter sees S2 = {q, documents};</li>
 *   <li>router {@code [Planning]} (eq. 13): the LLM writes a roadmap, then S3 = {q, no documents, roadmap};</li>
 *   <li>Decision Maker {@code [Retrieval] q} (eq. 14): retrieve q (the next page if this path asked q before), the
 *       filter sees S2 with the decision's thought as its objective;</li>
 *   <li>Decision Maker {@code [LLM]}: the LLM answers with the accumulated documents;</li>
 *   <li>filter selection (eq. 15): the kept documents join the accumulated ones (a document already there is not
 *       added again); keeping none stores "None relevant information about q"; keeping some for a query asked before
 *       removes that query's note. Single pass then answers, [Planning] returns to the Decision Maker.</li>
 * </ul>
 */
public final class Transition {

    private final SearchCache search;

    public Transition(SearchCache search) {
        this.search = search;
    }

    /** After the router's action (the node at depth 1). */
    public State route(State.RouterState s, RouterParser.Route action) {
        int depth = s.depth() + 1;
        return switch (action.strategy()) {
            case NO_RETRIEVAL -> new State.AnswerState(s.question(), Strategy.NO_RETRIEVAL, List.of(), depth);
            case PLANNING -> new State.RoadmapState(s.question(), depth);
            case RETRIEVAL -> retrieve(s.question(), Strategy.RETRIEVAL, action.query(), null, List.of(), null, Map.of(),
                    depth);
        };
    }

    /** After the LLM's roadmap. */
    public State.DecisionState planned(State.RoadmapState s, String roadmap) {
        return new State.DecisionState(s.question(), List.of(), roadmap, Map.of(), s.depth() + 1);
    }

    /** After the Decision Maker's action; a forced [LLM] is passed as an [LLM] decision. */
    public State decide(State.DecisionState s, DecisionParser.Decision d) {
        int depth = s.depth() + 1;
        if (!d.retrieve()) {
            return new State.AnswerState(s.question(), Strategy.PLANNING, s.documents(), depth);
        }
        return retrieve(s.question(), Strategy.PLANNING, d.query(), d.thought(), s.documents(), s.roadmap(),
                s.history(), depth);
    }

    /** After the filter kept {@code ids} (1-based, valid) of the retrieved documents. */
    public State filtered(State.FilterState s, List<Integer> ids) {
        int depth = s.depth() + 1;
        List<Doc> docs = new ArrayList<>(s.accumulated());
        if (ids.isEmpty()) {
            add(docs, Doc.noneRelevant(s.query()));
        } else {
            for (int id : ids) {
                add(docs, s.retrieved().get(id - 1));
            }
            if (s.history().getOrDefault(s.query(), 0) > 1) {
                docs.removeIf(d -> d.isNoneRelevantFor(s.query()));
            }
        }
        if (s.strategy() == Strategy.RETRIEVAL) {
            return new State.AnswerState(s.question(), Strategy.RETRIEVAL, docs, depth);
        }
        return new State.DecisionState(s.question(), docs, s.roadmap(), s.history(), depth);
    }

    private State.FilterState retrieve(String question, Strategy strategy, String query, String objective,
                                       List<Doc> accumulated, String roadmap, Map<String, Integer> history, int depth) {
        int times = history.getOrDefault(query, 0);
        List<Doc> page = search.page(query, times);
        Map<String, Integer> h = new HashMap<>(history);
        h.put(query, times + 1);
        return new State.FilterState(question, strategy, query, page, objective, accumulated, roadmap, h, depth);
    }

    private static void add(List<Doc> docs, Doc d) {
        if (!docs.contains(d)) {
            docs.add(d);
        }
    }
}
