package dev.veracity.rl.reward;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.testing.CpuBudget;
import java.time.Duration;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class LabelTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static Label ok(LabelParse p) {
        assertThat(p).isInstanceOf(LabelParse.Ok.class);
        return ((LabelParse.Ok) p).label();
    }

    private static String bad(LabelParse p) {
        assertThat(p).isInstanceOf(LabelParse.Bad.class);
        return ((LabelParse.Bad) p).reason();
    }

    private static JsonNode json(String s) throws Exception {
        return JSON.readTree(s);
    }

    @Test
    void aPlainStringIsOneGoldAnswerKeptAsWritten() throws Exception {
        Label l = ok(Label.parse(json("\" Paris \"")));
        assertThat(l.answers()).containsExactly(" Paris ");
        assertThat(l.wrong()).isEmpty();
        assertThat(l.ook()).isNull();
        assertThat(l.documents()).isEmpty();
        assertThat(l.reasoningScore()).isNull();
        assertThat(ok(Label.parse("Paris")).answers()).containsExactly("Paris");
    }

    @Test
    void aJsonStringIsReadAsTheObjectOrListItHolds() throws Exception {
        Label l = ok(Label.parse("  {\"answers\": [\"Paris\", \"City of Light\"], \"ook\": true, \"reasoning_score\": 0.5}"));
        assertThat(l.answers()).containsExactly("Paris", "City of Light");
        assertThat(l.ook()).isTrue();
        assertThat(l.reasoningScore()).isEqualTo(0.5);
        assertThat(ok(Label.parse("[\"a\", 7]")).answers()).containsExactly("a", "7");
        // the same through a JSON string node, as OpenRLHF's label arrives in a JSON body
        assertThat(ok(Label.parse(json("\"{\\\"answers\\\": \\\"x\\\"}\""))).answers()).containsExactly("x");
    }

    @Test
    void anObjectCarriesEveryOptionalField() throws Exception {
        Label l = ok(Label.parse(json("""
                {"answers": ["Paris"], "wrong_answers": ["Lyon"], "ook": false, "reasoning_score": 2,
                 "documents": ["first text", {"id": "d9", "title": "T", "text": "second"}, {"contents": "Title\\nthird"}],
                 "data_source": "ignored"}""")));
        assertThat(l.wrong()).containsExactly("Lyon");
        assertThat(l.ook()).isFalse();
        assertThat(l.reasoningScore()).isEqualTo(2.0);
        assertThat(l.documents()).hasSize(3);
        assertThat(l.documents().get(0).id()).isEqualTo("1");
        assertThat(l.documents().get(0).text()).isEqualTo("first text");
        assertThat(l.documents().get(1).id()).isEqualTo("d9");
        assertThat(l.documents().get(1).title()).isEqualTo("T");
        assertThat(l.documents().get(2).id()).isEqualTo("3");
        assertThat(l.documents().get(2).text()).isEqualTo("Title\nthird");
    }

    @Test
    void flashRagAndSearchR1AnswerKeysAreReadButNotTwoAtOnce() throws Exception {
        assertThat(ok(Label.parse(json("{\"golden_answers\": [\"a\"]}"))).answers()).containsExactly("a");
        assertThat(ok(Label.parse(json("{\"target\": [\"b\"]}"))).answers()).containsExactly("b");
        assertThat(ok(Label.parse(json("{\"answers\": 1945}"))).answers()).containsExactly("1945");
        assertThat(bad(Label.parse(json("{\"answers\": [\"a\"], \"target\": [\"b\"]}"))))
                .contains("twice").contains("\"answers\"").contains("\"target\"");
    }

    @Test
    void badLabelsGiveAReasonNeverAnException() throws Exception {
        assertThat(bad(Label.parse((JsonNode) null))).isEqualTo("no label");
        assertThat(bad(Label.parse((String) null))).isEqualTo("no label");
        assertThat(bad(Label.parse(json("null")))).isEqualTo("no label");
        assertThat(bad(Label.parse(json("true")))).contains("a boolean");
        assertThat(bad(Label.parse("   "))).contains("empty");
        assertThat(bad(Label.parse("{\"answers\": [\"a\"]"))).contains("starts with '{' but is not JSON");
        assertThat(bad(Label.parse("[\"a\", "))).contains("starts with '['");
        assertThat(bad(Label.parse("{\"answers\": []}"))).contains("no gold answer");
        assertThat(bad(Label.parse(json("[]")))).contains("no gold answer");
        assertThat(bad(Label.parse(json("{\"ook\": true}")))).contains("no \"answers\"");
        assertThat(bad(Label.parse(json("{\"answers\": [\"a\", {\"x\": 1}]}")))).contains("item 2 must be a string");
        assertThat(bad(Label.parse(json("{\"answers\": [\"a\"], \"ook\": \"yes\"}")))).contains("\"ook\" must be true or false");
        assertThat(bad(Label.parse(json("{\"answers\": [\"a\"], \"documents\": \"text\"}")))).contains("\"documents\" must be a list");
        assertThat(bad(Label.parse(json("{\"answers\": [\"a\"], \"documents\": [{\"title\": \"t\"}]}"))))
                .contains("item 1 has no \"text\"");
        assertThat(bad(Label.parse(json("{\"answers\": [\"a\"], \"reasoning_score\": \"high\"}")))).contains("reasoning_score");
        assertThat(bad(Label.parse(json("{\"answers\": [\"a\"], \"wrong_answers\": \"b\"}")))).contains("wrong_answers");
    }

    @Test
    void anAnswerThatMerelyContainsBracesIsStillAPlainAnswer() {
        assertThat(ok(Label.parse("f(x) = {1, 2}")).answers()).containsExactly("f(x) = {1, 2}");
    }

    @Test
    void deepAndLongLabelsAreReadOrRefusedQuickly() {
        // 100k nested lists: past Jackson's nesting limit, a reason rather than a StackOverflowError
        String deep = "[".repeat(100_000) + "]".repeat(100_000);
        String many = "[" + String.join(",", java.util.Collections.nCopies(200_000, "\"gold\"")) + "]";
        String longAnswer = "x".repeat(5_000_000);
        CpuBudget.run(Duration.ofSeconds(10), "a deep, a 200,000-answer and a 5-million-character label", () -> {
            assertThat(bad(Label.parse(deep))).contains("not JSON");
            assertThat(ok(Label.parse(many)).answers()).hasSize(200_000);
            assertThat(ok(Label.parse(longAnswer)).answers()).containsExactly(longAnswer);
        });
    }

    @Property(tries = 500)
    void anyTextIsALabelOrAReason(@ForAll String text) {
        LabelParse p = Label.parse(text);
        if (p instanceof LabelParse.Ok ok) {
            assertThat(ok.label().answers()).isNotEmpty();
        } else {
            assertThat(((LabelParse.Bad) p).reason()).isNotBlank();
        }
        if (!text.isBlank() && text.strip().charAt(0) != '{' && text.strip().charAt(0) != '[') {
            assertThat(p).isEqualTo(new LabelParse.Ok(Label.of(text)));
        }
    }

    @Test
    void aLabelWithoutAnswersCannotBeBuilt() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new Label(List.of(), List.of(), null, List.of(), null))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
