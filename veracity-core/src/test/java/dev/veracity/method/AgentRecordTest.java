package dev.veracity.method;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.llm.ChatMessage;
import dev.veracity.llm.Completion;
import dev.veracity.llm.FinishReason;
import dev.veracity.llm.TokenIds;
import dev.veracity.llm.TokenLogprob;
import dev.veracity.llm.TokenUsage;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AgentRecordTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static AgentRecord record() {
        return AgentRecord.of("run", "q1", "march", "solver", "solver-0", null, List.of(ChatMessage.user("Q?")), "A.", -1.0);
    }

    @Test
    void theEnginesTokenIdsAndLogprobsGoIntoTheRecordAndComeBack() throws Exception {
        Completion c = new Completion(0, "A.", FinishReason.STOP, TokenUsage.of(3, 2),
                Optional.of(List.of(new TokenLogprob("A", -0.25, List.of()), new TokenLogprob(".", -0.5, List.of()))),
                Optional.of(new TokenIds(List.of(7, 8, 9), List.of(32, 13))), "chatcmpl-1");
        AgentRecord r = record().withTokens(c);
        String line = r.toJson().toString();
        assertThat(line).endsWith("\"reward\":-1.0,\"prompt_ids\":[7,8,9],\"response_ids\":[32,13],\"logprobs\":[-0.25,-0.5]}");
        AgentRecord back = AgentRecord.fromJson(JSON.readTree(line));
        assertThat(back).isEqualTo(r);
    }

    @Test
    void aCompletionWithoutTokensLeavesTheFieldsOut() throws Exception {
        Completion plain = Completion.of(0, "A.", FinishReason.STOP, TokenUsage.of(3, 2));
        AgentRecord r = record().withTokens(plain);
        assertThat(r).isEqualTo(record());
        assertThat(r.toJson().has("prompt_ids")).isFalse();
        assertThat(r.toJson().has("logprobs")).isFalse();
        assertThat(record().withTokens(null)).isEqualTo(record());
        assertThat(AgentRecord.fromJson(JSON.readTree(r.toJson().toString())).promptIds()).isNull();
    }

    @Test
    void tokenFieldsThatAreNotListsOfNumbersAreRefusedNamingTheField() {
        String base = "{\"question_id\":\"q\",\"role\":\"solver\",\"node_id\":\"n\",\"messages\":[],\"response\":\"A.\",";
        assertThatThrownBy(() -> AgentRecord.fromJson(JSON.readTree(base + "\"prompt_ids\":[1,\"2\"]}")))
                .hasMessage("an agent record's \"prompt_ids\" must be a list of integers");
        assertThatThrownBy(() -> AgentRecord.fromJson(JSON.readTree(base + "\"response_ids\":[1.5]}")))
                .hasMessage("an agent record's \"response_ids\" must be a list of integers");
        assertThatThrownBy(() -> AgentRecord.fromJson(JSON.readTree(base + "\"logprobs\":\"-0.1\"}")))
                .hasMessage("an agent record's \"logprobs\" must be a list of numbers");
    }

    @Test
    void aLineWithoutAFieldEveryWriterWritesIsRefusedNamingItNeverReadWithADefault() throws Exception {
        // no writer ever left out "response" or "messages": a line without one is not Veracity's, and an empty
        // response read in its place would be trained as if the agent had said nothing
        for (String field : AgentRecord.REQUIRED) {
            var line = record().toJson();
            line.remove(field);
            assertThatThrownBy(() -> AgentRecord.fromJson(line)).as(field).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("\"" + field + "\"").hasMessageNotContaining("\n");
            line.putNull(field);
            assertThatThrownBy(() -> AgentRecord.fromJson(line)).as(field + " null")
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("\"" + field + "\"");
        }
        assertThatThrownBy(() -> AgentRecord.fromJson(JSON.readTree(
                "{\"question_id\":\"q\",\"role\":\"solver\",\"node_id\":\"n\",\"messages\":[]}")))
                .hasMessage("an agent record needs a string \"response\"");
        // the fields the writer may leave null read back as null
        var optional = record().toJson();
        for (String field : List.of("run", "method", "parent_id", "reward", "schema_version")) {
            optional.remove(field);
        }
        assertThat(AgentRecord.fromJson(optional).response()).isEqualTo("A.");
    }
}
