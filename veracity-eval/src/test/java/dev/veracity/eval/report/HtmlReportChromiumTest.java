package dev.veracity.eval.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Renders the report in headless Chromium and checks the screenshots are real pages. Skipped where
 * {@code /usr/bin/chromium} is absent (CI installs it). The report and screenshots stay under
 * {@code target/report-chromium} so they can be looked at.
 */
class HtmlReportChromiumTest {


    @TempDir
    Path tmp;

    @Test
    void indexAndTranscriptRenderInChromium() throws Exception {
        assumeChromium();
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

    // ---------------------------------------------------------------- interactive pages, driven as a user would

    /** Three runs: two methods on nq-open of different sizes, one on hotpotqa; lines written out of dataset order. */
    private List<Path> scriptedRuns() throws IOException {
        boolean[] ten = {true, false, true, false, false, true, true, false, true, false};
        Path a = ReportFixtures.scripted(tmp, "cot-nq", "cot", "nq-open", ten, new int[] {3, 0, 7, 1, 9, 2, 5, 8, 4, 6},
                Set.of(2, 7), Set.of(5));
        boolean[] six = {true, true, false, true, true, true};
        Path b = ReportFixtures.scripted(tmp, "march-nq", "march", "nq-open", six, new int[] {5, 4, 3, 2, 1, 0},
                Set.of(), Set.of());
        boolean[] four = {true, false, false, true};
        Path c = ReportFixtures.scripted(tmp, "cot-hotpot", "cot", "hotpotqa", four, new int[] {1, 0, 3, 2},
                Set.of(0), Set.of());
        return List.of(a, b, c);
    }

    private static List<String> visible(HeadlessChromium c, String table, int column) {
        List<String> out = new ArrayList<>();
        c.eval("[...document.querySelectorAll('#" + table + " tbody tr')].filter(r => !r.hidden)"
                + ".map(r => r.cells[" + column + "]).map(d => d.getAttribute('data-value')"
                + " ?? (d.querySelector('a') ?? d).textContent.trim())")
                .forEach(n -> out.add(n.asText()));
        return out;
    }

    private static void choose(HeadlessChromium c, String selector, String value) {
        c.eval("(() => { const s = document.querySelector(" + quote(selector) + "); s.value = " + quote(value)
                + "; s.dispatchEvent(new Event('change')); })()");
    }

    private static String quote(String s) {
        return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }

    @Test
    void theRunPageListsQuestionsInDatasetOrderAndSortsAndFiltersInTheBrowser() throws Exception {
        assumeChromium();
        Path out = Path.of("target", "report-chromium", "interactive").toAbsolutePath();
        deleteTree(out);
        HtmlReport.write(scriptedRuns(), out);
        try (HeadlessChromium c = HeadlessChromium.start(tmp.resolve("profile-run"), 1280, 900)) {
            c.open(out.resolve("cot-nq/index.html"));
            // the dataset's order, not the order the questions finished in; the failed q5 among them
            assertThat(visible(c, "questions", 1)).containsExactly("q0", "q1", "q2", "q3", "q4", "q5", "q6", "q7",
                    "q8", "q9");
            assertThat(c.eval("document.querySelector('#provenance').getBoundingClientRect().top"
                    + " < document.querySelector('#questions').getBoundingClientRect().top").asBoolean())
                    .as("How this run was made is above the questions").isTrue();

            c.click("#questions thead th:nth-child(6)"); // em, ascending; the failed question (no score) last
            assertThat(visible(c, "questions", 5)).containsExactly("0.0", "0.0", "0.0", "0.0", "0.0", "1.0", "1.0",
                    "1.0", "1.0", "");
            assertThat(visible(c, "questions", 1).subList(0, 5)).containsExactly("q1", "q3", "q4", "q7", "q9");
            c.click("#questions thead th:nth-child(6)"); // again: descending
            assertThat(visible(c, "questions", 5)).containsExactly("1.0", "1.0", "1.0", "1.0", "0.0", "0.0", "0.0",
                    "0.0", "0.0", "");
            c.click("#questions thead th:nth-child(1)"); // back to the dataset's order by #
            assertThat(visible(c, "questions", 1)).startsWith("q0", "q1", "q2");

            choose(c, ".filters[data-for=questions] select[data-attr=score]", "wrong");
            assertThat(visible(c, "questions", 1)).containsExactly("q1", "q3", "q4", "q7", "q9");
            assertThat(c.eval("document.querySelector('.filters[data-for=questions] .shown').textContent").asText())
                    .isEqualTo("5 of 10 row(s) shown");
            choose(c, ".filters[data-for=questions] select[data-attr=score]", "");
            c.click(".filters[data-for=questions] input[data-attr=parse]");
            assertThat(visible(c, "questions", 1)).containsExactly("q2", "q7");
            c.click(".filters[data-for=questions] input[data-attr=parse]");
            c.click(".filters[data-for=questions] input[data-attr=failed]");
            assertThat(visible(c, "questions", 1)).containsExactly("q5");
            c.click(".filters[data-for=questions] input[data-attr=failed]");
            c.eval("(() => { const t = document.querySelector('.filters[data-for=questions] input[data-text]');"
                    + " t.value = 'question 8'; t.dispatchEvent(new Event('input')); })()");
            assertThat(visible(c, "questions", 1)).containsExactly("q8");
            assertThat(c.log()).noneMatch(l -> l.startsWith("error:"));
            c.eval("(() => { const t = document.querySelector('.filters[data-for=questions] input[data-text]');"
                    + " t.value = ''; t.dispatchEvent(new Event('input')); })()");
            look(c.screenshot(out.resolve("run-page.png")));

            // the index: runs filtered by method and sorted by a metric
            c.open(out.resolve("index.html"));
            assertThat(visible(c, "runs", 0)).containsExactly("cot-nq", "march-nq", "cot-hotpot");
            choose(c, ".filters[data-for=runs] select[data-attr=method]", "cot");
            assertThat(visible(c, "runs", 0)).containsExactly("cot-nq", "cot-hotpot");
            choose(c, ".filters[data-for=runs] select[data-attr=method]", "");
            c.click("#runs thead th:nth-child(7)"); // em
            c.click("#runs thead th:nth-child(7)"); // descending
            assertThat(visible(c, "runs", 0)).containsExactly("march-nq", "cot-hotpot", "cot-nq");
            c.click(".filters[data-for=runs] input[data-attr=parse]");
            assertThat(visible(c, "runs", 0)).containsExactly("cot-hotpot", "cot-nq");
        }
    }

    @Test
    void chartsShowEachRunsValueAndIntervalOnHoverWithErrorBarsOneChartPerDatasetAndMetric() throws Exception {
        assumeChromium();
        Path out = Path.of("target", "report-chromium", "charts").toAbsolutePath();
        deleteTree(out);
        HtmlReport.write(scriptedRuns(), out);
        try (HeadlessChromium c = HeadlessChromium.start(tmp.resolve("profile-charts"), 1280, 900)) {
            c.open(out.resolve("index.html"));
            // nq-open's em and f1, hotpotqa's em and f1: never two datasets on one axis
            JsonNode charts = c.eval("[...document.querySelectorAll('canvas[data-chart]')].map(k => {"
                    + " const ch = Chart.getChart(k); return {type: ch.config.type, labels: ch.data.labels,"
                    + " title: k.closest('figure').querySelector('figcaption').textContent}; })");
            assertThat(charts).hasSize(4);
            List<String> titles = new ArrayList<>();
            charts.forEach(ch -> titles.add(ch.get("title").asText()));
            assertThat(titles).containsExactly("nq-open: em", "nq-open: f1", "hotpotqa: em", "hotpotqa: f1");
            charts.forEach(ch -> assertThat(ch.get("type").asText()).isEqualTo("barWithErrorBars"));
            assertThat(charts.get(0).get("labels").toString()).isEqualTo("[\"cot-nq\",\"march-nq\"]");
            assertThat(charts.get(2).get("labels").toString()).isEqualTo("[\"cot-hotpot\"]");

            // cot-nq's em bar: its error bar spans the 95% interval around the mean
            c.eval("document.querySelector('canvas[data-chart=\"0\"]').scrollIntoView({block: 'center'})");
            JsonNode bar = c.eval("(() => { const k = document.querySelector('canvas[data-chart=\"0\"]');"
                    + " const ch = Chart.getChart(k); const e = ch.getDatasetMeta(0).data[0];"
                    + " const r = k.getBoundingClientRect();"
                    + " return {x: e.x, base: e.base, y: e.y, xMin: e.xMin, xMax: e.xMax, left: r.left, top: r.top,"
                    + " point: ch.data.datasets[0].data[0]}; })()");
            assertThat(bar.get("xMin").asDouble()).isLessThan(bar.get("x").asDouble());
            assertThat(bar.get("xMax").asDouble()).isGreaterThan(bar.get("x").asDouble());
            assertThat(bar.at("/point/x").asDouble()).isCloseTo(400.0 / 9, org.assertj.core.api.Assertions.within(1e-9));
            assertThat(bar.at("/point/xMin").asDouble()).isLessThan(bar.at("/point/x").asDouble());

            // hover the bar: the tooltip names the run and says its value, interval and n
            c.hover(bar.get("left").asDouble() + (bar.get("x").asDouble() + bar.get("base").asDouble()) / 2,
                    bar.get("top").asDouble() + bar.get("y").asDouble());
            JsonNode tip = c.eval("(() => { const ch = Chart.getChart(document.querySelector('canvas[data-chart=\"0\"]'));"
                    + " return {active: ch.tooltip.getActiveElements().length, opacity: ch.tooltip.opacity,"
                    + " title: ch.tooltip.title, lines: ch.tooltip.body.flatMap(b => b.lines)}; })()");
            assertThat(tip.get("active").asInt()).as(tip.toString()).isEqualTo(1);
            assertThat(tip.get("opacity").asDouble()).isPositive();
            assertThat(tip.get("title").toString()).contains("cot-nq (cot)");
            assertThat(tip.get("lines").get(0).asText())
                    .matches("em: 44\\.4%, 95% interval \\[\\d+\\.\\d%, \\d+\\.\\d%\\], n=9");
            look(c.screenshot(out.resolve("index-hover.png")));

            // the dataset page draws its own metrics the same way, and says its runs are of different sizes
            c.open(out.resolve("dataset-nq-open.html"));
            assertThat(c.eval("[...document.querySelectorAll('canvas[data-chart]')].filter(k => Chart.getChart(k)).length")
                    .asInt()).isEqualTo(2);
            assertThat(c.eval("document.querySelector('.size-note').textContent").asText())
                    .contains("different sizes", "cot-nq: 9", "march-nq: 6");
            look(c.screenshot(out.resolve("dataset-page.png")));
            assertThat(c.log()).noneMatch(l -> l.startsWith("error:"));
        }
    }

    @Test
    void twentyFiveRunsGetTwentyFiveDistinctColoursAndALegendThatFits() throws Exception {
        assumeChromium();
        Path out = Path.of("target", "report-chromium", "twenty-five").toAbsolutePath();
        deleteTree(out);
        List<Path> runs = new ArrayList<>();
        String[] methods = {"standard-rag", "march", "madam-rag", "reasoning-court", "truthrl"};
        for (int i = 0; i < 25; i++) {
            boolean[] right = new boolean[8];
            for (int k = 0; k < right.length; k++) {
                right[k] = (k * 7 + i) % 5 < 2 + i % 3;
            }
            runs.add(ReportFixtures.scripted(tmp, methods[i % 5] + "-on-nq-open-seed-" + i, methods[i % 5], "nq-open",
                    right, new int[] {0, 1, 2, 3, 4, 5, 6, 7}, Set.of(), Set.of()));
        }
        HtmlReport.write(runs, out);
        try (HeadlessChromium c = HeadlessChromium.start(tmp.resolve("profile-25"), 1280, 900)) {
            c.open(out.resolve("index.html"));
            JsonNode legend = c.eval("(() => { const ul = document.querySelector('ul.legend');"
                    + " const items = [...ul.querySelectorAll('li')].map(li => { const b = li.getBoundingClientRect();"
                    + " return {colour: getComputedStyle(li.querySelector('.swatch')).backgroundColor, left: b.left,"
                    + " right: b.right, top: b.top, bottom: b.bottom, text: li.textContent}; });"
                    + " return {items, overflow: ul.scrollWidth - ul.clientWidth, width: document.documentElement.clientWidth}; })()");
            JsonNode items = legend.get("items");
            assertThat(items).hasSize(25);
            Set<String> colours = new HashSet<>();
            items.forEach(i -> colours.add(i.get("colour").asText()));
            assertThat(colours).as("legend colours").hasSize(25);
            // it fits: nothing runs past the page or the list, no two entries overlap, every name is there whole
            assertThat(legend.get("overflow").asInt()).isLessThanOrEqualTo(0);
            double width = legend.get("width").asDouble();
            for (int i = 0; i < 25; i++) {
                JsonNode a = items.get(i);
                assertThat(a.get("left").asDouble()).isGreaterThanOrEqualTo(0);
                assertThat(a.get("right").asDouble()).isLessThanOrEqualTo(width);
                assertThat(a.get("text").asText()).contains("-seed-" + i);
                for (int j = i + 1; j < 25; j++) {
                    JsonNode b = items.get(j);
                    boolean apart = a.get("right").asDouble() <= b.get("left").asDouble()
                            || b.get("right").asDouble() <= a.get("left").asDouble()
                            || a.get("bottom").asDouble() <= b.get("top").asDouble()
                            || b.get("bottom").asDouble() <= a.get("top").asDouble();
                    assertThat(apart).as("legend entries %d and %d overlap", i, j).isTrue();
                }
            }
            // the charts use the legend's colours, and show all 25 runs' names, each with room for its line
            JsonNode chart = c.eval("(() => { const k = document.querySelector('canvas[data-chart=\"0\"]');"
                    + " const ch = Chart.getChart(k); const probe = document.createElement('span');"
                    + " document.body.appendChild(probe);"
                    + " const rgb = ch.data.datasets[0].backgroundColor.map(x => { probe.style.backgroundColor = x;"
                    + " return getComputedStyle(probe).backgroundColor; });"
                    + " return {colours: rgb, ticks: ch.scales.y.ticks.length, height: ch.scales.y.height,"
                    + " canvasRight: k.getBoundingClientRect().right}; })()");
            Set<String> chartColours = new HashSet<>();
            chart.get("colours").forEach(x -> chartColours.add(x.asText()));
            assertThat(chartColours).isEqualTo(colours);
            assertThat(chart.get("ticks").asInt()).isEqualTo(25);
            assertThat(chart.get("height").asDouble() / 25).as("pixels per run's label").isGreaterThanOrEqualTo(14);
            assertThat(chart.get("canvasRight").asDouble()).isLessThanOrEqualTo(width);
            look(c.screenshot(out.resolve("index-25-runs.png")));
        }
    }

    @Test
    void theReportOpensWithNoNetworkAndNoRequestLeavesFileUrls() throws Exception {
        assumeChromium();
        Path out = Path.of("target", "report-chromium", "offline").toAbsolutePath();
        deleteTree(out);
        HtmlReport.write(scriptedRuns(), out);
        try (HeadlessChromium c = HeadlessChromium.start(tmp.resolve("profile-offline"), 1280, 900)) {
            c.offline();
            for (String page : List.of("index.html", "dataset-nq-open.html", "cot-nq/index.html", "cot-nq/q/q0.html")) {
                c.open(out.resolve(page));
                assertThat(c.eval("document.body.textContent.length").asInt()).as(page).isPositive();
            }
            c.open(out.resolve("index.html"));
            assertThat(c.eval("typeof Chart").asText()).isEqualTo("function");
            assertThat(c.eval("[...document.querySelectorAll('canvas[data-chart]')].filter(k => Chart.getChart(k)).length")
                    .asInt()).isEqualTo(4);
            assertThat(c.requests()).isNotEmpty().allMatch(u -> u.startsWith("file://"), "a file:// URL");
            assertThat(c.requests()).anyMatch(u -> u.endsWith("/assets/chart.umd.min.js"));
            assertThat(c.log()).noneMatch(l -> l.startsWith("error:"));
        }
    }

    private static void assumeChromium() {
        HeadlessChromium.assumeInstalled();
    }

    /** A screenshot that is a real page (not blank), printed for a person to look at. */
    private static void look(Path shot) throws IOException {
        System.out.println("report screenshot: " + shot);
        BufferedImage image = ImageIO.read(shot.toFile());
        assertThat(image).as(shot.toString()).isNotNull();
        assertNotBlank(image, shot);
    }

    /** A screenshot of {@code page} in a 1280 x 900 window (the whole page), into {@code png}. */
    private Path screenshot(Path page, Path png) throws IOException {
        try (HeadlessChromium c = HeadlessChromium.start(Files.createTempDirectory(tmp, "chromium-profile"), 1280, 900)) {
            c.open(page);
            return c.screenshot(png);
        }
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
