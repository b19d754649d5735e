package dev.veracity.methods.c3po;

import dev.veracity.text.Adversarial;
import java.time.Duration;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The C-3PO parsers finish in linear time on 100k-character hostile outputs (2 s bound per input) and never throw. */
class ParserPropertiesTest {

    private static final Duration BOUND = Duration.ofSeconds(2);

    @Property(tries = 40)
    void router(@ForAll("c3po") String s) {
        Adversarial.assertFinishes(RouterParser::parse, s, BOUND);
    }

    @Property(tries = 40)
    void decision(@ForAll("c3po") String s) {
        Adversarial.assertFinishes(DecisionParser::parse, s, BOUND);
    }

    @Property(tries = 40)
    void filter(@ForAll("c3po") String s) {
        Adversarial.assertFinishes(t -> FilterParser.parse(t, 10, true), s, BOUND);
        Adversarial.assertFinishes(t -> FilterParser.parse(t, 10, false), s, BOUND);
    }

    @Provide
    Arbitrary<String> c3po() {
        return Adversarial.strings(100_000, List.of("[Retrieval] ", "[Planning]", "[No Retrieval]", "[LLM]", "Action: ",
                "Action: [", "Thought: ", "[1, 2, ", "1_", "-", "99999999999", ",,", "]", "Action: [1,", "\u00A0"));
    }
}
