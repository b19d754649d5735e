package dev.veracity.qa;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AnswerSetParserTest {

    @Test
    void mixedQuotesAfterMarker() {
        assertThat(AnswerSetParser.parse("All Correct Answers: [\"a\", 'b', c]")).containsExactly("a", "b", "c");
    }

    @Test
    void extraTextAroundTheMarkerAndQuotedCommas() {
        String out = "The documents disagree.\nall correct answers: [\"Paris, France\", \"Paris, Texas\"]. "
                + "Explanation: two cities [1].";
        assertThat(AnswerSetParser.parse(out)).containsExactly("Paris, France", "Paris, Texas");
    }

    @Test
    void emptyListAndBlankInput() {
        assertThat(AnswerSetParser.parse("All Correct Answers: []")).isEmpty();
        assertThat(AnswerSetParser.parse("All Correct Answers: [ , '' ]")).isEmpty();
        assertThat(AnswerSetParser.parse("  ")).isEmpty();
        assertThat(AnswerSetParser.parse(null)).isEmpty();
    }

    @Test
    void jsonListWithEscapes() {
        assertThat(AnswerSetParser.parse("[\"x\", \"say \\\"hi\\\"\"]")).containsExactly("x", "say \"hi\"");
    }

    @Test
    void plainCommaSemicolonList() {
        assertThat(AnswerSetParser.parse("Paris; London, Rome")).containsExactly("Paris", "London", "Rome");
        // after a marker without brackets, the list runs to the end of the line
        assertThat(AnswerSetParser.parse("All Correct Answers: Paris, London\nExplanation: x, y"))
                .containsExactly("Paris", "London");
    }

    @Test
    void apostropheInsideAnUnquotedItemIsText() {
        assertThat(AnswerSetParser.parse("[Rock 'n' Roll, Jazz]")).containsExactly("Rock 'n' Roll", "Jazz");
    }

    @Test
    void lastMarkerWinsDuplicatesDropUnclosedRunsToEnd() {
        assertThat(AnswerSetParser.parse("All Correct Answers: [a]\nrevised. All Correct Answers: [b, b]"))
                .containsExactly("b");
        assertThat(AnswerSetParser.parse("All Correct Answers: [a, b")).containsExactly("a", "b");
        assertThat(AnswerSetParser.parse("[[1, 2], 3]")).containsExactly("[1, 2]", "3");
    }
}
