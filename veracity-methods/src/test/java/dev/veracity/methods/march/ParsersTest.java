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
    void aProposerQuotingTheVerifiedTextKeepsItsQuestionWhole() {
        // A composition verifies "Question: q\nAnswer: a"; a Proposer that quotes it carries both markers inside its
        // question. The authors' regex (non-greedy up to the first "[Answer:") reads the whole quote as the question.
        String out = """
                - Question: In the statement "Question: When was the tower built? Answer: It was built in what number.", what is the number? [Answer: 1899]
                - Question: How tall is it? [Answer: 300]
                """;
        var r = ClaimParser.parse(out);
        assertThat(r.problems()).isEmpty();
        assertThat(r.claims()).extracting(Claim::answer).containsExactly("1899", "300");
        assertThat(r.claims().getFirst().question()).isEqualTo("In the statement \"Question: When was the tower built?"
                + " Answer: It was built in what number.\", what is the number?");
        // on one line the second pair still begins after the first one's answer
        assertThat(ClaimParser.parse(out.replace('\n', ' ')).claims()).isEqualTo(r.claims());
        // a line that begins with a marker is a new pair even when the one before it lacks its answer
        var missing = ClaimParser.parse("Question: first, unanswered\n2. Question: second? [Answer: 2]");
        assertThat(missing.claims()).extracting(Claim::question).containsExactly("second?");
        assertThat(missing.problems()).hasSize(1).first().asString().contains("without an answer");
        // and so is one on the same line outside a quotation: the pair before it is the one without an answer
        var sameLine = ClaimParser.parse("Question: How many floors? (not stated) Question: How tall? [Answer: 300]");
        assertThat(sameLine.claims()).extracting(Claim::question).containsExactly("How tall?");
        assertThat(sameLine.problems()).hasSize(1).first().asString().contains("without an answer");
        // curly quotes as straight ones
        var curly = ClaimParser.parse("- Question: In \u201CQuestion: When? Answer: in what number\u201D, what is the"
                + " number? [Answer: 1889]");
        assertThat(curly.claims()).extracting(Claim::answer).containsExactly("1889");
        assertThat(curly.problems()).isEmpty();
    }

    @Test
    void checkerAppendixCFormatWithBareAnswersOnOneLine() {
        String paper = "1. Evidence: Document-5 states that 52% of PDC patients had hallucinations, which is the lower "
                + "percentage range mentioned for Guadeloupe syndrome. Answer: 52 2. Evidence: Document-3 states that 59% "
                + "of patients with PSP-like syndrome experienced hallucinations. Answer: 59 3. Evidence: Document-3 states "
                + "that dysautonomia was present in 50% of patients. Answer: 50 4. Evidence: Document-8 states that 89% of "
                + "Gd-PSP patients had cortical myoclonus. Answer: 89 5. Evidence: Document-1 states that 78% of patients "
                + "with Gd-PSP experienced REM sleep behavior disorder. Answer: 78";
        CheckerOutput o = CheckerOutputParser.parse(paper, 5);
        assertThat(o.answers().values()).extracting(CheckerAnswer::answer).containsExactly("52", "59", "50", "89", "78");
        assertThat(o.answer(4).orElseThrow().evidence()).startsWith("Document-8 states that 89%");
        assertThat(o.problems()).isEmpty();
        CheckerOutput lines = CheckerOutputParser.parse(paper.replaceAll(" (\\d\\. Evidence)", "\n$1"), 5);
        assertThat(lines.answers()).isEqualTo(o.answers());
    }

    @Test
    void aNumberAtALineEndIsNotAnEntry() {
        // The case: "50." ends a line and "[Answer: 50]" follows; the old parser opened an entry numbered 50.
        String out = "1. Evidence: Document-1 says 52% had hallucinations. [Answer: 52]\n"
                + "2. Evidence: Document-2 says 59%. [Answer: 59]\n"
                + "3. Evidence: Document-3 says dysautonomia affected 50.\n[Answer: 50]";
        CheckerOutput o = CheckerOutputParser.parse(out, 3);
        assertThat(o.answers().keySet()).containsExactly(1, 2, 3);
        assertThat(o.answer(3).orElseThrow().answer()).isEqualTo("50");
        assertThat(o.problems()).isEmpty();
        // a wrapped line that starts with a number outside 1..m, and decimals, stay evidence
        CheckerOutput wrapped = CheckerOutputParser.parse("1. Evidence: the rate rose to\n2.5. percent and then\n"
                + "40. more [Answer: 2.5]\n2. Evidence: none [Answer: Cannot answer]", 2);
        assertThat(wrapped.answer(1).orElseThrow().answer()).isEqualTo("2.5");
        assertThat(wrapped.answer(2).orElseThrow().cannotAnswer()).isTrue();
    }

    @Test
    void aNumberedListInsideEvidenceDoesNotSplitTheEntry() {
        String out = "1. Evidence: Document 2 lists the totals:\n1) 2019: 40\n2) 2020: 50\n[Answer: 50]\n"
                + "2. Evidence: Document 1 says 7. [Answer: 7]";
        CheckerOutput o = CheckerOutputParser.parse(out, 2);
        assertThat(o.answer(1).orElseThrow().answer()).isEqualTo("50");
        assertThat(o.answer(2).orElseThrow().answer()).isEqualTo("7");
    }

    @Test
    void reasoningIsRemovedBeforeParsing() {
        String out = "<think>1. Evidence: maybe 40 [Answer: 40]</think>\n1. Evidence: Document 1 says 50. [Answer: 50]";
        assertThat(CheckerOutputParser.parse(out, 1).answer(1).orElseThrow().answer()).isEqualTo("50");
        String templateOpened = "1. [Answer: 40] hmm, no.\n</think>\n1. Evidence: it says 50. [Answer: 50]";
        assertThat(CheckerOutputParser.parse(templateOpened, 1).answers()).hasSize(1);
        assertThat(CheckerOutputParser.parse(templateOpened, 1).answer(1).orElseThrow().answer()).isEqualTo("50");
    }

    @Test
    void checkerKeysByTheNumberWrittenNotThePosition() {
        String out = """
                Sure, here are my answers.
                2) Evidence: Document 2 gives it. [Answer: 59]
                **3.** Evidence: nothing about it; therefore I cannot answer. [Answer: Cannot answer]
                1. Evidence: Document 5 says 52%. [Answer: 52%]
                """;
        CheckerOutput o = CheckerOutputParser.parse(out, 4);
        assertThat(o.answer(1).orElseThrow().answer()).isEqualTo("52%");
        assertThat(o.answer(2).orElseThrow().answer()).isEqualTo("59");
        assertThat(o.answer(3).orElseThrow().cannotAnswer()).isTrue();
        assertThat(o.answer(4)).isEmpty();
    }

    @Test
    void checkerHostileOrBrokenOutputsNeverThrow() {
        // The same number twice (e.g. a quoted document that imitates the format) is ambiguous: dropped, not trusted.
        CheckerOutput dup = CheckerOutputParser.parse(
                "1. Evidence: Document-2 says\n2. Evidence: forged [Answer: 59]\n[Answer: 52]\n2. Evidence: real [Answer: 60]", 2);
        assertThat(dup.answer(2)).isEmpty();
        assertThat(dup.problems()).anyMatch(p -> p.contains("more than once"));
        // Evidence that mentions an answer before the real one: the last marker of the entry counts.
        CheckerOutput last = CheckerOutputParser.parse("1. Evidence: a forged '[Answer: 999]' appears in the text. [Answer: 52]", 1);
        assertThat(last.answer(1).orElseThrow().answer()).isEqualTo("52");
        // Unnumbered: by position, said so.
        CheckerOutput unnumbered = CheckerOutputParser.parse("Evidence: x [Answer: 3]\nEvidence: y [Answer: 4]", 2);
        assertThat(unnumbered.answers().values()).extracting(CheckerAnswer::answer).containsExactly("3", "4");
        assertThat(unnumbered.problems()).anyMatch(p -> p.contains("position"));
        assertThat(CheckerOutputParser.parse("1. Evidence: no marker here", 1).answers()).isEmpty();
        assertThat(CheckerOutputParser.parse("1. Evidence: empty [Answer: ]", 1).answers()).isEmpty();
        List<String> nasty = List.of("", "   ", "[Answer:", "]]]]", "1.", "999. Evidence: [Answer: 1",
                "1. Evidence: \u0000 [Answer: \uFFFF]", "Answer: Answer: Answer:", "(".repeat(10_000), "1. ".repeat(5_000));
        for (String s : nasty) {
            assertThatCode(() -> {
                CheckerOutputParser.parse(s, 5);
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
                CheckerOutput o = CheckerOutputParser.parse(s, 5);
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
