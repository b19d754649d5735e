package dev.veracity.eval;

import dev.veracity.eval.judge.BinaryVerdictParser;
import dev.veracity.eval.judge.ScoreJsonParser;
import dev.veracity.qa.BoxedAnswer;
import dev.veracity.eval.metrics.FeverLabel;
import dev.veracity.eval.metrics.Metrics;
import dev.veracity.qa.AnswerNormalizer;
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
 * Linear time on hostile model output: every judge parser, answer extractor and answer normaliser of the eval
 * module finishes within 2 s on 100k-character strings built from its own markers (a backtracking regex or a
 * rescan from every position would take seconds to minutes). Shrinking is off: a slow parser would make each
 * shrinking step cost the full bound.
 */
class ParserPropertiesTest {

    private static final Duration BOUND = Duration.ofSeconds(2);

    @Property(tries = 40, shrinking = ShrinkingMode.OFF)
    void binaryVerdictTrueFalse(@ForAll("verdicts") String s) {
        Adversarial.assertFinishes(BinaryVerdictParser.TRUE_FALSE::parse, s, BOUND);
    }

    @Property(tries = 40, shrinking = ShrinkingMode.OFF)
    void binaryVerdictYesNo(@ForAll("verdicts") String s) {
        Adversarial.assertFinishes(BinaryVerdictParser.YES_NO::parse, s, BOUND);
    }

    @Property(tries = 40, shrinking = ShrinkingMode.OFF)
    void scoreJson(@ForAll("scores") String s) {
        Adversarial.assertFinishes(ScoreJsonParser::parse, s, BOUND);
    }

    @Property(tries = 40, shrinking = ShrinkingMode.OFF)
    void boxedAnswer(@ForAll("boxes") String s) {
        for (BoxedAnswer.Mode mode : BoxedAnswer.Mode.values()) {
            Adversarial.assertFinishes(t -> BoxedAnswer.extract(t, mode), s, BOUND);
            Adversarial.assertFinishes(t -> dev.veracity.qa.Abstention.ofBoxed(t, mode), s, BOUND);
        }
    }

    @Property(tries = 40, shrinking = ShrinkingMode.OFF)
    void feverLabel(@ForAll("labels") String s) {
        Adversarial.assertFinishes(FeverLabel::parse, s, BOUND);
    }

    @Property(tries = 40, shrinking = ShrinkingMode.OFF)
    void answerNormalizer(@ForAll("answers") String s) {
        Adversarial.assertFinishes(t -> AnswerNormalizer.squad(t) + AnswerNormalizer.nqOpen(t)
                + AnswerNormalizer.triviaQa(t), s, BOUND);
    }

    /** Every metric but strict-multi (its answer-set parser is tested with the MADAM-RAG parsers), either side. */
    @Property(tries = 40, shrinking = ShrinkingMode.OFF)
    void metrics(@ForAll("answers") String s) {
        Adversarial.assertFinishes(t -> {
            for (String name : Metrics.names()) {
                if (!name.equals("strict-multi")) {
                    Metrics.byName(name).score(t, List.of("the answer", "SUPPORTS"), List.of());
                    Metrics.byName(name).score("\\boxed{the answer}", List.of(t), List.of());
                }
            }
            return null;
        }, s, Duration.ofSeconds(4));
    }

    // The worst cases found by reading the code, pinned so that they run every time.

    @Example
    void binaryVerdictLabelBeforeSpaces() {
        String spaces = " ".repeat(50_000);
        Adversarial.assertFinishes(BinaryVerdictParser.TRUE_FALSE::parse, "answer" + spaces + "x", BOUND);
        Adversarial.assertFinishes(BinaryVerdictParser.YES_NO::parse, "verdict is" + spaces + "x", BOUND);
    }

    @Example
    void scoreJsonNestedBraces() {
        Adversarial.assertFinishes(ScoreJsonParser::parse, "{".repeat(50_000) + "}".repeat(50_000), BOUND);
        Adversarial.assertFinishes(ScoreJsonParser::parse, "{".repeat(100_000), BOUND);
        Adversarial.assertFinishes(ScoreJsonParser::parse, "{\"a\":".repeat(20_000) + "1" + "}".repeat(20_000), BOUND);
    }

    @Example
    void boxedAnswerNestedWrappers() {
        Adversarial.assertFinishes(BoxedAnswer::extract, "\\boxed{" + "\\text{".repeat(14_000) + "}".repeat(14_001),
                BOUND);
    }

    /** A marker, a long run of one filler, a marker: the shape that makes a backtracking regex quadratic. */
    static Arbitrary<String> hostile(List<String> markers) {
        Arbitrary<String> marker = Arbitraries.of(markers);
        Arbitrary<String> filler = Arbitraries.of(" ", "\t", "\n", " \n", "1", "a", "{", "}", "\"", "'", "\\");
        Arbitrary<String> framed = Combinators.combine(marker, filler, marker)
                .as((m, f, e) -> m + f.repeat(100_000 / f.length()) + e);
        return Arbitraries.oneOf(Adversarial.strings(100_000, markers), framed);
    }

    @Provide
    Arbitrary<String> verdicts() {
        return hostile(List.of("true", "false", "True", "FALSE", "yes", "no", "not ", "n't ",
                "isn't true", "not false", "Answer: ", "Final answer:", "verdict is ", "judgment", "True/False",
                "true or false", "Yes/No", "# ", "### ", "_", "**True**", "<think>", "</think>", "is ", "= ", "- "));
    }

    @Provide
    Arbitrary<String> scores() {
        return hostile(List.of("{\"score\":", "{\"score\": 1}", "\"score\"", "score: 1",
                "'score'=0", "{'", "'", "\"explanation\": \"", "explanation: '", "{\"a\":", "```json", "\\\"",
                "\\", "}", "{", "1", "0", "0.5", "null", "//", "/*"));
    }

    @Provide
    Arbitrary<String> boxes() {
        return hostile(List.of("\\boxed{", "\\text{", "\\textbf{", "\\mathrm{", "\\mbox{",
                "\\{", "\\}", "{", "}", "\\boxed{\\text{", "\\fbox{", "\\boxed {", "<think>", "</think>",
                "I don't know", "invalid question"));
    }

    @Provide
    Arbitrary<String> labels() {
        return hostile(List.of("SUPPORTS", "supported", "REFUTES", "NOT ENOUGH INFO",
                "NOT_ENOUGH_INFO", "nei", "_", "-", "."));
    }

    @Provide
    Arbitrary<String> answers() {
        return hostile(List.of("the", "a ", "an", "The answer", "\\boxed{", "SUPPORTS",
                "I don't know", "\u2019", "_", "\u00e9", "e\u0301", "\u2007", "\u0085", "\ud83d\ude00"));
    }
}
