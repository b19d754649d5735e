package dev.veracity.examples.citecheck;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.cli.VeracityCli;
import dev.veracity.sim.Rule;
import dev.veracity.sim.RuleMatch;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plug-in seen from Veracity's command line: {@code methods} lists it, {@code eval} runs it, {@code compare} and
 * {@code report} read its run beside a built-in method's, {@code rl export} writes its prompt and {@code reward}
 * scores with its reward (in this JVM, the plug-in on the class path); then, as a user runs it, the packed jar in a
 * {@code --plugins} folder of a separate {@code veracity} process: {@code methods} and {@code serve}.
 *
 * <p>The model is the simulator with one scripted rule for this method's prompt: the replies are fixed per question, so
 * the test checks what the method does with them (keep a supported answer, drop one whose cited passage does not
 * contain it, abstain on "unknown"). The simulator's numbers measure plumbing, not model quality.
 */
class CiteCheckCommandsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static SimServer sim;

    @TempDir
    Path dir;

    /** What a model might answer to each question of questions.jsonl. */
    private static String reply(RuleMatch m) {
        String p = m.prompt();
        if (p.contains("Question: Which city is the Eiffel Tower in?")) {
            return "Answer: Paris\nEvidence: [2]";
        }
        if (p.contains("Question: In what year")) {
            return "**Answer:** 1889\n**Evidence:** [2]"; // passage 2 does not say 1889: the check drops it
        }
        if (p.contains("Question: Who painted")) {
            return "<think>Passage 1 names the painter.</think>\nAnswer: Leonardo da Vinci\nEvidence: [1]";
        }
        return "Answer: unknown\nEvidence: []";
    }

    @BeforeAll
    static void startSimulator() {
        sim = SimServer.start(SimConfig.builder()
                .rules(Rule.of("(?s)^Answer the question using only the numbered passages below\\..*",
                        CiteCheckCommandsTest::reply))
                .build());
    }

    @AfterAll
    static void stopSimulator() {
        sim.close();
    }

    private static Path questions() throws Exception {
        return Path.of(CiteCheckCommandsTest.class.getResource("/questions.jsonl").toURI());
    }

    record Result(int code, String out, String err) {
    }

    /** Runs {@code ./veracity ARGS} in this JVM (as its main does, without the exit), keeping what it printed. */
    private static Result veracity(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        int code;
        try {
            picocli.CommandLine cl = VeracityCli.commandLine();
            cl.setOut(new PrintWriter(out, true));
            cl.setErr(new PrintWriter(err, true));
            code = cl.execute(args);
        } finally {
            System.setOut(stdout);
        }
        return new Result(code, out + printed.toString(StandardCharsets.UTF_8), err.toString());
    }

    private Path eval(String method) throws Exception {
        Path run = dir.resolve(method);
        Result r = veracity("eval", "--method", method, "--dataset", "jsonl", "--data", questions().toString(),
                "--out", run.toString(), "--llm-base-url", sim.baseUrl(), "--model", "sim-model", "--cache", "off");
        assertThat(r.code()).as(r.err()).isZero();
        return run;
    }

    private static List<JsonNode> lines(Path file) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            out.add(JSON.readTree(line));
        }
        out.sort((a, b) -> a.path("id").asText().compareTo(b.path("id").asText()));
        return out;
    }

    @Test
    void methodsListsItWithItsOptions() {
        Result all = veracity("methods");
        assertThat(all.code()).as(all.err()).isZero();
        assertThat(all.out()).contains("cite-check  ").contains("standard-rag  ");
        Result one = veracity("methods", "cite-check");
        assertThat(one.out()).contains("check=true").contains("max-tokens=256");
    }

    @Test
    void evalRunsItAndCompareReportAndRlExportReadIt() throws Exception {
        Path cite = eval("cite-check");
        List<JsonNode> results = lines(cite.resolve("results.jsonl"));
        assertThat(results).extracting(n -> n.path("prediction").asText())
                .containsExactly("Paris", "I don't know", "Leonardo da Vinci", "I don't know");
        JsonNode summary = JSON.readTree(cite.resolve("summary.json").toFile());
        assertThat(summary.toString()).contains("cite-check");
        assertThat(summary.at("/n").asInt()).isEqualTo(4);
        Path standard = eval("standard-rag");

        Result compare = veracity("compare", cite.toString(), standard.toString(), "--baseline", standard.toString(),
                "--format", "json");
        assertThat(compare.code()).as(compare.err()).isZero();
        assertThat(compare.out()).contains("cite-check").contains("standard-rag");

        Path report = dir.resolve("report");
        Result rep = veracity("report", cite.toString(), standard.toString(), "--out", report.toString());
        assertThat(rep.code()).as(rep.err()).isZero();
        try (Stream<Path> pages = Files.walk(report)) {
            String html = pages.filter(p -> p.toString().endsWith(".html")).map(p -> {
                try {
                    return Files.readString(p);
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).collect(Collectors.joining());
            assertThat(html).contains("cite-check").contains("Leonardo da Vinci");
        }
        // the plug-in's own section on the question pages: what the method did with the model's citation
        Path pages = report.resolve("cite-check/q");
        assertThat(Files.readString(pages.resolve("q1.html"))).contains("<h2>Citation check</h2>",
                "<td>Paris</td><td>2</td><td>kept: a cited passage contains it</td>");
        assertThat(Files.readString(pages.resolve("q2.html")))
                .contains("<td>1889</td><td>2</td><td>dropped: no cited passage contains it</td>");
        assertThat(Files.readString(pages.resolve("q4.html"))).contains("abstained: the model found no passage");
        assertThat(Files.readString(report.resolve("standard-rag/q/q1.html"))).doesNotContain("Citation check");

        Path rows = dir.resolve("rows.jsonl");
        Result export = veracity("rl", "export", "--format", "openrlhf", "--dataset", "jsonl", "--data",
                questions().toString(), "--prompt", "cite-check:answerer", "--out", rows.toString());
        assertThat(export.code()).as(export.err()).isZero();
        String exported = Files.readString(rows);
        assertThat(exported).contains("Answer the question using only the numbered passages below")
                .contains("[2] The Eiffel Tower is a wrought-iron tower in Paris");
    }

    @Test
    void theSimulatorsReaderAnswersItsPromptThroughThePlugin() throws Exception {
        try (SimServer reader = SimServer.start(SimConfig.builder().build())) { // no rules: only the readers answer
            Path run = dir.resolve("read");
            Result r = veracity("eval", "--method", "cite-check", "--dataset", "jsonl", "--data", questions().toString(),
                    "--out", run.toString(), "--llm-base-url", reader.baseUrl(), "--model", "sim-model", "--cache", "off");
            assertThat(r.code()).as(r.err()).isZero();
            assertThat(lines(run.resolve("results.jsonl"))).extracting(n -> n.path("prediction").asText())
                    .containsExactly("Paris", "1889", "Leonardo da Vinci", "I don't know");
            assertThat(reader.counters().unrecognisedPrompts()).as(reader.unrecognisedPrompts().toString()).isZero();
            assertThat(reader.counters().promptsRecognised()).containsEntry("cite-check", 4L);
        }
    }

    @Test
    void rewardScoresWithIt() throws Exception {
        Path in = dir.resolve("in.jsonl");
        Files.write(in, List.of(
                "{\"question\": \"q\", \"response\": \"Answer: Paris\\nEvidence: [1]\", \"label\": \"Paris\"}",
                "{\"question\": \"q\", \"response\": \"Answer: unknown\", \"label\": \"Paris\"}",
                "{\"question\": \"q\", \"response\": \"Answer: Rome\\nEvidence: [1]\", \"label\": \"Paris\"}"));
        Path out = dir.resolve("scored.jsonl");
        Result r = veracity("reward", "cite-check", "--in", in.toString(), "--out", out.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(Files.readAllLines(out)).extracting(l -> JSON.readTree(l).at("/reward").asDouble())
                .containsExactly(1.0, 0.0, -1.0);
    }

    /** The jar a user builds ({@code mvn package}), made here from the compiled classes: the tests run before it. */
    private Path pluginFolder() throws Exception {
        Path classes = Path.of(CiteCheck.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path folder = Files.createDirectories(dir.resolve("plugins"));
        try (JarOutputStream jar = new JarOutputStream(Files.newOutputStream(folder.resolve("cite-check.jar")));
             Stream<Path> files = Files.walk(classes)) {
            for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                jar.putNextEntry(new JarEntry(classes.relativize(f).toString().replace(File.separatorChar, '/')));
                Files.copy(f, jar);
                jar.closeEntry();
            }
        }
        return folder;
    }

    /** A {@code veracity} process on Veracity's own class path: this plug-in's classes are not on it. */
    private static ProcessBuilder veracityProcess(List<String> args) throws Exception {
        String classes = Path.of(CiteCheck.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        String tests = Path.of(CiteCheckCommandsTest.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .toString();
        String classPath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(e -> !Path.of(e).toAbsolutePath().toString().equals(classes)
                        && !Path.of(e).toAbsolutePath().toString().equals(tests))
                .collect(Collectors.joining(File.pathSeparator));
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", classPath, VeracityCli.class.getName()));
        command.addAll(args);
        return new ProcessBuilder(command);
    }

    private static String drain(Process p) throws Exception {
        return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }

    @Test
    void aVeracityProcessFindsTheJarWithPluginsAndServesTheMethod() throws Exception {
        Path plugins = pluginFolder();
        Process without = veracityProcess(List.of("methods", "cite-check")).redirectErrorStream(true).start();
        assertThat(drain(without)).contains("unknown method 'cite-check'");
        assertThat(without.waitFor()).isEqualTo(2);
        Process listed = veracityProcess(List.of("--plugins", plugins.toString(), "methods")).redirectErrorStream(true).start();
        assertThat(drain(listed)).contains("cite-check  ").contains("madam-rag  ");
        assertThat(listed.waitFor()).isZero();

        Process serve = veracityProcess(List.of("serve", "--plugins", plugins.toString(), "--port", "0",
                "--upstream-base-url", sim.baseUrl(), "--model", "sim-model")).start();
        List<String> err = Collections.synchronizedList(new ArrayList<>());
        Thread.ofVirtual().start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(serve.getErrorStream(), StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    err.add(line);
                }
            } catch (java.io.IOException ignored) {
                // the process ended
            }
        });
        CompletableFuture<String> url = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(serve.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    if (line.startsWith("Serving ")) {
                        url.complete(line.substring(line.indexOf("http://")).split(" ")[0]);
                    }
                }
            } catch (java.io.IOException ignored) {
                // the process ended
            }
        });
        try {
            String v1 = url.get(60, TimeUnit.SECONDS);
            String body = "{\"model\": \"cite-check\", \"messages\": [{\"role\": \"user\", \"content\": \"Which city is the"
                    + " Eiffel Tower in?\"}], \"documents\": [\"The Colosseum is an amphitheatre in Rome.\", \"The Eiffel"
                    + " Tower is a wrought-iron tower in Paris, completed in 1889.\"]}";
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(v1 + "/chat/completions"))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(r.body() + err).isEqualTo(200);
            JsonNode c = JSON.readTree(r.body());
            assertThat(c.at("/choices/0/message/content").asText()).isEqualTo("Paris");
            assertThat(c.at("/veracity/method").asText()).isEqualTo("cite-check");
            assertThat(c.at("/veracity/signals/supported").asDouble()).isEqualTo(1.0);
        } finally {
            serve.destroy();
            serve.waitFor(10, TimeUnit.SECONDS);
            serve.destroyForcibly();
        }
    }
}
