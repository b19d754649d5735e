package dev.veracity.eval.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatasetPageTest {

    @TempDir
    Path tmp;

    /** A run folder: each question's prediction is right (the gold answer) or wrong, scored by em. */
    private Path run(String name, String method, String dataset, double secondsPerQuestion, Map<String, Boolean> right)
            throws IOException {
        Path dir = Files.createDirectories(tmp.resolve(name));
        List<String> lines = new ArrayList<>();
        int correct = 0;
        for (Map.Entry<String, Boolean> e : right.entrySet()) {
            String id = e.getKey().replace("\\", "\\\\").replace("\"", "\\\"");
            lines.add("{\"id\": \"%s\", \"question\": \"Question %s?\", \"prediction\": \"%s\", \"gold\": [\"gold %s\"],"
                    .formatted(id, id, e.getValue() ? "gold " + id : "wrong", id)
                    + " \"metrics\": {\"em\": %s}, \"calls\": 2}".formatted(e.getValue() ? "1.0" : "0.0"));
            correct += e.getValue() ? 1 : 0;
        }
        Files.write(dir.resolve("results.jsonl"), lines);
        Files.writeString(dir.resolve("summary.json"), """
                {"method": "%s", "dataset": "%s", "n": %d, "metrics": {"em": %s}, "metrics_n": {"em": %d},
                 "calls_per_question": 2.0, "prompt_tokens_per_question": %s, "completion_tokens_per_question": 10,
                 "wall_ms_per_question": %s}
                """.formatted(method, dataset, right.size(), (double) correct / right.size(), right.size(),
                secondsPerQuestion * 100, secondsPerQuestion * 1000));
        return dir;
    }

    private static Map<String, Boolean> answers(Object... idAndRight) {
        Map<String, Boolean> m = new java.util.LinkedHashMap<>();
        for (int i = 0; i < idAndRight.length; i += 2) {
            m.put((String) idAndRight[i], (Boolean) idAndRight[i + 1]);
        }
        return m;
    }

    @Test
    void eachDatasetGetsAPageWithItsMethodsPairedDifferencesScatterAndDisagreementsLinkingBothTranscripts()
            throws IOException {
        Path base = run("standard-nq", "standard-rag", "nq", 1.5,
                answers("q1", true, "q2", false, "q3", true, "../x/<q4>", true));
        Path madam = run("madam-nq", "madam-rag", "nq", 4.0,
                answers("q1", true, "q2", true, "q3", false, "../x/<q4>", false));
        Path hotpot = run("court-hotpot", "court", "hotpotqa", 2.0, answers("h1", true));
        Path index = HtmlReport.write(List.of(base, madam, hotpot), tmp.resolve("report"));
        Path out = index.getParent();

        String html = Files.readString(index);
        assertThat(html).contains("href=\"dataset-nq.html\"", "href=\"dataset-hotpotqa.html\"");
        String nq = Files.readString(out.resolve("dataset-nq.html"));
        String hp = Files.readString(out.resolve("dataset-hotpotqa.html"));
        assertThat(nq).contains("standard-nq", "madam-nq").doesNotContain("court-hotpot");
        assertThat(hp).contains("court-hotpot").doesNotContain("madam-nq");

        // methods with 95% intervals: standard-rag 3 of 4 right, madam-rag 2 of 4
        assertThat(nq).contains("0.750 [", "0.500 [", "n&#x3D;4");
        // paired difference madam - standard: -0.25 over 4 questions, better on 1 (q2), worse on 2
        assertThat(nq).contains("Paired differences against standard-nq", "-0.250");
        assertThat(nq).containsPattern("<td class=\"num\">4</td><td class=\"num\">1</td><td class=\"num\">2</td>");

        // the disagreements are exactly q2, q3 and the hostile id; q1 (both right) is not one
        List<String> rows = disagreementIds(nq);
        assertThat(rows).containsExactly("q2", "q3", "../x/&lt;q4&gt;");
        assertThat(nq).contains("3 question(s) on which the runs");
        // each cell links to that run's transcript, and the linked pages exist
        Matcher links = Pattern.compile("href=\"((?:standard|madam)-nq/q/[^\"]+)\"").matcher(nq);
        List<String> hrefs = new ArrayList<>();
        while (links.find()) {
            hrefs.add(links.group(1));
        }
        assertThat(hrefs).contains("standard-nq/q/q2.html", "madam-nq/q/q2.html", "standard-nq/q/q3.html");
        assertThat(hrefs).anyMatch(h -> h.startsWith("madam-nq/q/___x__q4_-"));
        for (String h : hrefs) {
            assertThat(out.resolve(h)).as(h).isRegularFile();
            assertThat(out.resolve(h).normalize()).startsWith(out);
        }

        // accuracy against cost: one scatter against seconds, one against tokens, valid PNGs
        for (String png : List.of("dataset-nq-seconds.png", "dataset-nq-tokens.png")) {
            assertThat(nq).contains("<img src=\"" + png + "\"");
            BufferedImage image = ImageIO.read(out.resolve(png).toFile());
            assertThat(image).as(png).isNotNull();
            assertThat(image.getWidth()).isEqualTo(Charts.WIDTH);
        }
        // one run: nothing to disagree with, no paired table
        assertThat(hp).doesNotContain("Questions the runs disagree on", "Paired differences");
    }

    @Test
    void aPageOfRunsOfDifferentSizesOrQuestionSetsSaysSoPlainlyAndRunsOfTheSameQuestionsSayNothing()
            throws IOException {
        Path ten = run("cot-nq", "cot", "nq", 1.0, answers("q1", true, "q2", false, "q3", true));
        Path six = run("march-nq", "march", "nq", 1.0, answers("q1", true, "q2", true));
        Path other = run("madam-nq", "madam-rag", "nq", 1.0, answers("q1", true, "q2", false, "q9", true));
        Path same = run("court-nq", "court", "nq", 1.0, answers("q3", false, "q2", true, "q1", false));

        Path out = HtmlReport.write(List.of(ten, six), tmp.resolve("sizes")).getParent();
        String note = "These runs are of different sizes (cot-nq: 3, march-nq: 2 questions; 2 answered by all): their"
                + " figures are not over the same questions";
        assertThat(Files.readString(out.resolve("dataset-nq.html"))).contains(note);
        assertThat(Files.readString(out.resolve("index.html"))).contains("nq: " + note);

        // the same count of different questions
        String sets = Files.readString(HtmlReport.write(List.of(ten, other), tmp.resolve("sets")).getParent()
                .resolve("dataset-nq.html"));
        assertThat(sets).contains("These runs answered different questions (3 each; 2 answered by all)");

        // the same questions, in another order: no note
        Path alike = HtmlReport.write(List.of(ten, same), tmp.resolve("same")).getParent();
        assertThat(Files.readString(alike.resolve("dataset-nq.html"))).doesNotContain("size-note");
        assertThat(Files.readString(alike.resolve("index.html"))).doesNotContain("size-note");
    }

    @Test
    void aPairedDifferenceWithoutExampleQuestionsSaysNoneNeverAnEmptyList() throws IOException {
        Path base = run("standard-nq", "standard-rag", "nq", 1.5, answers("q1", true, "q2", false));
        Path same = run("same-nq", "cot", "nq", 1.5, answers("q1", true, "q2", false));
        Path worse = run("worse-nq", "march", "nq", 1.5, answers("q1", false, "q2", false));
        Path out = HtmlReport.write(List.of(base, same, worse), tmp.resolve("report"), base).getParent();
        String nq = Files.readString(out.resolve("dataset-nq.html"));
        String table = nq.substring(nq.indexOf("Paired differences against"));
        table = table.substring(0, table.indexOf("</table>"));
        List<String> cells = new ArrayList<>();
        Matcher last = Pattern.compile("<td>([^\\n]*)</td>\\n</tr>").matcher(table);
        while (last.find()) {
            cells.add(last.group(1));
        }
        assertThat(cells).hasSize(2).allSatisfy(c -> assertThat(c).isNotBlank());
        assertThat(cells.get(0)).isEqualTo("<span class=\"muted\">none</span>"); // same answers: no example either way
        assertThat(cells.get(1)).contains("- q1").doesNotContain("none", "+ ");

        // compare's text names only the side that has questions
        List<PairedComparison.Difference> diffs = PairedComparison.against(RunDir.load(base),
                List.of(RunDir.load(same), RunDir.load(worse)), 1000, 1);
        String text = PairedComparison.text("standard-nq", diffs);
        assertThat(text).contains("e.g. worse on q1").doesNotContain("better on ;", "better on \n", "e.g. \n", "e.g. ;");
        assertThat(text.lines().filter(l -> l.contains("same-nq"))).singleElement().asString().doesNotContain("e.g.");
    }

    @Test
    void theChosenBaselineIsWhatTheOthersAreComparedWithAndIsAddedWhenMissing() throws IOException {
        Path base = run("standard-nq", "standard-rag", "nq", 1.5, answers("q1", true, "q2", false));
        Path madam = run("madam-nq", "madam-rag", "nq", 4.0, answers("q1", true, "q2", true));
        Path index = HtmlReport.write(List.of(base), tmp.resolve("report"), madam);
        String nq = Files.readString(index.getParent().resolve("dataset-nq.html"));
        assertThat(nq).contains("Paired differences against madam-nq", "-0.500");
        assertThat(index.getParent().resolve("madam-nq/index.html")).isRegularFile();
    }

    @Test
    void aLongDisagreementListIsCutAndSaysHowManyAreLeftOut() throws IOException {
        int n = DatasetPage.MAX_DISAGREEMENTS + 7;
        Map<String, Boolean> a = new java.util.LinkedHashMap<>();
        Map<String, Boolean> b = new java.util.LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            a.put("q" + i, true);
            b.put("q" + i, false);
        }
        a.put("same", true);
        b.put("same", true);
        Path index = HtmlReport.write(List.of(run("a", "no-rag", "nq", 1, a), run("b", "cot", "nq", 1, b)),
                tmp.resolve("report"));
        String nq = Files.readString(index.getParent().resolve("dataset-nq.html"));
        assertThat(disagreementIds(nq)).hasSize(DatasetPage.MAX_DISAGREEMENTS).doesNotContain("same");
        assertThat(nq).contains(n + " question(s) on which", "The first " + DatasetPage.MAX_DISAGREEMENTS
                + " are shown; 7 more are left out.");
    }

    @Test
    void aHugeRunPageListsTheFirstQuestionsAndWritesTheTranscriptsThePagesLinkBeyondThem() throws IOException {
        int n = HtmlReport.MAX_LISTED + 20;
        Map<String, Boolean> a = new java.util.LinkedHashMap<>();
        Map<String, Boolean> b = new java.util.LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            a.put("q" + i, true);
            b.put("q" + i, i != n - 5); // the runs disagree on one question only, past the listed ones
        }
        Path index = HtmlReport.write(List.of(run("a", "no-rag", "nq", 1, a), run("b", "cot", "nq", 1, b)),
                tmp.resolve("report"));
        Path out = index.getParent();

        String page = Files.readString(out.resolve("b/index.html"));
        assertThat(page.split("<a href=\"q/", -1)).hasSize(HtmlReport.MAX_LISTED + 1);
        assertThat(page).contains("The first " + HtmlReport.MAX_LISTED + " of " + n + " answered questions are listed",
                "the other 20 are left out of this page");
        String last = "q" + (n - 5);
        assertThat(page).doesNotContain("<a href=\"q/" + last + ".html\"");
        // the dataset page links both runs' transcripts of the disagreement, so they are written though not listed
        assertThat(disagreementIds(Files.readString(out.resolve("dataset-nq.html")))).containsExactly(last);
        for (String run : List.of("a", "b")) {
            assertThat(out.resolve(run + "/q/" + last + ".html")).isRegularFile();
            try (var files = Files.list(out.resolve(run + "/q"))) {
                assertThat(files.count()).isEqualTo(HtmlReport.MAX_LISTED + 1);
            }
        }
    }

    private static List<String> disagreementIds(String html) {
        String section = html.substring(html.indexOf("Questions the runs disagree on"));
        Matcher m = Pattern.compile("<tr><td><b>([^<]*)</b>").matcher(section);
        List<String> ids = new ArrayList<>();
        while (m.find()) {
            ids.add(m.group(1));
        }
        return ids;
    }
}
