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
        String base = "{\"question_id\":\"q\",\"role\":\"solver\",\"node_id\":\"n\",";
        assertThatThrownBy(() -> AgentRecord.fromJson(JSON.readTree(base + "\"prompt_ids\":[1,\"2\"]}")))
                .hasMessage("an agent record's \"prompt_ids\" must be a list of integers");
        assertThatThrownBy(() -> AgentRecord.fromJson(JSON.readTree(base + "\"response_ids\":[1.5]}")))
                .hasMessage("an agent record's \"response_ids\" must be a list of integers");
        assertThatThrownBy(() -> AgentRecord.fromJson(JSON.readTree(base + "\"logprobs\":\"-0.1\"}")))
                .hasMessage("an agent record's \"logprobs\" must be a list of numbers");
    }
}
