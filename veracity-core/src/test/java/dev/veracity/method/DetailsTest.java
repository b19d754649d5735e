package dev.veracity.method;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.Test;

class DetailsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A plug-in's own detail: a record per agent, and a number. */
    record Vote(String agent, String answer, int weight) {
    }

    static final DetailKey<List<Vote>> VOTES = DetailKey.listOf("votes", Vote.class);
    static final DetailKey<Double> MARGIN = DetailKey.of("margin", Double.class);

    @Test
    void aDetailGoesIntoTheLineUnderItsNameAndComesBackTyped() throws Exception {
        List<Vote> votes = List.of(new Vote("agent-1", "Paris", 2), new Vote("agent-2", "Lyon", 1));
        MethodAnswer a = MethodAnswer.of("Paris").withDetail(VOTES, votes).withDetail(MARGIN, 0.5);
        assertThat(a.detail(VOTES)).contains(votes);

        ObjectNode line = JSON.createObjectNode().put("id", "q1");
        a.details().writeTo(line);
        String written = JSON.writeValueAsString(line);
        assertThat(written).isEqualTo("{\"id\":\"q1\",\"details\":{\"votes\":[{\"agent\":\"agent-1\",\"answer\":\"Paris\","
                + "\"weight\":2},{\"agent\":\"agent-2\",\"answer\":\"Lyon\",\"weight\":1}],\"margin\":0.5}}");

        // a reader of the file gets the same values back, by the same key
        ObjectNode read = (ObjectNode) JSON.readTree(written);
        assertThat(VOTES.read(read.path("details"))).contains(votes);
        assertThat(MARGIN.read(read.path("details"))).contains(0.5);
    }

    @Test
    void aDetailNamedLikeAKernelFieldCannotReplaceItOnlyTheCourtsCandidatesHaveTheirOwnField() throws Exception {
        DetailKey<String> signals = DetailKey.of("signals", String.class);
        DetailKey<List<String>> candidates = DetailKey.listOf("candidates", String.class);
        ObjectNode line = JSON.createObjectNode();
        line.putObject("signals").put("claims", 3.0);
        MethodAnswer.of("x").withDetail(signals, "mine").withDetail(candidates, List.of("a", "b")).details().writeTo(line);
        assertThat(JSON.writeValueAsString(line)).isEqualTo(
                "{\"signals\":{\"claims\":3.0},\"details\":{\"signals\":\"mine\"},\"candidates\":[\"a\",\"b\"]}");
    }

    @Test
    void anAbsentOrMalformedDetailReadsAsNoneNeverAnException() throws Exception {
        assertThat(VOTES.read(JSON.readTree("{\"id\":\"q1\"}"))).isEmpty();
        assertThat(VOTES.read(JSON.readTree("{\"votes\":null}"))).isEmpty();
        assertThat(VOTES.read(JSON.readTree("{\"votes\":\"three\"}"))).isEmpty();
        assertThat(VOTES.read(JSON.readTree("{\"votes\":[{\"weight\":\"heavy\"}]}"))).isEmpty();
        assertThat(MARGIN.read(JSON.readTree("{\"margin\":{}}"))).isEmpty();
        assertThat(VOTES.read(null)).isEmpty();
    }

    @Test
    void anAnswerWithoutDetailsWritesNothingAndALaterValueReplacesAnEarlierOne() {
        ObjectNode line = JSON.createObjectNode();
        MethodAnswer.of("x").details().writeTo(line);
        assertThat(line.isEmpty()).isTrue();
        assertThat(MethodAnswer.of("x").detail(MARGIN)).isEmpty();

        MethodAnswer a = MethodAnswer.of("x").withDetail(MARGIN, 0.1).withDetail(MARGIN, 0.9);
        assertThat(a.detail(MARGIN)).contains(0.9);
        // the raw output and the details survive each other's updates
        assertThat(a.withRaw("raw x").detail(MARGIN)).contains(0.9);
    }

    @Test
    void keysAreOneWordAndOneFieldPerName() {
        assertThatThrownBy(() -> DetailKey.of("two words", String.class)).isInstanceOf(IllegalArgumentException.class);
        assertThat(DetailKey.of("margin", Double.class)).isEqualTo(MARGIN);
    }
}
