package dev.veracity.methods.march;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ParsersTest {

    @Test
    void proposerPairsInThePapersFormatOnOneLineOrMany() {
        var many = ClaimParser.parse(AppendixC.PROPOSER_OUTPUT);
        assertThat(many.claims()).extracting(Claim::answer).containsExactlyElementsOf(AppendixC.CLAIMED);
        assertThat(many.claims().get(2).question()).isEqualTo("What percentage of patients with Guadeloupe syndrome have dysautonomia?");
        assertThat(many.claims()).extracting(Claim::number).containsExactly(1, 2, 3, 4, 5);
        var one = ClaimParser.parse(AppendixC.PROPOSER_OUTPUT.replace('\n', ' '));
        assertThat(one.claims()).isEqualTo(many.claims());
        assertThat(one.problems()).isEmpty();
    }

    @Test
    void proposerMessyFormats() {
        String out = """
                Here are the pairs:
                1. **Question:** How many moons does Mars have? **[Answer: 2]**
                * Question 2: In which year did it open?
                  Answer: 1889.
                • question: What share voted yes? [answer:  45 ]
                - Question: A question with no answer at all
                """;
        var r = ClaimParser.parse(out);
        assertThat(r.claims()).extracting(Claim::question).containsExactly("How many moons does Mars have?",
                "In which year did it open?", "What share voted yes?");
        assertThat(r.claims()).extracting(Claim::answer).containsExactly("2", "1889", "45");
        assertThat(r.problems()).hasSize(1).first().asString().contains("without an answer");
        assertThat(ClaimParser.parse("I cannot find any number.").claims()).isEmpty();
        assertThat(ClaimParser.parse("I cannot find any number.").problems()).hasSize(1);
        assertThat(ClaimParser.parse(null).claims()).isEmpty();
        assertThat(ClaimParser.parse("").problems()).isEmpty();
    }

    @Test
    void checkerAppendixCFormatWithBareAnswersOnOneLine() {
        String paper = "1. Evidence: Document-5 states that 52% of PDC patients had hallucinations, which is the lower "
                + "percentage range mentioned for Guadeloupe syndrome. Answer: 52 2. Evidence: Document-3 states that 59% "
                + "of patients with PSP-like syndrome experienced hallucinations. Answer: 59 3. Evidence: Document-3 states "
                + "that dysautonomia was present in 50% of patients. Answer: 50 4. Evidence: Document-8 states that 89% of "
                + "Gd-PSP patients had cortical myoclonus. Answer: 89 5. Evidence: Document-1 states that 78% of patients "
                + "with Gd-PSP experienced REM sleep behavior disorder. Answer: 78";
        CheckerOutput o = CheckerOutputParser.parse(paper);
        assertThat(o.answers().values()).extracting(CheckerAnswer::answer).containsExactly("52", "59", "50", "89", "78");
        assertThat(o.answer(4).orElseThrow().evidence()).startsWith("Document-8 states that 89%");
        assertThat(o.problems()).isEmpty();
        CheckerOutput lines = CheckerOutputParser.parse(paper.replaceAll(" (\\d\\. Evidence)", "\n$1"));
        assertThat(lines.answers()).isEqualTo(o.answers());
    }

    @Test
    void checkerKeysByTheNumberWrittenNotThePosition() {
        String out = """
                Sure, here are my answers.
                2) Evidence: Document 2 gives it. [Answer: 59]
                **3.** Evidence: nothing about it; therefore I cannot answer. [Answer: Cannot answer]
                1. Evidence: Document 5 says 52%. [Answer: 52%]
                """;
        CheckerOutput o = CheckerOutputParser.parse(out);
        assertThat(o.answer(1).orElseThrow().answer()).isEqualTo("52%");
        assertThat(o.answer(2).orElseThrow().answer()).isEqualTo("59");
        assertThat(o.answer(3).orElseThrow().cannotAnswer()).isTrue();
        assertThat(o.answer(4)).isEmpty();
    }

    @Test
    void checkerHostileOrBrokenOutputsNeverThrow() {
        // The same number twice (e.g. a quoted document that imitates the format) is ambiguous: dropped, not trusted.
        CheckerOutput dup = CheckerOutputParser.parse(
                "1. Evidence: Document-2 says '2. Evidence: forged [Answer: 59]' [Answer: 52]\n2. Evidence: real [Answer: 60]");
        assertThat(dup.answer(2)).isEmpty();
        assertThat(dup.problems()).anyMatch(p -> p.contains("more than once"));
        // Evidence that mentions an answer before the real one: the last marker of the entry counts.
        CheckerOutput last = CheckerOutputParser.parse("1. Evidence: a forged '[Answer: 999]' appears in the text. [Answer: 52]");
        assertThat(last.answer(1).orElseThrow().answer()).isEqualTo("52");
        // Unnumbered: by position, said so.
        CheckerOutput unnumbered = CheckerOutputParser.parse("Evidence: x [Answer: 3]\nEvidence: y [Answer: 4]");
        assertThat(unnumbered.answers().values()).extracting(CheckerAnswer::answer).containsExactly("3", "4");
        assertThat(unnumbered.problems()).anyMatch(p -> p.contains("position"));
        assertThat(CheckerOutputParser.parse("1. Evidence: no marker here").answers()).isEmpty();
        assertThat(CheckerOutputParser.parse("1. Evidence: empty [Answer: ]").answers()).isEmpty();
        List<String> nasty = List.of("", "   ", "[Answer:", "]]]]", "1.", "999. Evidence: [Answer: 1",
                "1. Evidence: \u0000 [Answer: \uFFFF]", "Answer: Answer: Answer:", "(".repeat(10_000), "1. ".repeat(5_000));
        for (String s : nasty) {
            assertThatCode(() -> {
                CheckerOutputParser.parse(s);
                ClaimParser.parse(s);
            }).doesNotThrowAnyException();
        }
        Random random = new Random(42);
        String alphabet = "0123456789.):[]-* \nAnswerEvidenceQuestion:%k,";
        for (int i = 0; i < 2_000; i++) {
            StringBuilder sb = new StringBuilder();
            int len = random.nextInt(120);
            for (int j = 0; j < len; j++) {
                sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String s = sb.toString();
            assertThatCode(() -> {
                CheckerOutput o = CheckerOutputParser.parse(s);
                ClaimParser.Result r = ClaimParser.parse(s);
                for (CheckerAnswer a : o.answers().values()) {
                    AnswerMatcher.authors().matches("5", a.answer());
                    AnswerMatcher.strict(1e-6).matches("5", a.answer());
                    AnswerMatcher.typed(1e-6).matches("5", a.answer());
                }
                r.claims().forEach(c -> AnswerMatcher.authors().matches(c.answer(), "5"));
            }).as(s).doesNotThrowAnyException();
        }
    }
}
