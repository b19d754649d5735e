package dev.veracity.examples.citecheck;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The reply parser on what models write around the format, on text that imitates it, and on arbitrary input. */
class CitedAnswerTest {

    @Test
    void readsTheFormatAsModelsWriteIt() {
        assertThat(CitedAnswer.parse("Answer: Paris\nEvidence: [2]"))
                .isEqualTo(new CitedAnswer.Cited("Paris", List.of(2)));
        assertThat(CitedAnswer.parse("**Answer:** Leonardo da Vinci.\n**Evidence:** [1], [3]"))
                .isEqualTo(new CitedAnswer.Cited("Leonardo da Vinci", List.of(1, 3)));
        assertThat(CitedAnswer.parse("- answer: \"1889\"\n- evidence: Passage 2"))
                .isEqualTo(new CitedAnswer.Cited("1889", List.of(2)));
        assertThat(CitedAnswer.parse("<think>Answer: Rome? Passage 1 is about Rome.\nEvidence: [1]</think>\n"
                + "Answer: Paris\nEvidence: [2]")).as("a reasoning block is not the reply")
                .isEqualTo(new CitedAnswer.Cited("Paris", List.of(2)));
        assertThat(CitedAnswer.parse("Sure! Here is my reply.\n\nAnswer: Canberra\n")).as("no evidence line: no citation")
                .isEqualTo(new CitedAnswer.Cited("Canberra", List.of()));
        assertThat(CitedAnswer.parse("Answer: Paris\nThe passages agree.\nEvidence: [2, 2, 0]"))
                .as("repeats and passage 0 dropped").isEqualTo(new CitedAnswer.Cited("Paris", List.of(2)));
        assertThat(CitedAnswer.parse("Answer: the 3 musketeers\nEvidence: []")).as("numbers in the answer are not cited")
                .isEqualTo(new CitedAnswer.Cited("the 3 musketeers", List.of()));
    }

    @Test
    void unknownAndUnreadable() {
        assertThat(CitedAnswer.parse("Answer: unknown\nEvidence: []")).isEqualTo(new CitedAnswer.Unknown());
        assertThat(CitedAnswer.parse("**Answer:** Unknown.")).isEqualTo(new CitedAnswer.Unknown());
        assertThat(CitedAnswer.parse("The answer is Paris [2].")).isInstanceOf(CitedAnswer.Unreadable.class);
        assertThat(CitedAnswer.parse("Answer:\nEvidence: [1]")).isEqualTo(new CitedAnswer.Unreadable("an empty \"Answer:\" line"));
        assertThat(CitedAnswer.parse("")).isInstanceOf(CitedAnswer.Unreadable.class);
        assertThat(CitedAnswer.parse(null)).isInstanceOf(CitedAnswer.Unreadable.class);
        assertThat(CitedAnswer.parse("<think>Answer: Paris\nEvidence: [2]")).as("an unclosed reasoning block is reasoning")
                .isInstanceOf(CitedAnswer.Unreadable.class);
    }

    @Test
    void aNumberTooLongForAnIntIsNoCitationAndNoOverflow() {
        assertThat(CitedAnswer.parse("Answer: Paris\nEvidence: [99999999999999999999], [2]"))
                .isEqualTo(new CitedAnswer.Cited("Paris", List.of(2)));
    }

    @Test
    void anyStringGivesAResultAndLongRepliesAreReadInOnePass() {
        Random random = new Random(7);
        String alphabet = "Answer:Evidence:[]0123456789*-> \n\"'`<think></think>.,x";
        for (int i = 0; i < 20_000; i++) {
            StringBuilder sb = new StringBuilder();
            for (int j = random.nextInt(80); j > 0; j--) {
                sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            assertThat(CitedAnswer.parse(sb.toString())).isNotNull();
        }
        String numbers = "Answer: Paris\nEvidence: " + "[1] ".repeat(500_000) + "[2]";
        assertThat(CitedAnswer.parse(numbers)).isEqualTo(new CitedAnswer.Cited("Paris", List.of(1, 2)));
        assertThat(CitedAnswer.parse("*".repeat(1_000_000))).isInstanceOf(CitedAnswer.Unreadable.class);
    }
}
