package dev.veracity.methods.madam;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ParsersTest {

    @Test
    void agentFormatOfTheAppendix() {
        AgentOutput o = AgentOutputParser.parse("Answer: 1963. Explanation: The document says born February 17, 1963.");
        assertThat(o.parsed()).isTrue();
        assertThat(o.answer()).isEqualTo("1963");
        assertThat(o.explanation()).isEqualTo("The document says born February 17, 1963");
    }

    @Test
    void agentVariants() {
        assertThat(AgentOutputParser.parse("**Answer:** {Mahesh Bhatt}.\n**Explanation:** it says so.").answer())
                .isEqualTo("Mahesh Bhatt");
        assertThat(AgentOutputParser.parse("Let me think.\nanswer: \"American football\"\nBecause the page says.").answer())
                .isEqualTo("American football");
        AgentOutput noExpl = AgentOutputParser.parse("Answer: 3,559 people");
        assertThat(noExpl.answer()).isEqualTo("3,559 people");
        assertThat(noExpl.explanation()).isEmpty();
        assertThat(AgentOutputParser.parse("Answer: Washington D.C. Explanation: x").answer()).isEqualTo("Washington D.C.");
        assertThat(AgentOutputParser.parse("Answer: Unknown. Explanation: not in the document.").answer()).isEqualTo("Unknown");
        // an explanation that quotes another agent's answer does not move the answer
        assertThat(AgentOutputParser.parse("Answer: 1956. Explanation: Agent 1 said Answer: 1963.").answer()).isEqualTo("1956");
    }

    @Test
    void agentWithoutMarkerIsAFailureNotAnException() {
        AgentOutput o = AgentOutputParser.parse("I cannot tell from this document.");
        assertThat(o.parsed()).isFalse();
        assertThat(o.answer()).isEmpty();
        assertThat(AgentOutputParser.parse(null).parsed()).isFalse();
        assertThat(AgentOutputParser.parse("").answer()).isEmpty();
    }

    @Test
    void aggregatorFormats() {
        assertThat(AggregatorOutputParser.parse("All Correct Answers: [\"1963\", \"1956\"]. Explanation: both.").answers())
                .containsExactly("1963", "1956");
        assertThat(AggregatorOutputParser.parse("All Correct Answers: ['Rock 'n' Roll', 'x, y']").answers())
                .containsExactly("Rock 'n' Roll", "x, y");
        assertThat(AggregatorOutputParser.parse("All Correct Answers: [\u201C1963\u201D, \u201C1956\u201D]").answers())
                .containsExactly("1963", "1956");
        assertThat(AggregatorOutputParser.parse("**All Correct Answers:** [1963, 1956, 1963]").answers())
                .containsExactly("1963", "1956");
        AggregatorOutput noBracket = AggregatorOutputParser.parse("all correct answers: 1963, 1956. Explanation: because");
        assertThat(noBracket.answers()).containsExactly("1963", "1956");
        assertThat(noBracket.explanation()).isEqualTo("because");
        AggregatorOutput noExpl = AggregatorOutputParser.parse("All Correct Answers: [\"Paris\"]");
        assertThat(noExpl.explanation()).isEmpty();
        assertThat(noExpl.parsed()).isTrue();
        // the first well-formed marker counts (the rule; a later one may be quoted text)
        assertThat(AggregatorOutputParser.parse("All Correct Answers: [\"1963\"]\nWait.\nAll Correct Answers: [\"3,559 people\"]. Explanation: e")
                .answers()).containsExactly("1963");
        assertThat(AggregatorOutputParser.parse("All Correct Answers: [\"a \\\"b\\\"\"]").answers()).containsExactly("a \"b\"");
        assertThat(AggregatorOutputParser.parse("All Correct Answers: [\"unclosed").answers()).containsExactly("unclosed");
    }

    @Test
    void aggregatorWithoutMarkerFallsBackAndSaysSo() {
        AggregatorOutput o = AggregatorOutputParser.parse("The answers are [1963, 1956].");
        assertThat(o.parsed()).isFalse();
        assertThat(o.answers()).containsExactly("1963", "1956");
        assertThat(AggregatorOutputParser.parse(null).answers()).isEmpty();
        assertThat(AggregatorOutputParser.parse("   ").parsed()).isFalse();
    }

    @Test
    void predictionRoundTripsThroughTheParser() {
        AggregatorOutput o = new AggregatorOutput(List.of("a \"quoted\" b", "c, d", "back\\slash"), "why\nnot", "", true);
        assertThat(AggregatorOutputParser.parse(o.prediction()).answers()).containsExactlyElementsOf(o.answers());
        assertThat(o.prediction()).startsWith("All Correct Answers: [").endsWith("Explanation: why not");
    }

    @Test
    void earlyStopIsContainmentEitherWay() {
        List<AgentOutput> r1 = List.of(AgentOutputParser.parse("Answer: 1963"), AgentOutputParser.parse("Answer: Mahesh Bhatt"));
        List<AgentOutput> same = List.of(AgentOutputParser.parse("Answer: born 1963."), AgentOutputParser.parse("Answer: Bhatt"));
        List<AgentOutput> changed = List.of(AgentOutputParser.parse("Answer: 1963"), AgentOutputParser.parse("Answer: Raj Kapoor"));
        assertThat(EarlyStop.converged(r1, same)).isTrue();
        assertThat(EarlyStop.converged(r1, changed)).isFalse();
        assertThat(EarlyStop.converged(null, r1)).isFalse();
        // an unreadable answer is not a kept one ("" is contained in every answer, so containment alone said kept)
        List<AgentOutput> unreadable = List.of(AgentOutputParser.parse("Answer: 1963"), AgentOutputParser.parse("I am not sure."));
        assertThat(EarlyStop.converged(r1, unreadable)).isFalse();
        assertThat(EarlyStop.converged(unreadable, r1)).isFalse();
    }

    @Test
    void agentMarkersAtALineStartAndNotInTheEchoedQuestion() {
        String q = "Complete the quote: the answer: is blowing in the wind?";
        AgentOutput o = AgentOutputParser.parse("Question: " + q + "\nAnswer: Bob Dylan. Explanation: the document says so.", q);
        assertThat(o.answer()).isEqualTo("Bob Dylan");
        assertThat(o.explanation()).isEqualTo("the document says so");
        // an answer at a line start beats an earlier mid-line mention
        assertThat(AgentOutputParser.parse("Agent 2 said answer: 1998, but\n**Final Answer:** 1963\nExplanation: x").answer())
                .isEqualTo("1963");
        assertThat(AgentOutputParser.parse("<think>Answer: 1998?</think>\nAnswer: {1963}.").answer()).isEqualTo("1963");
        assertThat(AgentOutputParser.parse("Answer:\n1963\nExplanation: on its own line").answer()).isEqualTo("1963");
        // found by the property test: an explanation right after the marker is an empty answer, not a crash
        assertThat(AgentOutputParser.parse("Explanation:Answer: Explanation: none").answer()).isEmpty();
        assertThat(AgentOutputParser.parse("Answer: **Explanation:** x").answer()).isEmpty();
    }
}
