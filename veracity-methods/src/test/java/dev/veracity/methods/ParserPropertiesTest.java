package dev.veracity.methods;

import dev.veracity.methods.court.JudgeOutputParser;
import dev.veracity.methods.madam.AgentOutputParser;
import dev.veracity.methods.madam.AggregatorOutputParser;
import dev.veracity.methods.march.CheckerOutputParser;
import dev.veracity.methods.march.ClaimParser;
import dev.veracity.text.Adversarial;
import java.time.Duration;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Every MARCH and MADAM-RAG output parser finishes in linear time on 100k-character hostile outputs (whitespace
 * runs after markers, thousands of unclosed markers, nested and unbalanced brackets and quotes). Before the rewrite,
 * 2,000 spaces after "[Answer:" took the Checker parser 8.6 s and 50,000 spaces kept the agent parser busy for
 * minutes; the bound here is 2 s per input.
 */
class ParserPropertiesTest {

    private static final Duration BOUND = Duration.ofSeconds(2);

    @Property(tries = 40)
    void checker(@ForAll("march") String s) {
        Adversarial.assertFinishes(t -> CheckerOutputParser.parse(t, 10), s, BOUND);
    }

    @Property(tries = 40)
    void proposer(@ForAll("march") String s) {
        Adversarial.assertFinishes(ClaimParser::parse, s, BOUND);
    }

    @Property(tries = 40)
    void agent(@ForAll("madam") String s) {
        Adversarial.assertFinishes(t -> AgentOutputParser.parse(t, "What is the answer: to the question?"), s, BOUND);
    }

    @Property(tries = 40)
    void aggregator(@ForAll("madam") String s) {
        Adversarial.assertFinishes(t -> AggregatorOutputParser.parse(t, List.of(t.substring(0, Math.min(4_000, t.length())))),
                s, BOUND);
    }

    @Property(tries = 40)
    void courtJudge(@ForAll("court") String s) {
        Adversarial.assertFinishes(JudgeOutputParser::parse, s, BOUND);
    }

    @Provide
    Arbitrary<String> court() {
        return Adversarial.strings(100_000, List.of("Action 1: ", "Action: ", "action", "Action 12345", "Search[",
                "Lookup [", "Finish[", "[[", "]]", "Complete[", "complete [", "Complete[<short final answer>]",
                "Thought 1: ", "**Action 2:** ", "1. ", "Observation 1: ", "Action 1: Search[x"));
    }

    @Provide
    Arbitrary<String> march() {
        return Adversarial.strings(100_000, List.of("1. Evidence: ", "3. ", "\n2) ", "[Answer: ", "Answer:", "Question 1:",
                "- Question: x [Answer: ", "50.\n", "2.5.", "> 1. Evidence:", "[answer:", "Q1:"));
    }

    @Provide
    Arbitrary<String> madam() {
        return Adversarial.strings(100_000, List.of("Answer: ", "**Answer:** ", "Explanation:", "Reasoning: ",
                "All Correct Answers: [\"", "'All Correct Answers: [", "> All Correct Answers: [", "\"1,000\", ",
                "1,000,", "Final Answer:", "the answer: "));
    }
}
