package dev.veracity.eval.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HtmlReportTest {

    @TempDir
    Path tmp;

    private Path report() throws IOException {
        Path a = ReportFixtures.run(tmp, "standard-rag-ramdocs", "standard-rag",
                "{\"strict-multi\": 0.35, \"precision\": 0.6, \"recall\": 0.5, \"f1\": 0.52}", true);
        Path b = ReportFixtures.run(tmp, "madam-rag-ramdocs", "madam-rag",
                "{\"strict-multi\": 0.5, \"f1\": 0.61, \"rounds\": 2.5}", true);
        return HtmlReport.write(List.of(a, b), tmp.resolve("report"));
    }

    @Test
    void indexComparesRunsWithEveryMetricAsAColumn() throws IOException {
        Path index = report();
        assertThat(index).isEqualTo(tmp.resolve("report/index.html"));
        String html = Files.readString(index);
        assertThat(html).contains("standard-rag", "madam-rag", "ramdocs",
                "<th class=\"num\">strict-multi</th>", "<th class=\"num\">precision</th>",
                "<th class=\"num\">recall</th>", "<th class=\"num\">f1</th>", "<th class=\"num\">rounds</th>",
                "35.0%", "52.0%", "61.0%", "2.500", "908.3", "231.5", "230.2",
                "href=\"standard-rag-ramdocs/index.html\"", "href=\"madam-rag-ramdocs/index.html\"",
                "<img src=\"calls.png\"", "<img src=\"tokens.png\"",
                // the metrics are interactive charts, one per dataset and metric, not a PNG mixing them
                "<figcaption>ramdocs: strict-multi</figcaption>", "<figcaption>ramdocs: f1</figcaption>",
                "<script src=\"assets/chart.umd.min.js\"></script>", "<script src=\"assets/report.js\"></script>");
        assertThat(html).doesNotContain("metrics.png");
        assertThat(tmp.resolve("report/metrics.png")).doesNotExist();
        assertThat(html.split("<tr data-method=", -1)).hasSize(3); // two runs
        assertThat(html).doesNotContainPattern("(?i)(src|href)=\"(https?:)?//");
    }

    @Test
    void theRunPageListsQuestionsInTheDatasetsOrderNotTheOrderTheyFinishedIn() throws IOException {
        boolean[] right = {true, false, true, false, true, false};
        Path run = ReportFixtures.scripted(tmp, "cot-nq", "cot", "nq-open", right, new int[] {4, 1, 5, 0, 3, 2},
                java.util.Set.of(), java.util.Set.of(3));
        Path out = HtmlReport.write(List.of(run), tmp.resolve("ordered")).getParent();
        org.jsoup.nodes.Document page = org.jsoup.Jsoup.parse(out.resolve("cot-nq/index.html").toFile());
        List<String> ids = page.select("#questions tbody tr").stream().map(tr -> tr.child(1).text()).toList();
        assertThat(ids).containsExactly("q0", "q1", "q2", "q3", "q4", "q5"); // q3 failed: its row at its place
        assertThat(page.select("#questions tbody tr").stream().map(tr -> tr.child(0).text()).toList())
                .containsExactly("1", "2", "3", "4", "5", "6");
        // a dataset page lists the questions runs disagree on, and a paired difference's examples, in that order too
        boolean[] flipped = {false, true, false, true, false, true};
        Path other = ReportFixtures.scripted(tmp, "march-nq", "march", "nq-open", flipped, new int[] {5, 2, 0, 4, 1, 3},
                java.util.Set.of(), java.util.Set.of());
        Path both = HtmlReport.write(List.of(run, other), tmp.resolve("both")).getParent();
        org.jsoup.nodes.Document ds = org.jsoup.Jsoup.parse(both.resolve("dataset-nq-open.html").toFile());
        assertThat(ds.select("h2:contains(disagree) ~ div table tbody tr td:first-child b").eachText())
                .containsExactly("q0", "q1", "q2", "q4", "q5");
        assertThat(ds.select("span.good").eachText().stream().map(t -> t.replaceAll(" \\(.*", "")).toList())
                .startsWith("+ q1", "+ q5");

        // How this run was made comes first, above the questions
        String html = Files.readString(out.resolve("cot-nq/index.html"));
        assertThat(html.indexOf("How this run was made")).isPositive().isLessThan(html.indexOf("<h2>Questions</h2>"));

        // lines written before they recorded their position keep the file's order
        Path old = Files.createDirectories(tmp.resolve("old"));
        Files.writeString(old.resolve("results.jsonl"), Files.readString(run.resolve("results.jsonl"))
                .replaceAll("\"position\": \\d+, ", ""));
        Files.copy(run.resolve("summary.json"), old.resolve("summary.json"));
        org.jsoup.nodes.Document oldPage = org.jsoup.Jsoup.parse(HtmlReport.write(List.of(old), tmp.resolve("o"))
                .getParent().resolve("old/index.html").toFile());
        assertThat(oldPage.select("#questions tbody tr").stream().map(tr -> tr.child(1).text()).toList())
                .containsExactly("q4", "q1", "q5", "q0", "q2", "q3");
    }

    @Test
    void noPageLoadsAUrlOutsideTheReportAndEveryScriptItLoadsIsInItsAssetsFolder() throws IOException {
        Path out = report().getParent();
        List<Path> pages;
        try (Stream<Path> files = Files.walk(out)) {
            pages = files.filter(f -> f.toString().endsWith(".html")).toList();
        }
        assertThat(pages).hasSizeGreaterThan(4);
        for (Path page : pages) {
            org.jsoup.nodes.Document doc = org.jsoup.Jsoup.parse(page.toFile());
            for (org.jsoup.nodes.Element e : doc.select("[src], [href], link, iframe, object, embed, base")) {
                for (String attr : List.of("src", "href", "data")) {
                    String v = e.attr(attr);
                    assertThat(v).as("%s in %s", e, page).doesNotContainPattern("(?i)^\\s*(https?:|//|ftp:|ws:)");
                }
            }
            assertThat(doc.select("link[rel=stylesheet], base, iframe")).as(page.toString()).isEmpty();
            for (org.jsoup.nodes.Element script : doc.select("script[src]")) {
                Path file = page.getParent().resolve(script.attr("src")).normalize();
                assertThat(file).as(script.toString()).isRegularFile().startsWith(out.resolve("assets"));
            }
            // inline CSS may not fetch either
            assertThat(doc.select("style").html()).doesNotContainPattern("(?i)url\\(|@import");
        }
        // the vendored libraries with their licences, once per report
        assertThat(out.resolve("assets/chart.umd.min.js")).content().startsWith("/*!\n * Chart.js v4.6.1");
        assertThat(out.resolve("assets/chart.js-LICENSE.md")).content().contains("MIT License");
        assertThat(out.resolve("assets/chartjs-chart-error-bars-LICENSE")).content().contains("MIT License");
        String index = Files.readString(out.resolve("index.html"));
        assertThat(index).doesNotContain("Chart.js v4"); // linked, not inlined
    }

    @Test
    void theChartsDataCannotCloseItsScriptElement() throws IOException {
        Path a = ReportFixtures.run(tmp, "x", "</script><script>alert(1)</script>", "{\"f1\": 0.5}", false);
        String html = Files.readString(HtmlReport.write(List.of(a), tmp.resolve("hostile")));
        String data = html.substring(html.indexOf("<script type=\"application/json\" id=\"chart-data\">"));
        data = data.substring(0, data.indexOf("</script>"));
        assertThat(data).contains("\\u003c/script\\u003e\\u003cscript\\u003ealert(1)").doesNotContain("<script>alert");
    }

    @Test
    void anInterruptedRunIsReportedAsPartialInsteadOfFailingTheReport() throws IOException {
        Path done = ReportFixtures.run(tmp, "standard-rag-ramdocs", "standard-rag", "{\"strict-multi\": 0.35}", false);
        Path cut = ReportFixtures.run(tmp, "madam-rag-ramdocs", "madam-rag", "{\"strict-multi\": 0.5}", false);
        Files.delete(cut.resolve("summary.json")); // killed before its summary: run.json and the lines are all it has
        Files.writeString(cut.resolve("run.json"), "{\"method\": \"madam-rag\", \"dataset\": \"ramdocs\", \"metrics\":"
                + " [\"strict-multi\"], \"model\": \"m\"}");
        List<String> told = new java.util.ArrayList<>();
        Path index = HtmlReport.write(List.of(done, cut), tmp.resolve("report"), null, told::add);
        assertThat(told).containsExactly("madam-rag-ramdocs is a partial run, 3 questions answered so far (no"
                + " summary.json: its eval was interrupted or is still running)");
        String html = Files.readString(index);
        assertThat(html).contains("partial: its eval was interrupted or is still running").contains("33.3%"); // 1 of its 3 lines right
        assertThat(html.split("partial: its eval was interrupted or is still running", -1)).hasSize(2); // the finished run is not marked
        assertThat(Files.readString(tmp.resolve("report/madam-rag-ramdocs/index.html")))
                .contains("A partial run (no summary.json: its eval was interrupted or is still running)");
        assertThat(Files.readString(tmp.resolve("report/standard-rag-ramdocs/index.html"))).doesNotContain("partial run");
    }

    @Test
    void chartsAreValidPngs() throws IOException {
        Path out = report().getParent();
        for (String name : List.of("calls.png", "tokens.png", "latency.png")) {
            Path png = out.resolve(name);
            assertThat(png).exists();
            assertThat(Files.size(png)).as(name).isGreaterThan(5_000);
            BufferedImage image = ImageIO.read(png.toFile());
            assertThat(image).as(name).isNotNull();
            assertThat(image.getWidth()).isEqualTo(Charts.WIDTH);
            assertThat(image.getHeight()).isEqualTo(Charts.HEIGHT);
        }
    }

    @Test
    void runPageListsReadableQuestionsAndCountsTheTruncatedLine() throws IOException {
        Path out = report().getParent();
        String html = Files.readString(out.resolve("standard-rag-ramdocs/index.html"));
        assertThat(html).contains("q1", "Capital of France?", "William Shakespeare", "href=\"q/q1.html\"",
                "1 line(s) of results.jsonl could not be read", "Who wrote &lt;i&gt;Hamlet&lt;/i&gt;?");
        assertThat(html).doesNotContain("q4", "Truncated");
        // no script but the report's own assets: the run's text is escaped
        assertThat(html.replaceAll("<script src=\"\\.\\./assets/[a-z.-]+\"></script>", ""))
                .doesNotContainPattern("(?i)<script|<img|<i>");
    }

    @Test
    void transcriptShowsEveryCallEscaped() throws IOException {
        Path out = report().getParent();
        String html = Files.readString(out.resolve("standard-rag-ramdocs/q/q1.html"));
        assertThat(html).contains("&lt;script&gt;alert(1)&lt;/script&gt;", "#1 solver", "#2 aggregator",
                "You answer questions.", "Who wrote &lt;i&gt;Hamlet&lt;/i&gt;? &amp; why", "role-system", "role-user",
                "Shakespeare &quot;quoted&quot;", "latency 150.0 ms", "400 + 30", "cache hit: yes", "cache hit: no",
                "&lt;img src", "onerror", "alert(4)", "javascript:alert(3)", "sample 1");
        assertThat(html.indexOf("#1 solver")).isLessThan(html.indexOf("#2 aggregator"));
        assertThat(html).doesNotContainPattern("(?i)<script|<img|<a href=\"javascript");
        assertThat(html).doesNotContainPattern("(?i)(src|href)=\"(https?:)?//");
    }

    @Test
    void hostileIdsGiveSafeFileNamesInsideTheRunFolder() throws IOException {
        Path out = report().getParent();
        Path qDir = out.resolve("standard-rag-ramdocs/q");
        try (Stream<Path> files = Files.list(qDir)) {
            List<String> names = files.map(p -> p.getFileName().toString()).sorted().toList();
            assertThat(names).hasSize(3).contains("q1.html", "q3.html");
            assertThat(names).allMatch(n -> n.matches("[A-Za-z0-9_-]+\\.html"));
        }
        String safe = HtmlReport.safeName(ReportFixtures.HOSTILE_ID) + ".html";
        String page = Files.readString(qDir.resolve(safe));
        assertThat(page).contains("Capital of France?", "retries 1", "HTTP 503 &lt;html&gt;",
                "../../etc/&lt;b&gt;passwd");
        assertThat(Files.readString(out.resolve("standard-rag-ramdocs/index.html"))).contains("href=\"q/" + safe + "\"");
        String failed = Files.readString(qDir.resolve("q3.html"));
        assertThat(failed).contains("No traced calls for this question", "backend failed: &lt;img");
    }

    @Test
    void missingTracesAreReportedAndOptionalFieldsMayBeAbsent() throws IOException {
        Path dir = ReportFixtures.run(tmp, "no-traces", "march", "{\"accuracy\": 0.7}", false);
        Files.writeString(dir.resolve("summary.json"), "{\"method\": \"march\", \"metrics\": {\"accuracy\": 0.7}}");
        Path index = HtmlReport.write(List.of(dir), tmp.resolve("r2"));
        assertThat(Files.readString(index)).contains("march", "70.0%", "<td class=\"num\">3</td>");
        assertThat(Files.readString(tmp.resolve("r2/no-traces/q/q1.html"))).contains("No traces.db");
        assertThat(dir.resolve("traces.db")).doesNotExist();
    }

    @Test
    void aQuestionPageShowsWhatTheMethodDecidedInItsSectionsEscaped() throws IOException {
        Path dir = ReportFixtures.run(tmp, "court", "court", "{\"em\": 0.5}", false);
        Files.writeString(dir.resolve("results.jsonl"), String.join("\n",
                """
                {"id": "q1", "question": "Who wrote Hamlet?", "prediction": "Shakespeare", "gold": ["Shakespeare"], "metrics": {"em": 1.0}, "candidates": [{"agent": "agent-1", "answer": "Shakespeare", "steps": 3, "forced": false, "note": ""}, {"agent": "agent-2", "answer": "<b>Marlowe</b>", "steps": 7, "forced": true, "note": "looped on one action"}], "signals": {"judge_synthesised": 0.0, "agreement": 0.5}}""",
                """
                {"id": "q2", "question": "Capital of France?", "prediction": "Paris", "gold": ["Paris"], "metrics": {"em": 1.0}}"""));
        HtmlReport.write(List.of(dir), tmp.resolve("r3"));
        String q1 = Files.readString(tmp.resolve("r3/court/q/q1.html"));
        assertThat(q1).contains("<h2>Candidates the method chose among</h2>", "<td>agent-2</td>",
                "<td>&lt;b&gt;Marlowe&lt;/b&gt;</td>", "<td>7</td>", "stopped at the step limit", "looped on one action",
                "Chosen: Shakespeare", "<h2>Method signals</h2>", "<td>agreement</td><td>0.5000</td>",
                "<td>judge_synthesised</td><td>0</td>");
        assertThat(q1).doesNotContain("<b>Marlowe");
        assertThat(q1.indexOf("Candidates the method")).as("built-in sections in their order")
                .isLessThan(q1.indexOf("Method signals"));
        String q2 = Files.readString(tmp.resolve("r3/court/q/q2.html"));
        assertThat(q2).doesNotContain("Candidates the method chose among", "Method signals");
    }

    @Test
    void aSectionsTitledBlocksAreShownInOrderUnderItsTableEscaped() throws IOException {
        Path dir = ReportFixtures.run(tmp, "blocks", "blocks-test", "{\"em\": 0.5}", false);
        Files.writeString(dir.resolve("results.jsonl"), """
                {"id": "q1", "question": "Q?", "prediction": "<i>p</i>", "gold": ["first", "<script>x()</script>"], "metrics": {"em": 1.0}}
                """);
        HtmlReport.write(List.of(dir), tmp.resolve("r5"));
        String q1 = Files.readString(tmp.resolve("r5/blocks/q/q1.html"));
        assertThat(q1).contains("<h2>Blocks test</h2>", "<td>&lt;i&gt;p&lt;/i&gt;</td>", "<h3>Block of first</h3>",
                "<td>first</td>", "under first", "<h3>Block of &lt;script&gt;x()&lt;/script&gt;</h3>", "section note")
                .doesNotContain("<script>x()");
        assertThat(q1.indexOf("<td>&lt;i&gt;p&lt;/i&gt;</td>")).as("the table, the blocks in order, the notes")
                .isLessThan(q1.indexOf("Block of first")).isLessThan(q1.indexOf("Block of &lt;script"));
        assertThat(q1.indexOf("Block of &lt;script")).isLessThan(q1.indexOf("section note"));
    }

    @Test
    void aQuestionPageShowsTheRetrievedPassagesWithTheirScoresAndWhetherTheAnswerIsInThem() throws IOException {
        Path dir = ReportFixtures.run(tmp, "indexed", "standard-rag", "{\"em\": 0.5}", false);
        Files.writeString(dir.resolve("results.jsonl"), String.join("\n",
                """
                {"id": "q1", "question": "Who wrote Hamlet?", "prediction": "Shakespeare", "gold": ["Shakespeare"], "metrics": {"em": 1.0}, "retrieval": {"source": "index", "ids": ["hamlet-3", "<b>x</b>"], "scores": [12.5, 3.25], "ms": 0.84, "answer_found": true}}""",
                """
                {"id": "q2", "question": "Capital of France?", "prediction": "Lyon", "gold": ["Paris"], "metrics": {"em": 0.0}, "retrieval": {"source": "dataset", "documents": 4, "answer_found": false}}"""));
        HtmlReport.write(List.of(dir), tmp.resolve("r6"));
        String q1 = Files.readString(tmp.resolve("r6/indexed/q/q1.html"));
        assertThat(q1).contains("<h2>Retrieved passages</h2>", "<td>1</td><td>hamlet-3</td><td>12.50</td>",
                "<td>2</td><td>&lt;b&gt;x&lt;/b&gt;</td><td>3.250</td>", "2 passages retrieved from the index in 0.8400 ms.",
                "A gold answer is in these documents.");
        String q2 = Files.readString(tmp.resolve("r6/indexed/q/q2.html"));
        assertThat(q2).contains("The dataset&#39;s own documents (4), no retrieval.", "No gold answer is in these documents.")
                .doesNotContain("<th>score</th>");
    }

    @Test
    void aSectionWhoseRowDoesNotFitItsColumnsIsRefusedWhereItIsMade() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new QuestionSection.Section("t", List.of("a", "b"),
                List.of(List.of("only one")), List.of())).hasMessageContaining("a row of 1 cells under 2 columns");
    }

    @Test
    void safeNamesAreStableAndDistinct() {
        assertThat(HtmlReport.safeName("abc-1_2")).isEqualTo("abc-1_2");
        assertThat(HtmlReport.safeName("a/b")).isNotEqualTo(HtmlReport.safeName("a_b")).matches("[A-Za-z0-9_-]+");
        assertThat(HtmlReport.safeName("..")).matches("[A-Za-z0-9_-]+");
        assertThat(HtmlReport.safeName("")).isNotEmpty();
        assertThat(HtmlReport.safeName("x".repeat(500)).length()).isLessThan(100);
    }

    @Test
    void table4sRoleRowsShowEachRolesModelSeconds() throws IOException {
        // agent-1's calls came from the cache (a lookup's 0.002 s as run), its requests took 1.1 s a question when made
        Path dir = Files.createDirectories(tmp.resolve("roles"));
        Files.writeString(dir.resolve("summary.json"), """
                {"method": "court", "dataset": "hotpotqa", "n": 1, "metrics": {"em": 1.0}, "calls_per_question": 3.0,
                 "wall_ms_per_question": 5.0, "model_ms_per_question": 1400.0, "questions_at_once": 1,
                 "roles": {"agent-1": {"calls_per_question": 2.0, "samples_per_question": 2.0,
                 "seconds_per_question": 0.002, "model_seconds_per_question": 1.1},
                 "judge": {"calls_per_question": 1.0, "samples_per_question": 1.0, "seconds_per_question": 0.003}}}
                """);
        Files.writeString(dir.resolve("results.jsonl"), "{\"id\": \"a\", \"prediction\": \"x\", \"gold\": [\"x\"]}\n");
        assertThat(HtmlReport.roles(dev.veracity.eval.results.ResultsJson.summary(
                dir.resolve("summary.json")))).extracting(m -> m.get("modelSeconds")).containsExactly("1.10", "n/a");
        HtmlReport.write(List.of(dir), tmp.resolve("roles-out"));
        String html = Files.readString(tmp.resolve("roles-out/index.html"));
        assertThat(html).containsPattern("<td>agent-1</td><td class=\"num\">2.00</td><td class=\"num\">2.00</td>"
                + "<td class=\"num\">0.00</td><td></td><td class=\"num\">1.10</td></tr>")
                .containsPattern("<td>judge</td>.*<td class=\"num\">n/a</td></tr>");
    }

    @Test
    void aResumedRunShowsEachQuestionsCallsFromTheInvocationThatAnsweredIt() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("resumed"));
        Files.writeString(dir.resolve("summary.json"), "{\"method\": \"m\", \"trace_run\": \"second\", \"metrics\": {}}");
        Files.writeString(dir.resolve("results.jsonl"),
                "{\"id\": \"a\", \"prediction\": \"x\", \"trace_run\": \"first\"}\n"
                        + "{\"id\": \"b\", \"prediction\": \"y\", \"trace_run\": \"second\"}\n");
        try (dev.veracity.trace.TraceStore store = dev.veracity.trace.TraceStore.open(dir.resolve("traces.db"))) {
            for (String[] call : new String[][] {{"first", "a", "answer of the killed run"}, {"second", "b", "answer after resuming"}}) {
                store.record(new dev.veracity.trace.CallRecord(call[1], dev.veracity.trace.CallContext.of(call[0], call[1], "m")
                        .role("answerer"), "sim", "m", "p", "{}", List.of(call[2]), List.of("STOP"), 1, 1, 1, 0, 0, 0, 0, 1,
                        2, 3, false, 1, 0, null));
            }
        }
        HtmlReport.write(List.of(dir), tmp.resolve("out"));

        String a = Files.readString(tmp.resolve("out/resumed/q/a.html"));
        String b = Files.readString(tmp.resolve("out/resumed/q/b.html"));
        assertThat(a).contains("answer of the killed run").doesNotContain("No traced calls");
        assertThat(b).contains("answer after resuming");
    }

    @Test
    void chartsWithoutDataAreLeftOutNotDrawnAsEmptyAxes() throws IOException {
        // No judge, no signals, no latency measured (all 0), no tokens; one metric over no question.
        Path dir = Files.createDirectories(tmp.resolve("bare"));
        Files.writeString(dir.resolve("summary.json"), """
                {"method": "no-rag", "dataset": "nq-open", "n": 2, "metrics": {"nq-em": 0.5, "truthfulness": null},
                 "metrics_n": {"nq-em": 2, "truthfulness": 0}, "calls_per_question": 1.0,
                 "wall_ms_per_question": 0.0, "critical_path_ms_per_question": 0.0, "parse_failures": 0}
                """);
        Files.writeString(dir.resolve("results.jsonl"), """
                {"id": "a", "prediction": "Paris", "gold": ["Paris"], "metrics": {"nq-em": 1.0}, "calls": 1, "wall_ms": 0.0}
                {"id": "b", "prediction": "Milan", "gold": ["Rome"], "metrics": {"nq-em": 0.0}, "calls": 1, "wall_ms": 0.0}
                """);
        Path unparsed = Files.createDirectories(tmp.resolve("unparsed"));
        Files.writeString(unparsed.resolve("summary.json"), """
                {"method": "cot", "dataset": "nq-open", "n": 1, "metrics": {"nq-em": 0.0}, "metrics_n": {"nq-em": 1},
                 "judge": {"name": "crag", "accuracy": null, "n": 1, "parsed": 0, "correct": 0, "incorrect": 0,
                           "unparseable": 1}}
                """);
        Path out = tmp.resolve("r3");
        String html = Files.readString(HtmlReport.write(List.of(dir, unparsed), out));
        for (String name : List.of("latency.png", "tokens.png", "judge.png", "signals.png")) {
            assertThat(out.resolve(name)).as(name).doesNotExist();
            assertThat(html).doesNotContain("src=\"" + name + "\"");
        }
        assertThat(out.resolve("calls.png")).exists();
        assertThat(html).contains("<img src=\"calls.png\"", "<th class=\"num\">truthfulness</th>",
                "<td class=\"num\">n/a</td>", "<figcaption>nq-open: nq-em</figcaption>");
        assertThat(html.split("<img ", -1)).hasSize(2);

        // Nothing at all to chart: no charts section.
        Path none = Files.createDirectories(tmp.resolve("none"));
        Files.writeString(none.resolve("summary.json"), """
                {"method": "cot", "dataset": "nq-open", "n": 0, "metrics": {"nq-em": null}, "metrics_n": {"nq-em": 0},
                 "calls_per_question": 0.0, "prompt_tokens_per_question": 0.0, "completion_tokens_per_question": 0.0,
                 "wall_ms_per_question": 0.0, "critical_path_ms_per_question": 0.0, "parse_failures": 0}
                """);
        Path out2 = tmp.resolve("r4");
        String empty = Files.readString(HtmlReport.write(List.of(none), out2));
        assertThat(empty).doesNotContain("<img ").doesNotContain("<h2>Charts</h2>").doesNotContain("data-chart");
        try (Stream<Path> files = Files.list(out2)) {
            assertThat(files.filter(f -> f.toString().endsWith(".png"))).isEmpty();
        }
    }

    @Test
    void judgeAndSignalChartsAppearWhenThereIsData() throws IOException {
        Path dir = ReportFixtures.run(tmp, "judged", "standard-rag", "{\"em\": 0.5}", false);
        Files.writeString(dir.resolve("summary.json"), """
                {"method": "standard-rag", "metrics": {"em": 0.5}, "judge": {"accuracy": 0.75, "parsed": 4},
                 "signals": {"rounds": 2.5, "agreement": 0.8}}
                """);
        Path out = tmp.resolve("r5");
        String html = Files.readString(HtmlReport.write(List.of(dir), out));
        assertThat(out.resolve("judge.png")).exists();
        assertThat(out.resolve("signals.png")).exists();
        assertThat(html).contains("<img src=\"judge.png\"", "<img src=\"signals.png\"");
    }

    @Test
    void runsAtSeveralKGetTheMajorityAtKChartOthersDoNot() throws IOException {
        List<Path> dirs = new java.util.ArrayList<>();
        for (int k : new int[] {1, 4, 16}) {
            Path d = ReportFixtures.run(tmp, "k" + k, "truthrl", "{\"em\": 0.5}", false);
            Files.writeString(d.resolve("summary.json"), """
                    {"method": "truthrl", "dataset": "crag", "metrics": {"truthfulness-answer": 0.1,
                     "truthfulness-answer.accuracy": %s, "truthfulness-answer.abstention": 0.2,
                     "truthfulness-answer.hallucination": 0.3}, "config": {"method_options": {"samples": "%d"}}}
                    """.formatted(0.3 + k / 100.0, k));
            dirs.add(d);
        }
        Path out = tmp.resolve("mk");
        String html = Files.readString(HtmlReport.write(dirs, out));
        assertThat(out.resolve("majority-at-k-0.png")).exists();
        assertThat(html).contains("<img src=\"majority-at-k-0.png\"");
        // one run alone is no curve
        Path single = tmp.resolve("mk1");
        HtmlReport.write(List.of(dirs.getFirst()), single);
        assertThat(single.resolve("majority-at-k-0.png")).doesNotExist();
    }
}
