package dev.veracity.retrieval;

import dev.veracity.retrieval.react.PageStore;
import dev.veracity.retrieval.react.ActionParser;
import dev.veracity.retrieval.react.SentenceSplitter;
import dev.veracity.text.Adversarial;
import java.time.Duration;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;

/**
 * Linear time on hostile model output and document text: the ReAct action parser, the sentence splitter and the
 * page-title key finish within 2 s on 100k-character strings built from their markers. Shrinking is off: a slow
 * parser would make each shrinking step cost the full bound.
 */
class ParserPropertiesTest {

    private static final Duration BOUND = Duration.ofSeconds(2);

    @Property(tries = 40, shrinking = ShrinkingMode.OFF)
    void reactAction(@ForAll("actions") String s) {
        Adversarial.assertFinishes(ActionParser::parse, s, BOUND);
    }

    @Property(tries = 40, shrinking = ShrinkingMode.OFF)
    void sentenceSplitter(@ForAll("sentences") String s) {
        Adversarial.assertFinishes(SentenceSplitter::split, s, BOUND);
    }

    @Property(tries = 40, shrinking = ShrinkingMode.OFF)
    void pageTitleKey(@ForAll("actions") String s) {
        Adversarial.assertFinishes(PageStore::normalise, s, BOUND);
    }

    // The worst cases found by reading the code, pinned so that they run every time.

    @Example
    void reactActionWhiteSpaceRuns() {
        String spaces = " ".repeat(50_000);
        Adversarial.assertFinishes(ActionParser::parse, "Thought\n" + spaces + "x", BOUND);
        Adversarial.assertFinishes(ActionParser::parse, "Action" + spaces + "x", BOUND);
    }

    /**
     * Inputs a random draw found once (a clean-clone CI run): many short lines, each of which used to rebuild the whole
     * thought so far (6.5 s for 100,000 characters), and lines with a mid-line "Action i:" label, each of which used to
     * copy it.
     */
    @Example
    void reactActionManyLines() {
        Adversarial.assertFinishes(ActionParser::parse, "\n}".repeat(50_000), BOUND);
        Adversarial.assertFinishes(ActionParser::parse, "x Action 1: y\n".repeat(8_000), BOUND);
        Adversarial.assertFinishes(ActionParser::parse, "Thought: a b c d e f g h\n".repeat(4_000), BOUND);
    }

    @Example
    void reactActionNestedBrackets() {
        Adversarial.assertFinishes(ActionParser::parse, "Action 1: Finish[" + "[".repeat(50_000) + "x" + "]".repeat(50_000), BOUND);
        Adversarial.assertFinishes(ActionParser::parse, "Search[x]] ".repeat(10_000), BOUND);
    }

    @Example
    void reactActionNestedQuotes() {
        Adversarial.assertFinishes(ActionParser::parse,
                "Search[" + "\"".repeat(50_000) + "x" + "\"".repeat(50_000) + "]", BOUND);
        Adversarial.assertFinishes(PageStore::normalise, "'".repeat(50_000) + "x" + "'".repeat(50_000), BOUND);
    }

    /** A marker, a long run of one filler, a marker: the shape that makes a backtracking regex quadratic. */
    static Arbitrary<String> hostile(List<String> markers) {
        Arbitrary<String> marker = Arbitraries.of(markers);
        Arbitrary<String> filler = Arbitraries.of(" ", "\t", "\n", " \n", "1", "a", "[", "]", "\"", "'", "`", ".");
        Arbitrary<String> framed = Combinators.combine(marker, filler, marker)
                .as((m, f, e) -> m + f.repeat(100_000 / f.length()) + e);
        return Arbitraries.oneOf(Adversarial.strings(100_000, markers), framed);
    }

    @Provide
    Arbitrary<String> actions() {
        return hostile(List.of("Search[", "Finish[", "Lookup[", "search [", "FINISH[", "Action 3:", "Action", "action ",
                "**", "**Action 1:** ", "]", "[", "[[", "]]", "\"", "'", "`", "\u201c", "\u201d", "\u2018", "\u2019", "_",
                "Thought:", "Thought 1: ", "Observation:", "Observation 1: ", "Action 12345", "1. ", "<think>", "</think>",
                "Action 1: Search[x"));
    }

    @Provide
    Arbitrary<String> sentences() {
        return hostile(List.of(". ", "? ", "! ", ".\" ", ".) ", "Mr.", "e.g.", "U.S.", "J. R. R.", "A", "The", "1",
                "\"", "(", ".", "\u201d", "\u2019"));
    }
}
