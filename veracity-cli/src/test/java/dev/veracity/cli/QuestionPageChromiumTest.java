package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.eval.report.HeadlessChromium;
import dev.veracity.eval.report.HtmlReport;
import dev.veracity.eval.results.ResultLine;
import dev.veracity.eval.results.ResultsJson;
import dev.veracity.methods.court.CourtDetail;
import dev.veracity.methods.madam.MadamDetail;
import dev.veracity.methods.march.MarchDetail;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A MARCH, a Reasoning Court and a MADAM-RAG question page, from demo runs on the simulator, opened in headless
 * Chromium: the text Chromium renders holds MARCH's claims and verdict, both Court trajectories and the judge's choice,
 * and MADAM-RAG's rounds with the answers the aggregator kept; a screenshot of each is taken. Skipped where
 * {@code /usr/bin/chromium} is absent (CI installs it). The report and the screenshots stay under
 * {@code target/question-pages-chromium} to be looked at.
 */
class QuestionPageChromiumTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    @Test
    void marchCourtAndMadamPagesShowTheVerdictTheTrajectoriesAndTheKeptAnswers() throws Exception {
        HeadlessChromium.assumeInstalled();
        Path out = Path.of("target", "question-pages-chromium").toAbsolutePath();
        deleteTree(out);
        Path demo = tmp.resolve("demo");
        CliRun.Result r = CliRun.run("demo", "--method", "march,court,madam-rag", "--limit", "2", "--latency-ms", "0",
                "--out", demo.toString());
        assertThat(r.code()).as(r.err()).isZero();
        HtmlReport.write(List.of(demo.resolve("march"), demo.resolve("court"), demo.resolve("madam-rag")),
                out.resolve("report"));

        // MARCH: every claim, each Checker's answer and the verdict
        ResultLine march = first(demo.resolve("march"));
        MarchDetail m = MarchDetail.KEY.read(ResultsJson.tree(march.details())).orElseThrow();
        String marchText = text(page(out, "march", march), out.resolve("march.png"));
        assertThat(marchText).contains("MARCH: the response's claims, checked against the documents", "Verdict: ");
        assertThat(marchText).contains(switch (m.verdict()) {
            case "passed" -> "Verdict: passed: the Checker confirmed all";
            case "failed" -> "Verdict: failed: " + m.faults() + " of " + m.claims().size();
            default -> "Verdict: " + m.verdict().replace('_', ' ');
        });
        assertThat(m.claims()).isNotEmpty().allSatisfy(c -> {
            assertThat(marchText).contains(c.question(), c.claimedAnswer(), c.verdict());
            c.checkerAnswers().stream().filter(a -> !a.isBlank()).forEach(a -> assertThat(marchText).contains(a));
        });

        // Reasoning Court: both trajectories, step by step, both answers and the judge's choice
        ResultLine court = first(demo.resolve("court"));
        CourtDetail c = CourtDetail.KEY.read(ResultsJson.tree(court.details())).orElseThrow();
        String courtText = text(page(out, "court", court), out.resolve("court.png"));
        assertThat(courtText).contains("Trajectory of agent-1", "Trajectory of agent-2", "The judge ");
        assertThat(c.trajectories()).hasSize(2).allSatisfy(t -> {
            assertThat(courtText).contains(t.answer());
            t.steps().forEach(s -> assertThat(courtText).contains(s.thought(), s.action()));
        });
        assertThat(courtText).contains(switch (c.judge().choice()) {
            case SELECTED -> "The judge selected " + c.judge().agent() + "'s answer: '" + c.judge().answer() + "'";
            case SYNTHESISED -> "The judge synthesised an answer of its own";
            case FALLBACK -> "the agents' majority answer was taken";
        });
        // the Court's section shows the candidates with the judge's choice: the built-in candidates table is left out
        assertThat(courtText).doesNotContain("Candidates the method chose among");

        // MADAM-RAG: the rounds and the answers the aggregator kept (and dropped)
        ResultLine madam = first(demo.resolve("madam-rag"));
        MadamDetail d = MadamDetail.KEY.read(ResultsJson.tree(madam.details())).orElseThrow();
        String madamText = text(page(out, "madam-rag", madam), out.resolve("madam.png"));
        assertThat(madamText).contains("round 1", "What the aggregator kept and dropped", "Kept: " + String.join("; ", d.kept()));
        assertThat(d.kept()).isNotEmpty();
        d.rounds().getFirst().answers().forEach(a -> assertThat(madamText).contains(a));
        d.dropped().forEach(a -> assertThat(madamText).contains(a));

        for (String shot : List.of("march.png", "court.png", "madam.png")) {
            Path png = out.resolve(shot);
            System.out.println("question page screenshot: " + png);
            BufferedImage image = ImageIO.read(png.toFile());
            assertThat(image).as(shot).isNotNull();
            assertThat(image.getWidth()).isGreaterThanOrEqualTo(1000);
        }
    }

    private static ResultLine first(Path run) throws IOException {
        String line = Files.readAllLines(run.resolve("results.jsonl")).stream().filter(l -> !l.isBlank()).findFirst()
                .orElseThrow();
        return JSON.readValue(line, ResultLine.class);
    }

    /** The question's page: the one of the run's pages headed with its id. */
    private static Path page(Path out, String run, ResultLine line) throws IOException {
        try (var pages = Files.list(out.resolve("report").resolve(run).resolve("q"))) {
            return pages.filter(p -> {
                try {
                    return Files.readString(p).contains("<h1>Question " + line.id() + "</h1>");
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).findFirst().orElseThrow(() -> new AssertionError("no page for question " + line.id()));
        }
    }

    /** The page's text as Chromium renders it ({@link HeadlessChromium#text}), and a screenshot of it into {@code png}. */
    private String text(Path page, Path png) throws IOException {
        assertThat(page).exists();
        try (HeadlessChromium c = HeadlessChromium.start(Files.createTempDirectory(tmp, "chromium-profile"), 1280, 2400)) {
            c.open(page);
            c.screenshot(png);
            assertThat(c.log()).as("the page's script errors").noneMatch(l -> l.startsWith("error:"));
            return c.text();
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
