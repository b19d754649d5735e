package dev.veracity.method;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.llm.ChatMessage;
import dev.veracity.llm.Completion;
import dev.veracity.llm.TokenIds;
import dev.veracity.llm.TokenLogprob;
import dev.veracity.schema.SchemaVersion;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One agent step of a multi-agent rollout, as RL trainers take it: the one record schema every method's rollouts are
 * written in (MARCH's Solver and Checker, C-3PO's tree nodes, MADAM's agents and aggregator, Reasoning Court's agents
 * and judge), so one exporter and one inspector serve them all. One JSON line:
 * {@code {schema_version, run, question_id, method, role, node_id, parent_id, messages, response, reward, credit?, advantage?,
 * prompt_ids?, response_ids?, logprobs?}}.
 *
 * @param run         the run it came from
 * @param questionId  the question
 * @param method      the method
 * @param role        the agent role (a trainer trains or groups per role)
 * @param nodeId      this step's id, unique within the question
 * @param parentId    the step it follows in the rollout tree, or null for a root
 * @param messages    the prompt as chat messages, exactly as sent
 * @param response    the agent's output
 * @param reward      the reward this step is trained with (the question's outcome reward, MARCH's ZTR, ...)
 * @param credit      a per-node credit (C-3PO's Monte Carlo credit: the mean reward of the leaves below), or null
 * @param advantage   a precomputed advantage, or null
 * @param promptIds   the serving engine's prompt token ids, or null (never re-tokenised by us)
 * @param responseIds the serving engine's response token ids, or null
 * @param logprobs    the response tokens' log-probabilities, or null
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({SchemaVersion.FIELD, "run", "question_id", "method", "role", "node_id", "parent_id", "messages",
        "response", "reward", "credit", "advantage", "prompt_ids", "response_ids", "logprobs"})
@JsonIgnoreProperties(ignoreUnknown = true) // C-3PO's tree records add their own fields; a newer writer may add more
public record AgentRecord(@JsonInclude(JsonInclude.Include.ALWAYS) String run, String questionId,
                          @JsonInclude(JsonInclude.Include.ALWAYS) String method, String role, String nodeId,
                          @JsonInclude(JsonInclude.Include.ALWAYS) String parentId,
                          List<ChatMessage> messages, String response,
                          @JsonInclude(JsonInclude.Include.ALWAYS) Double reward, Double credit, Double advantage,
                          List<Integer> promptIds, List<Integer> responseIds, List<Double> logprobs) {

    /**
     * Bound strictly (a token id that is a string or a fraction is an error, never coerced); chat messages as the
     * OpenAI wire writes them ({@code {"role": "user", "content": ...}}), through mix-ins, so core's
     * {@link ChatMessage} carries no Jackson annotations of its own.
     */
    private static final ObjectMapper JSON = JsonMapper.builder()
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .addMixIn(ChatMessage.class, WireMessage.class)
            .addMixIn(ChatMessage.Role.class, WireRole.class)
            .build();
    /** What each list field must hold, for the one-line error naming it. */
    private static final Map<String, String> LISTS = Map.of("prompt_ids", "a list of integers", "response_ids",
            "a list of integers", "logprobs", "a list of numbers", "messages", "a list of {role, content} messages");

    /** A chat message on the wire: role and content. */
    private abstract static class WireMessage {
        @JsonCreator
        WireMessage(@JsonProperty("role") ChatMessage.Role role, @JsonProperty("content") String content) {
        }
    }

    /** A role on the wire: its lower-case name; anything else reads as the user's ({@link ChatMessage.Role#fromWire}). */
    private abstract static class WireRole {
        @JsonValue
        abstract String wireName();

        @JsonCreator
        static ChatMessage.Role fromWire(String name) {
            return ChatMessage.Role.fromWire(name);
        }
    }

    public AgentRecord {
        Objects.requireNonNull(questionId, "questionId");
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(nodeId, "nodeId");
        messages = messages == null ? List.of() : List.copyOf(messages);
        response = Objects.requireNonNullElse(response, "");
    }

    /** The schema version every record is written with ({@link SchemaVersion#CURRENT}). */
    @JsonProperty(SchemaVersion.FIELD)
    int schemaVersion() {
        return SchemaVersion.CURRENT;
    }

    /** A record of a step with a reward and nothing token-level. */
    public static AgentRecord of(String run, String questionId, String method, String role, String nodeId,
                                 String parentId, List<ChatMessage> messages, String response, Double reward) {
        return new AgentRecord(run, questionId, method, role, nodeId, parentId, messages, response, reward, null, null,
                null, null, null);
    }

    /**
     * This record with the serving engine's view of the sample it holds: prompt and response token ids, and the
     * chosen tokens' logprobs, each where the completion has them (a server that ignored the request for them leaves
     * the record without). Null: unchanged.
     */
    public AgentRecord withTokens(Completion c) {
        if (c == null) {
            return this;
        }
        return new AgentRecord(run, questionId, method, role, nodeId, parentId, messages, response, reward, credit,
                advantage, c.tokenIds().map(TokenIds::prompt).orElse(promptIds),
                c.tokenIds().map(TokenIds::response).orElse(responseIds),
                c.logprobs().map(l -> l.stream().map(TokenLogprob::logprob).toList()).orElse(logprobs));
    }

    /** The record as its JSON line: Jackson-bound, in the field order above, with its schema version. */
    public ObjectNode toJson() {
        return JSON.valueToTree(this);
    }

    /**
     * The fields every record has (the schema's {@code required}): every writer since the first has written them, so a
     * line without one was not written by Veracity, and reading it with a default (an empty response trained as if
     * the agent had said nothing) would be a silent wrong value.
     */
    public static final List<String> REQUIRED = List.of("question_id", "role", "node_id", "messages", "response");

    /**
     * Reads a record back (the inspector, tests); a line of a newer schema, without one of the {@link #REQUIRED}
     * fields, or with token fields that are not lists of numbers, is an error naming the field.
     */
    public static AgentRecord fromJson(JsonNode n) {
        JsonNode version = n.get(SchemaVersion.FIELD);
        if (version != null && !version.isNull() && !version.canConvertToInt()) {
            throw new IllegalArgumentException("an agent record's \"" + SchemaVersion.FIELD + "\" must be a number");
        }
        SchemaVersion.check(version == null || version.isNull() ? null : version.intValue(), "an agent record");
        for (String f : REQUIRED) {
            if (f.equals("messages") ? !n.path(f).isArray() : !n.path(f).isTextual()) {
                throw new IllegalArgumentException("an agent record needs " + (f.equals("messages")
                        ? "a list of {role, content} messages" : "a string") + " \"" + f + "\"");
            }
        }
        try {
            return JSON.treeToValue(n, AgentRecord.class);
        } catch (JsonMappingException e) {
            String field = e.getPath().isEmpty() ? "" : e.getPath().getFirst().getFieldName();
            throw new IllegalArgumentException("an agent record's \"" + field + "\" must be "
                    + LISTS.getOrDefault(field, "of its type") , e);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("an agent record cannot be read: " + e.getOriginalMessage(), e);
        }
    }
}
