package dev.veracity.eval.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Renders the report in headless Chromium and checks the screenshots are real pages. Skipped where
 * {@code /usr/bin/chromium} is absent (CI installs it). The report and screenshots stay under
 * {@code target/report-chromium} so they can be looked at.
 */
class HtmlReportChromiumTest {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final long TIMEOUT_SECONDS = 45;

    @TempDir
    Path tmp;

    @Test
    void indexAndTranscriptRenderInChromium() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(CHROMIUM),
                "/usr/bin/chromium is not installed here; CI installs it (apt-get install chromium)");
        Path out = Path.of("target", "report-chromium").toAbsolutePath();
        deleteTree(out);
        Path a = ReportFixtures.run(tmp, "standard-rag-ramdocs", "standard-rag",
                "{\"strict-multi\": 0.35, \"precision\": 0.6, \"recall\": 0.5, \"f1\": 0.52}", true);
        Path b = ReportFixtures.run(tmp, "madam-rag-ramdocs", "madam-rag",
                "{\"strict-multi\": 0.5, \"precision\": 0.7, \"recall\": 0.66, \"f1\": 0.61}", true);
        Path index = HtmlReport.write(List.of(a, b), out.resolve("report"));
        Path transcript = out.resolve("report/standard-rag-ramdocs/q/q1.html");

        Path indexShot = screenshot(index, out.resolve("index.png"));
        Path transcriptShot = screenshot(transcript, out.resolve("transcript-q1.png"));
        System.out.println("report screenshot: " + indexShot);
        System.out.println("report screenshot: " + transcriptShot);

        for (Path shot : List.of(indexShot, transcriptShot)) {
            assertThat(Files.size(shot)).as(shot.toString()).isGreaterThan(10_000);
            BufferedImage image = ImageIO.read(shot.toFile());
            assertThat(image).as(shot.toString()).isNotNull();
            assertThat(image.getWidth()).isGreaterThanOrEqualTo(1000);
            assertNotBlank(image, shot);
        }
    }

    private Path screenshot(Path page, Path png) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory(tmp, "chromium-profile");
        Path log = tmp.resolve(png.getFileName() + ".log");
        List<String> cmd = new ArrayList<>(List.of(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--hide-scrollbars", "--user-data-dir=" + profile, "--screenshot=" + png,
                "--window-size=1280,900", page.toUri().toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError("chromium did not finish in " + TIMEOUT_SECONDS + " s: " + tail(log));
        }
        assertThat(png).as("chromium exit %d: %s", p.exitValue(), tail(log)).exists();
        return png;
    }

    /** Some luminance variance and a handful of colours: text, table rules and charts, not a blank page. */
    private static void assertNotBlank(BufferedImage image, Path shot) {
        Set<Integer> colours = new HashSet<>();
        double sum = 0;
        double sumSq = 0;
        int n = 0;
        for (int y = 0; y < image.getHeight(); y += 3) {
            for (int x = 0; x < image.getWidth(); x += 3) {
                int rgb = image.getRGB(x, y) & 0xffffff;
                colours.add(rgb);
                double lum = 0.299 * (rgb >> 16 & 0xff) + 0.587 * (rgb >> 8 & 0xff) + 0.114 * (rgb & 0xff);
                sum += lum;
                sumSq += lum * lum;
                n++;
            }
        }
        double mean = sum / n;
        double variance = sumSq / n - mean * mean;
        assertThat(variance).as("luminance variance of %s", shot).isGreaterThan(50);
        assertThat(colours.size()).as("distinct colours in %s", shot).isGreaterThan(20);
    }

    private static String tail(Path log) {
        try {
            String s = Files.exists(log) ? Files.readString(log) : "";
            return s.length() > 2000 ? s.substring(s.length() - 2000) : s;
        } catch (IOException e) {
            return "(no log)";
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
