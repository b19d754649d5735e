package dev.veracity.eval.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The one renderer of the command line's tables and paragraphs, fitted to a terminal's width. */
class TextTableTest {

    private static TextTable table() {
        return new TextTable(List.of(
                TextTable.Column.text("run", 6, 30),
                TextTable.Column.figure("metric").shrinkAt(20).dropAt(40),
                TextTable.Column.figure("other").shrinkAt(20).dropAt(39),
                TextTable.Column.figure("cost").dropAt(5),
                TextTable.Column.figure("time").dropAt(6)))
                .rowOfForms(List.of(List.of("a-run-with-a-long-name"), List.of("0.500 [0.250, 0.750] n=40",
                        "0.500 [0.250, 0.750]", "0.500"), List.of("0.100 [0.000, 0.200] n=40", "0.100 [0.000, 0.200]",
                        "0.100"), List.of("1234.5"), List.of("0.25")));
    }

    private static void noLineLongerThan(List<String> lines, int width) {
        assertThat(lines).allSatisfy(l -> assertThat(l.length()).as(l).isLessThanOrEqualTo(width));
    }

    @Test
    void atItsFullWidthEveryColumnIsShownInItsFirstForm() {
        TextTable.Fitted f = table().render();
        assertThat(f.dropped()).isEmpty();
        assertThat(f.shortened()).isFalse();
        assertThat(f.lines().get(2)).contains("a-run-with-a-long-name", "0.500 [0.250, 0.750] n=40", "1234.5", "0.25");
        assertThat(f.natural()).isEqualTo(f.lines().get(1).length());
        assertThat(f.note(200, "")).isEmpty();
    }

    @Test
    void narrowingDropsTheLowestPrioritiesFirstThenShortensTheFormsTogetherThenAbbreviates() {
        TextTable.Fitted f = table().render(80);
        // cost (5) then time (6) go; the metrics keep their first form
        assertThat(f.dropped()).containsExactly("cost", "time");
        assertThat(f.lines().get(2)).contains("0.500 [0.250, 0.750] n=40", "0.100 [0.000, 0.200] n=40");
        noLineLongerThan(f.lines(), 80);

        // both metrics lose their n together (one priority), not one metric down to its mean
        f = table().render(70);
        assertThat(f.lines().get(2)).contains("0.500 [0.250, 0.750]", "0.100 [0.000, 0.200]").doesNotContain("n=40");
        assertThat(f.shortened()).isTrue();
        noLineLongerThan(f.lines(), 70);

        f = table().render(40);
        assertThat(f.lines().get(2)).contains("a-run-with-a-long-name").contains("0.500").contains("0.100")
                .doesNotContain("[");
        noLineLongerThan(f.lines(), 40);

        // then the run's name is cut, then the metric dropped at the lower priority (39) goes first
        f = table().render(20);
        assertThat(f.lines().get(2)).startsWith("a-r...").contains("0.500").doesNotContain("0.100");
        assertThat(f.dropped()).containsExactly("other", "cost", "time");
        noLineLongerThan(f.lines(), 20);
        assertThat(f.note(20, "in a file")).startsWith("Columns not shown at 20 characters: other, cost, time")
                .contains("COLUMNS=" + table().render().natural()).endsWith("or in a file.");
    }

    @Test
    void aWrappedColumnTakesMoreLinesAndNoLineIsLonger() {
        TextTable t = new TextTable(List.of(TextTable.Column.text("option", 4, 50),
                TextTable.Column.text("description", 10, 10).wrapped(10))).noHeader()
                .row(List.of("k=21", "the number of chain-of-thought samples drawn for every question"));
        List<String> lines = t.render(40).lines();
        assertThat(lines.size()).isGreaterThan(1);
        noLineLongerThan(lines, 40);
        assertThat(String.join(" ", lines).replaceAll("\\s+", " ")).contains("the number of chain-of-thought samples");
        assertThat(lines.getFirst()).startsWith("k=21  the number");
    }

    @Test
    void aParagraphWrapsAtSpacesWithItsIndentsAndBreaksAWordLongerThanTheLine() {
        String text = "Results in /a/very/long/path/that/does/not/fit/on/one/line/of/this/narrow/terminal/results.jsonl"
                + " and more words after it";
        List<String> lines = TextTable.wrap(text, 30, "* ", "  ").lines().toList();
        noLineLongerThan(lines, 30);
        assertThat(lines.getFirst()).isEqualTo("* Results in");
        assertThat(lines.subList(1, lines.size())).allSatisfy(l -> assertThat(l).startsWith("  "));
        // the path is broken where the line ends, and nothing of it is lost
        assertThat(String.join("", lines.stream().map(String::strip).toList()).replace(" ", ""))
                .contains("/a/very/long/path/that/does/not/fit/on/one/line/of/this/narrow/terminal/results.jsonlandmore");
        // at an unlimited width a paragraph is its one line
        assertThat(TextTable.wrap(text, TextTable.UNLIMITED)).isEqualTo(text + "\n");
        assertThat(TextTable.fit("abcdefghij", 8)).isEqualTo("abcde...");
    }
}
