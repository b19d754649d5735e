package dev.veracity.methods.march;

import dev.veracity.text.Adversarial;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;

/**
 * Linear time on hostile answers: the number parser, "Cannot answer" and every answer matcher finish within 2 s of CPU
 * time ({@link Adversarial#assertFinishes}) on 100k-character strings built from number markers, with the hostile
 * string as either argument. Shrinking is off: a slow matcher would make each shrinking step cost the full bound.
 */
class MatcherPropertiesTest {

    private static final Duration BOUND = Duration.ofSeconds(2);
    private static final List<String> OTHERS = List.of("1.5", "1,000", "45%", "2021-03-04", "March 2021", "yes", "Paris");

    @Property(tries = 40, shrinking = ShrinkingMode.OFF)
    void numberParser(@ForAll("numbers") String s) {
        Adversarial.assertFinishes(NumberParser::parse, s, BOUND);
    }

    @Property(tries = 40, shrinking = ShrinkingMode.OFF)
    void cannotAnswer(@ForAll("numbers") String s) {
        Adversarial.assertFinishes(CheckerAnswer::isCannotAnswer, s, BOUND);
    }

    @Property(tries = 40, shrinking = ShrinkingMode.OFF)
    void authorsMatch(@ForAll("numbers") String s) {
        Adversarial.assertFinishes(either(AnswerMatcher.authors()), s, BOUND);
    }

    @Property(tries = 40, shrinking = ShrinkingMode.OFF)
    void strictMatch(@ForAll("numbers") String s) {
        Adversarial.assertFinishes(either(AnswerMatcher.byName("strict", 1e-6)), s, BOUND);
    }

    @Property(tries = 40, shrinking = ShrinkingMode.OFF)
    void typedMatch(@ForAll("numbers") String s) {
        Adversarial.assertFinishes(either(AnswerMatcher.byName("typed", 1e-6)), s, BOUND);
    }

    /** The matcher against a few ordinary answers, the hostile string first and second. */
    private static Function<String, Boolean> either(AnswerMatcher m) {
        return s -> {
            boolean any = false;
            for (String o : OTHERS) {
                any |= m.matches(s, o) | m.matches(o, s);
            }
            return any;
        };
    }

    // The worst cases found by reading the code, pinned so that they run every time.

    @Example
    void numberParserTrailingRuns() {
        Adversarial.assertFinishes(NumberParser::parse, "1" + " ".repeat(50_000) + "x", BOUND);
        Adversarial.assertFinishes(NumberParser::parse, "1" + "\"".repeat(50_000) + "x", BOUND);
    }

    @Example
    void authorsMatchLongDigitRun() {
        Adversarial.assertFinishes(either(AnswerMatcher.authors()), "1".repeat(50_000) + "x", BOUND);
    }

    /** A marker, a long run of one filler, a marker: the shape that makes a backtracking regex quadratic. */
    static Arbitrary<String> hostile(List<String> markers) {
        Arbitrary<String> marker = Arbitraries.of(markers);
        Arbitrary<String> filler = Arbitraries.of(" ", "\t", "1", "1,", "0.", ".", "\"", "'", ")", "_", "%", "k", "e");
        Arbitrary<String> framed = Combinators.combine(marker, filler, marker)
                .as((m, f, e) -> m + f.repeat(100_000 / f.length()) + e);
        return Arbitraries.oneOf(Adversarial.strings(100_000, markers), framed);
    }

    @Provide
    Arbitrary<String> numbers() {
        return hostile(List.of("1", "12", ",", "1,234", ".", "0.5", "e", "e+3", "E-", "%", " percent", "k", "K", "M",
                " million", "bn", "x 10^", "^", "$", "~", "\u2248", "\u2212", "\u2009", "_", "about ", "(", ")", "[",
                "]", "\"", "'", "w", "inf", "nan", "2021", "-03", "March ", "1st", "th", "yes", "Cannot answer", "n/a"));
    }
}
