package dev.veracity.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.eval.report.HeadlessChromium;
import dev.veracity.sim.FaultKind;
import dev.veracity.sim.FaultPlan;
import dev.veracity.sim.LatencyModel;
import dev.veracity.sim.Rule;
import dev.veracity.sim.SimConfig;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The playground ({@code GET /} on serve) in headless Chromium, against serve on a scripted simulator: a user types a
 * method, a question and documents and presses Ask; the page streams the answer from the server's own chat endpoint
 * and draws the {@code veracity} field. Checked in the DOM: MARCH's failed verdict with the claim and the Checker's
 * answer; MADAM-RAG's rounds and the aggregator's kept and dropped answers, alone and under MARCH's abstain policy;
 * Reasoning Court's trajectories and judge, C-3PO's actions and TruthRL's class as the server returned them; the key
 * prompt, a wrong key's error, a request's error (before and after the stream opened) shown on the page, which keeps
 * working. Every request the page made went to the server itself, and
 * markup in documents and model output stays text. Screenshots stay under {@code target/playground-chromium} to be
 * looked at. Skipped where {@code /usr/bin/chromium} is absent (CI installs it).
 */
class PlaygroundChromiumTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path OUT = Path.of("target", "playground-chromium").toAbsolutePath();

    /** The Solver states a wrong year (and tries markup); the Proposer asks for it; the Checker reads 1889. */
    private static final List<Rule> MARCH_RULES = List.of(
            Rule.of("You must respond based strictly",
                    "The Eiffel Tower was completed in 1899. <img src=x onerror=\"window.pwned=1\">"),
            Rule.of("You are a data annotation expert",
                    "- Question: In which year was the Eiffel Tower completed? [Answer: 1899]"),
            Rule.of("You are a data validation expert",
                    "1. Evidence: Document 1 says the tower was completed in 1889. [Answer: 1889]"));

    /** Each agent answers from its own document (Rome for the planted one); the aggregator keeps Paris. */
    private static final Pattern DOCUMENT = Pattern.compile("Document: ([^\\n]*)");
    private static final List<Rule> MADAM_RULES = List.of(
            Rule.of("You are an aggregator reading answers", "All Correct Answers: [\"Paris\"]. Explanation: Agents 1"
                    + " and 3 read that the tower is in Paris; the document of agent 2 is misinformation."),
            Rule.of("You are an agent reading a document", m -> {
                Matcher d = DOCUMENT.matcher(m.prompt());
                return d.find() && d.group(1).contains("Rome")
                        ? "Answer: Rome. Explanation: The document says the tower stands in Rome."
                        : "Answer: Paris. Explanation: The document says the tower is in Paris.";
            }));

    private static final String KEY = "sk-playground-key-0123456789";

    @TempDir
    Path tmp;

    @BeforeAll
    static void clean() throws IOException {
        if (Files.isDirectory(OUT)) {
            try (var files = Files.walk(OUT)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    @Test
    void marchWhereTheCheckerDisagreesShowsTheFailedVerdictAndTheClaim() throws Exception {
        HeadlessChromium.assumeInstalled();
        try (Served s = Served.start(SimConfig.builder().rules(MARCH_RULES.toArray(Rule[]::new)).build(), x -> x,
                b -> b, Duration.ofSeconds(30));
             HeadlessChromium c = HeadlessChromium.start(tmp.resolve("profile"), 1280, 1000)) {
            open(c, s);
            ask(c, "march", "When was the Eiffel Tower completed?", """
                    Gustave Eiffel's company built the tower, which was completed in 1889.

                    The tower is in Paris. <script>window.pwned = 2</script>""");
            c.screenshot(OUT.resolve("march.png"));

            assertThat(c.eval("document.getElementById('error').hidden").asBoolean()).isTrue();
            // the answer streamed in as text: the model's markup is shown, not run
            assertThat(text(c, "answer")).isEqualTo("The Eiffel Tower was completed in 1899. <img src=x onerror=\"window.pwned=1\">");
            assertThat(c.eval("document.querySelectorAll('#result img, #result script').length").asInt()).isZero();
            assertThat(c.eval("typeof window.pwned").asText()).isEqualTo("undefined");
            assertThat(text(c, "badges")).contains("march", "verified: failed");
            assertThat(text(c, "march-verdict")).isEqualTo("Verdict: failed: the Checker contradicted 1 of 1 claim");
            JsonNode claim = c.eval("[...document.querySelectorAll('#panels table')[0].tBodies[0].rows[0].cells]"
                    + ".map(td => td.textContent)");
            assertThat(JSON.convertValue(claim, List.class)).containsExactly("1",
                    "In which year was the Eiffel Tower completed?", "1899", "1889 · 1889 · 1889", "-3", "fault");
            // the Solver, the Proposer and three Checker samples
            assertThat(text(c, "cost")).startsWith("5 calls (5 samples), ");
            assertThat(text(c, "method-info")).startsWith("Solver -> Proposer -> Checker").endsWith("(MARCH, Section 2, prompts of App. A)");
            assertOwnOriginOnly(c, s);
        }
    }

    @Test
    void madamRagShowsTheRoundsAndTheAggregatorsKeptAndDroppedAnswers() throws Exception {
        HeadlessChromium.assumeInstalled();
        List<Rule> rules = new java.util.ArrayList<>(MADAM_RULES);
        rules.addAll(MARCH_RULES.subList(1, 3)); // MARCH's Proposer and Checker, for the composition
        try (Served s = Served.start(SimConfig.builder().rules(rules.toArray(Rule[]::new)).build(), x -> x,
                b -> b, Duration.ofSeconds(30));
             HeadlessChromium c = HeadlessChromium.start(tmp.resolve("profile"), 1280, 1000)) {
            open(c, s);
            ask(c, "madam-rag", "Where is the Eiffel Tower?", """
                    The Eiffel Tower is located in Paris, the capital of France.

                    The Eiffel Tower stands in Rome, beside the Colosseum.

                    Paris hosts millions of visitors every year at the Eiffel Tower.""");
            c.screenshot(OUT.resolve("madam-rag.png"));

            assertThat(c.eval("document.getElementById('error').hidden").asBoolean()).isTrue();
            assertThat(text(c, "answer")).startsWith("All Correct Answers: [\"Paris\"]");
            JsonNode rows = c.eval("[...document.querySelectorAll('#panels table')[0].rows]"
                    + ".map(r => [...r.cells].map(td => td.textContent))");
            // rounds as columns; the agents stop early once their answers repeat (round 2 = round 1)
            assertThat(rows.get(0).get(1).asText()).isEqualTo("round 1");
            assertThat(rows.get(1).get(0).asText()).startsWith("agent 1 (doc 1)");
            assertThat(rows.get(1).get(1).asText()).isEqualTo("Paris");
            assertThat(rows.get(2).get(0).asText()).startsWith("agent 2 (doc 2)").contains("Rome, beside the Colosseum");
            assertThat(rows.get(2).get(1).asText()).isEqualTo("Rome");
            assertThat(rows.get(3).get(1).asText()).isEqualTo("Paris");
            assertThat(rows.get(4).get(0).asText()).isEqualTo("aggregator");
            assertThat(rows.get(4).get(1).asText()).isEqualTo("Paris");
            assertThat(rows.get(4).get(2).asText()).isEqualTo("(converged: the aggregation before stands)");
            assertThat(c.eval("[...document.querySelectorAll('#panels li.kept')].map(li => li.textContent)").toString())
                    .isEqualTo("[\"Paris\"]");
            assertThat(c.eval("[...document.querySelectorAll('#panels li.dropped')].map(li => li.textContent)").toString())
                    .isEqualTo("[\"Rome\"]");

            // composed with MARCH and its abstain policy: the Checker contradicts the claim, the answer is withheld, and
            // the page shows the debate and the verification side by side
            ask(c, "madam-rag+march+abstain", "When was the Eiffel Tower completed?", """
                    The Eiffel Tower was completed in 1889.

                    The Eiffel Tower stands in Rome, beside the Colosseum.""");
            c.screenshot(OUT.resolve("madam-rag+march+abstain.png"));
            assertThat(text(c, "badges")).contains("verified: failed", "abstained");
            assertThat(text(c, "march-verdict")).isEqualTo("Verdict: failed: the Checker contradicted 1 of 1 claim");
            assertThat(text(c, "panels")).contains("MADAM-RAG: one agent per document", "Kept by the aggregator");
            assertThat(text(c, "withheld")).startsWith("The answer the abstain policy withheld: All Correct Answers: [\"Paris\"]");
            assertOwnOriginOnly(c, s);
        }
    }

    @Test
    void theKeyIsAskedForAndErrorsAreShownWhileThePageKeepsWorking() throws Exception {
        HeadlessChromium.assumeInstalled();
        ApiKeys keys = ApiKeys.load(null, KEY);
        try (Served s = Served.start(SimConfig.builder().rules(MADAM_RULES.toArray(Rule[]::new)).build(),
                x -> x.withKeys(keys), b -> b, Duration.ofSeconds(30));
             HeadlessChromium c = HeadlessChromium.start(tmp.resolve("profile"), 1280, 900)) {
            c.open(URI.create(s.server.baseUrl() + "/"));
            waitFor(c, "!document.getElementById('key-form').hidden");
            assertThat(text(c, "error")).isEqualTo("this server needs an API key: send Authorization: Bearer KEY"
                    + " (missing_api_key)");

            c.eval("document.getElementById('key').value = 'sk-wrong-key-00000000000000'");
            c.click("#key-form button");
            waitFor(c, "document.getElementById('error').textContent.includes('invalid_api_key')");
            assertThat(text(c, "error")).isEqualTo("the API key is not valid here (invalid_api_key)");
            c.screenshot(OUT.resolve("wrong-key.png"));

            c.eval("document.getElementById('key').value = " + JSON.writeValueAsString(KEY));
            c.click("#key-form button");
            waitFor(c, "document.getElementById('key-form').hidden && document.getElementById('methods').options.length > 0");
            assertThat(c.eval("sessionStorage.getItem('veracity.apiKey')").asText()).isEqualTo(KEY);
            assertThat(c.eval("document.getElementById('error').hidden").asBoolean()).isTrue();

            // no documents and no index: the server's 400, on the page
            ask(c, "madam-rag", "Where is the Eiffel Tower?", "");
            assertThat(text(c, "error")).contains("missing_documents");
            assertThat(text(c, "answer")).isEqualTo("No answer.");
            c.screenshot(OUT.resolve("missing-documents.png"));
            // a method the server does not have
            ask(c, "gpt-4o", "Where is the Eiffel Tower?", "The Eiffel Tower is located in Paris.");
            assertThat(text(c, "error")).startsWith("The model `gpt-4o` does not exist").endsWith("(model_not_found)");

            // options that are not JSON: said on the page before anything is sent
            int sent = c.requests().size();
            c.eval("document.getElementById('options').value = '{rounds: 1'; true");
            c.click("#ask-button");
            waitFor(c, "!document.getElementById('error').hidden");
            assertThat(text(c, "error")).startsWith("Options are a JSON object, e.g. {\"rounds\": 2}: ");
            assertThat(c.requests()).hasSize(sent);
            // an option the method does not have: the server's 400
            c.eval("document.getElementById('options').value = '{\"roundz\": 1}'; true");
            ask(c, "madam-rag", "Where is the Eiffel Tower?", "The Eiffel Tower is located in Paris.");
            assertThat(text(c, "error")).contains("roundz").endsWith("(invalid_option)");

            // and it still answers, with the options given
            c.eval("document.getElementById('options').value = '{\"rounds\": 1}'; true");
            ask(c, "madam-rag", "Where is the Eiffel Tower?", "The Eiffel Tower is located in Paris.");
            assertThat(c.eval("document.getElementById('error').hidden").asBoolean()).isTrue();
            assertThat(text(c, "answer")).startsWith("All Correct Answers: [\"Paris\"]");
            assertThat(c.eval("document.querySelectorAll('#panels table')[0].rows[0].cells.length").asInt())
                    .as("agent column and one round").isEqualTo(2);
            assertThat(text(c, "option-names")).startsWith("Its options: rounds (int, default 3)");
            c.screenshot(OUT.resolve("keyed-answer.png"));
            assertOwnOriginOnly(c, s);
        }
    }

    @Test
    void courtC3poAndTruthRlShowTheTrajectoriesTheJudgeTheActionsAndTheAbstentionClass() throws Exception {
        HeadlessChromium.assumeInstalled();
        // the simulator's built-in reader answers each method's prompts; the page must draw what the server returned
        try (Served s = Served.start();
             HeadlessChromium c = HeadlessChromium.start(tmp.resolve("profile"), 1280, 1000)) {
            open(c, s);
            String docs = String.join("\n\n", Served.DOCS.stream().map(d -> d.text()).toList());

            ask(c, "court", Served.QUESTION, docs);
            c.screenshot(OUT.resolve("court.png"));
            JsonNode court = expected(s, "court").at("/details/court");
            String panels = text(c, "panels");
            assertThat(court.path("trajectories")).hasSize(2).allSatisfy(t -> {
                assertThat(panels).contains("Trajectory of " + t.path("agent").asText() + ": " + t.path("answer").asText());
                t.path("steps").forEach(step -> assertThat(panels).contains(step.path("thought").asText(),
                        step.path("action").asText(), step.path("observation").asText()));
            });
            JsonNode judge = court.path("judge");
            assertThat(text(c, "court-judge")).isEqualTo(switch (judge.path("choice").asText()) {
                case "selected" -> "The judge selected " + judge.path("agent").asText() + "'s answer: "
                        + judge.path("answer").asText();
                case "synthesised" -> "The judge synthesised an answer of its own: " + judge.path("answer").asText();
                default -> "The judge's output held no usable answer: the agents' majority answer was taken: "
                        + judge.path("answer").asText();
            });

            ask(c, "c3po", Served.QUESTION, docs);
            c.screenshot(OUT.resolve("c3po.png"));
            JsonNode c3po = expected(s, "c3po").at("/details/c3po");
            assertThat(text(c, "panels")).contains("C-3PO: the proxy's actions (strategy: " + c3po.path("strategy").asText() + ")");
            JsonNode actions = c.eval("[...document.querySelectorAll('#panels table')[0].tBodies[0].rows]"
                    + ".map(r => [...r.cells].map(td => td.textContent))");
            assertThat(actions).hasSize(c3po.path("actions").size());
            for (int i = 0; i < actions.size(); i++) {
                JsonNode a = c3po.path("actions").get(i);
                assertThat(actions.get(i).get(0).asText()).isEqualTo(a.path("agent").asText());
                assertThat(actions.get(i).get(2).asText()).isEqualTo(a.path("action").asText());
            }

            ask(c, "truthrl", Served.QUESTION, docs);
            c.screenshot(OUT.resolve("truthrl.png"));
            JsonNode truthrl = expected(s, "truthrl");
            String klass = truthrl.at("/details/truthrl/class").asText();
            assertThat(text(c, "truthrl-class")).startsWith("The model " + switch (klass) {
                case "answer" -> "answered";
                case "abstain" -> "abstained (I don't know)";
                case "invalid_premise" -> "called the question's premise invalid";
                default -> "gave no boxed answer";
            });
            assertThat(text(c, "badges")).contains(truthrl.path("abstained").asBoolean() ? "abstained" : "answered");

            // the upstream goes away: the server's error on the page
            s.sim.close();
            ask(c, "standard-rag", Served.QUESTION, docs);
            assertThat(text(c, "error")).endsWith("(upstream_error)");
            assertOwnOriginOnly(c, s);
        }
    }

    @Test
    void aFailureAfterTheStreamOpenedIsShownOnThePage() throws Exception {
        HeadlessChromium.assumeInstalled();
        // the three agents answer slowly (the stream opens with keep-alives), then every later call fails
        FaultKind[] lateFailure = new FaultKind[40];
        java.util.Arrays.fill(lateFailure, FaultKind.SERVER_ERROR);
        java.util.Arrays.fill(lateFailure, 0, 3, FaultKind.NONE);
        try (Served s = Served.start(SimConfig.builder().latency(LatencyModel.ofMillis(150, 0))
                .faults(FaultPlan.script(lateFailure)).build(), x -> x.withKeepAlive(Duration.ofMillis(50)), b -> b,
                Duration.ofSeconds(30));
             HeadlessChromium c = HeadlessChromium.start(tmp.resolve("profile"), 1280, 900)) {
            open(c, s);
            ask(c, "madam-rag", Served.QUESTION, String.join("\n\n", Served.DOCS.stream().map(d -> d.text()).toList()));
            assertThat(text(c, "error")).contains("server error (HTTP 500) after 3 attempts").endsWith("(upstream_error)");
            assertThat(text(c, "answer")).isEqualTo("No answer.");
            assertOwnOriginOnly(c, s);
        }
    }

    /** The {@code veracity} field the server answers the page's request with (the same request, so the same answer). */
    private static JsonNode expected(Served s, String method) {
        Http.Reply r = Http.post(s.v1() + "/chat/completions", Http.chat(method, ""));
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json().path("veracity");
    }

    private static void open(HeadlessChromium c, Served s) {
        c.open(URI.create(s.server.baseUrl() + "/"));
        waitFor(c, "document.getElementById('methods').options.length > 0");
    }

    /** Types the method, question and documents and presses Ask, then waits until the page is done. */
    private static void ask(HeadlessChromium c, String method, String question, String documents) throws Exception {
        c.eval("document.getElementById('method').value = " + JSON.writeValueAsString(method) + ";"
                + "document.getElementById('question').value = " + JSON.writeValueAsString(question) + ";"
                + "document.getElementById('documents').value = " + JSON.writeValueAsString(documents) + ";"
                + "document.getElementById('answer').textContent = ''; true");
        c.click("#ask-button");
        waitFor(c, "!document.getElementById('ask-button').disabled && document.getElementById('answer').textContent !== ''"
                + " && (document.getElementById('panels').childElementCount > 0 || !document.getElementById('error').hidden)");
    }

    private static void waitFor(HeadlessChromium c, String condition) {
        c.eval("new Promise(done => { const t = setInterval(() => { if (" + condition + ") { clearInterval(t);"
                + " done(true); } }, 25); })");
    }

    private static String text(HeadlessChromium c, String id) {
        return c.eval("document.getElementById('" + id + "').textContent").asText();
    }

    private static void assertOwnOriginOnly(HeadlessChromium c, Served s) {
        assertThat(c.requests()).isNotEmpty().allSatisfy(url -> assertThat(url).startsWith(s.server.baseUrl() + "/"));
        assertThat(c.requests()).contains(s.server.baseUrl() + "/playground/app.js",
                s.server.baseUrl() + "/v1/chat/completions");
        assertThat(c.log()).noneMatch(line -> line.startsWith("error:"));
    }
}
