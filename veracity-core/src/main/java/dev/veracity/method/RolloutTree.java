package dev.veracity.method;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.schema.SchemaVersion;
import java.util.List;

/**
 * One credited rollout tree, one line of a rollout folder's {@code trees.jsonl} (C-3PO's tree search, section 5.2,
 * as {@code veracity rollout c3po} writes it): the question, the nodes parents first, and what the tree cost. Written
 * by the rollout and read by its summary and the tree report through this type; {@code docs/schema/tree.schema.json}
 * describes it. The per-node training records beside it are {@link AgentRecord}s.
 *
 * @param schemaVersion  {@link SchemaVersion} (null in lines written before it: version 1)
 * @param id             the question's id
 * @param question       the question
 * @param gold           the gold answers the leaves were scored against
 * @param preset         the rollout's preset
 * @param maxDepth       the max depth the question ran under
 * @param nodes          every node, parents before children; the first is the question
 * @param leafCount      the leaves
 * @param correctLeaves  leaves that did not fail and whose reward is 1 or more
 * @param failedLeaves   leaves that failed
 * @param calls          the model calls and searches the tree cost
 * @param truncated      whether the call budget cut branches (recorded as failures)
 * @param ms             the rollout's wall time, in milliseconds
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({SchemaVersion.FIELD, "id", "question", "gold", "preset", "max_depth", "nodes", "leaf_count",
        "correct_leaves", "failed_leaves", "calls", "truncated", "ms"})
public record RolloutTree(Integer schemaVersion, String id, String question, List<String> gold, String preset,
                          int maxDepth, List<Node> nodes, int leafCount, int correctLeaves, int failedLeaves,
                          Calls calls, boolean truncated, double ms) {

    /** Bound strictly: a count that is a string or a fraction is an error, never coerced. */
    private static final ObjectMapper JSON = JsonMapper.builder()
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES) // a later minor version may add fields
            .build();

    public RolloutTree {
        gold = gold == null ? List.of() : List.copyOf(gold);
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
        if (calls == null) {
            calls = new Calls(0, 0, 0);
        }
    }

    /**
     * One node of the tree.
     *
     * @param id            its id, unique in the tree
     * @param parent        its parent's id; null for the question (the root)
     * @param agent         the agent that made it ({@code question} for the root; C-3PO's router, filter, decision,
     *                      llm)
     * @param role          the agent's role (C-3PO's router, filter, decision, roadmap, answer); null for the root
     * @param depth         its depth (0: the question)
     * @param action        the action it took, or null (the root)
     * @param credit        the mean reward of the leaves below it (eq. 5)
     * @param leaves        the leaves below it (1 for a leaf)
     * @param reward        a leaf's reward; null for an inner node
     * @param failure       why the branch ended here, for a failed node ({@code parse}, {@code retrieval}, ...)
     * @param failureDetail what failed, for a failed node
     * @param forced        true on the deterministic first level; absent otherwise
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonPropertyOrder({"id", "parent", "agent", "role", "depth", "action", "credit", "leaves", "reward", "failure",
            "failure_detail", "forced"})
    public record Node(String id, @JsonInclude(JsonInclude.Include.ALWAYS) String parent, String agent, String role,
                       int depth, @JsonInclude(JsonInclude.Include.ALWAYS) String action, double credit, int leaves,
                       Double reward, String failure, String failureDetail, Boolean forced) {

        /** Whether this is the question, the tree's root. */
        public boolean root() {
            return parent == null;
        }

        /** Whether it is on the deterministic first level. */
        public boolean onForcedLevel() {
            return Boolean.TRUE.equals(forced);
        }
    }

    /**
     * What the tree cost.
     *
     * @param proxy    proxy calls (a call samples K actions at once)
     * @param llm      LLM calls
     * @param searches retriever searches (the per-question cache answers the rest)
     */
    public record Calls(int proxy, int llm, int searches) {
    }

    /** The tree's root, the question node, or null for a tree without nodes. */
    public Node root() {
        return nodes.isEmpty() ? null : nodes.getFirst();
    }

    /** The line as it is written: the current schema version, the fields in the order above. */
    public ObjectNode toJson() {
        return JSON.valueToTree(new RolloutTree(SchemaVersion.CURRENT, id, question, gold, preset, maxDepth, nodes,
                leafCount, correctLeaves, failedLeaves, calls, truncated, ms));
    }

    /**
     * Reads a line of {@code trees.jsonl}.
     *
     * @param where the file and line, for the messages
     * @throws IllegalArgumentException in one line naming {@code where}: the text is not a tree (not JSON, a field of
     *                                  the wrong type, no id), or of a newer schema than this build reads
     */
    public static RolloutTree fromJson(String text, Object where) {
        try {
            return fromJson(JSON.readTree(text), where);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(where + " is not a rollout tree (not JSON: "
                    + e.getOriginalMessage().lines().findFirst().orElse("") + ")");
        }
    }

    /** Reads a line of {@code trees.jsonl} already parsed; as {@link #fromJson(String, Object)}. */
    public static RolloutTree fromJson(JsonNode json, Object where) {
        RolloutTree t;
        try {
            t = json == null || !json.isObject() ? null : JSON.treeToValue(json, RolloutTree.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(where + " is not a rollout tree ("
                    + e.getOriginalMessage().lines().findFirst().orElse("") + ")");
        }
        if (t == null || t.id() == null) {
            throw new IllegalArgumentException(where + " is not a rollout tree (" + (t == null ? "not a JSON object"
                    : "no \"id\"") + ")");
        }
        SchemaVersion.check(t.schemaVersion(), where);
        return t;
    }
}
