package dev.veracity.methods.court;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.method.MethodAnswer;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Court's candidates travel as a detail of the answer and keep the result line's {@code candidates} as it was. */
class CandidateTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theCandidatesAreWrittenAsTheResultLineHadThemAndReadBack() throws Exception {
        List<Candidate> cs = List.of(new Candidate("agent-1", "Richard Nixon", 3, false, ""),
                new Candidate("agent-2", "", 8, true, "stopped at the step limit (8 steps); no answer"));
        MethodAnswer a = Candidate.attach(MethodAnswer.of("Richard Nixon"), cs);
        assertThat(Candidate.of(a)).isEqualTo(cs);

        ObjectNode line = JSON.createObjectNode();
        a.details().writeTo(line);
        // the fields and their order as eval wrote them before the detail existed; "note" only when there is one
        assertThat(JSON.writeValueAsString(line)).isEqualTo("{\"candidates\":["
                + "{\"agent\":\"agent-1\",\"answer\":\"Richard Nixon\",\"steps\":3,\"forced\":false},"
                + "{\"agent\":\"agent-2\",\"answer\":\"\",\"steps\":8,\"forced\":true,"
                + "\"note\":\"stopped at the step limit (8 steps); no answer\"}]}");
        assertThat(Candidate.KEY.read(JSON.readTree(JSON.writeValueAsString(line)))).contains(cs);
    }

    @Test
    void noCandidatesNoField() {
        MethodAnswer a = Candidate.attach(MethodAnswer.of("x"), List.of());
        assertThat(a.details().isEmpty()).isTrue();
        assertThat(Candidate.of(a)).isEmpty();
    }
}
