package dev.veracity.cli;

import static dev.veracity.cli.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.cli.CliRun.Result;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import dev.veracity.testing.Shared;
import dev.veracity.trace.CallRecord;
import dev.veracity.trace.TraceStore;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reasoning Court end to end through the command line against the simulator's built-in reader: HotpotQA questions
 * with a page store built from their own paragraphs ({@code index --pages --format dataset}), FEVER claims with a
 * page store built from FEVER wiki-pages records; every agent action parses, the official metrics are reported, and
 * the report shows Table 4 and Table 3. Bad input stops before any model call.
 */
class CourtEvalTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private List<String> model(SimServer sim) {
        return List.of("--llm-base-url", sim.baseUrl(), "--model", "sim-model", "--cache", "off", "--concurrency", "8");
    }

    private Path hotpot() throws Exception {
        Path f = dir.resolve("hotpot.json");
        try (InputStream in = getClass().getResourceAsStream("/dev/veracity/cli/hotpot-distractor-5.json")) {
            Files.copy(in, f);
        }
        return f;
    }

    private static List<JsonNode> lines(Path results) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (String l : Files.readAllLines(results)) {
            if (!l.isBlank()) {
                out.add(JSON.readTree(l));
            }
        }
        return out;
    }

    private Result eval(SimServer sim, String method, String dataset, Path data, Path out, String... more) {
        List<String> args = new ArrayList<>(List.of("eval", "--method", method, "--dataset", dataset, "--data",
                data.toString(), "--out", out.toString()));
        args.addAll(List.of(more));
        args.addAll(model(sim));
        return run(args.toArray(String[]::new));
    }

    /** Every agent turn of the run, read back from its traces: the outputs of calls made in agent roles. */
    private static List<CallRecord> agentCalls(Path run) throws Exception {
        try (TraceStore store = TraceStore.open(run.resolve("traces.db"))) {
            return store.runs().stream().flatMap(id -> store.calls(id).stream())
                    .filter(c -> c.context().role().startsWith("agent-")).toList();
        }
    }

    @Test
    void hotpotQaOverAPageStoreOfItsOwnParagraphs() throws Exception {
        Path data = hotpot();
        Path pages = dir.resolve("pages");
        Result built = run("index", "--pages", "--corpus", data.toString(), "--format", "dataset", "--dataset", "hotpotqa",
                "--out", pages.toString());
        assertThat(built.code()).as(built.err()).isZero();
        assertThat(built.out()).contains("Stored 12 pages from");
        try (SimServer sim = SimServer.start(SimConfig.builder().build())) {
            Path run = dir.resolve("court-hotpot");
            Result r = eval(sim, "court", "hotpotqa", data, run, "--pages", pages.toString());
            assertThat(r.code()).as(r.err()).isZero();
            JsonNode s = JSON.readTree(run.resolve("summary.json").toFile());
            assertThat(s.get("n").asInt()).isEqualTo(5);
            assertThat(s.get("parse_failures").asInt()).isZero();
            // 100% parseable actions: no failed turn, no ReAct second call, every agent finished by itself
            assertThat(s.at("/signals/action_failures").asDouble()).isZero();
            assertThat(s.at("/signals/action_retries").asDouble()).isZero();
            assertThat(s.at("/signals/forced_finishes").asDouble()).isZero();
            assertThat(s.at("/signals/judge_parsed").asDouble()).isEqualTo(1.0);
            List<CallRecord> turns = agentCalls(run);
            assertThat(turns).isNotEmpty().allSatisfy(c -> {
                assertThat(dev.veracity.retrieval.react.ActionParser.parse(c.outputs().getFirst()))
                        .isInstanceOf(dev.veracity.retrieval.react.AgentTurn.Acted.class);
                assertThat(c.outputs().getFirst()).doesNotContain("Observation"); // the stop sequence was sent and applied
            });
            // HotpotQA's official EM and F1, and Table 4's numbers per role
            assertThat(s.at("/metrics/em").isNumber()).isTrue();
            assertThat(s.at("/metrics/f1").isNumber()).isTrue();
            // answers come from what the agents observed: each prediction is in the question's paragraphs
            String paragraphs = Files.readString(data);
            assertThat(lines(run.resolve("results.jsonl"))).allSatisfy(l -> assertThat(paragraphs)
                    .contains(l.get("prediction").asText()));
            assertThat(s.at("/metrics/em").asDouble()).isPositive();
            assertThat(s.at("/roles/agent-1/calls_per_question").asDouble()).isGreaterThanOrEqualTo(2.0);
            assertThat(s.at("/roles/judge/calls_per_question").asDouble()).isEqualTo(1.0);
            assertThat(s.at("/judge_scenarios/metric").asText()).isEqualTo("em");
            assertThat(s.at("/config/pages").asText()).contains("sha256=");
            // the agents searched the store: a page from a question's own paragraphs shows up in an observation
            List<JsonNode> results = lines(run.resolve("results.jsonl"));
            assertThat(results).allSatisfy(l -> assertThat(l.get("candidates")).hasSize(2));
            assertThat(turns.stream().map(CallRecord::prompt)).anyMatch(p -> p.contains("Observation 1: Scott Derrickson (born July 16, 1966)"));

            // ReAct -> CoT-SC on the same questions, then the report with Table 4 for both
            Path baseline = dir.resolve("react-cot-sc");
            Result b = eval(sim, "react-cot-sc", "hotpotqa", data, baseline, "--pages", pages.toString());
            assertThat(b.code()).as(b.err()).isZero();
            Result report = run("report", run.toString(), baseline.toString(), "--out", dir.resolve("report").toString());
            assertThat(report.code()).as(report.err()).isZero();
            String html = Files.readString(dir.resolve("report/index.html"));
            assertThat(html).contains("Calls and time per question, by role").contains("<td>judge</td>")
                    .contains("Judge scenarios");
        }
    }

    @Test
    void feverClaimsOverAFeverWikiPagesStore() throws Exception {
        Path fever = Shared.data("fever/paper_dev.jsonl");
        List<String> claims = Files.readAllLines(fever).stream().filter(l -> !l.isBlank()).limit(8).toList();
        Path claimFile = dir.resolve("claims.jsonl");
        Files.write(claimFile, claims);
        // FEVER wiki-pages records for the pages the claims' evidence names, as FEVER ships them (escaped titles, lines)
        StringBuilder wiki = new StringBuilder("{\"id\": \"\", \"text\": \"\", \"lines\": \"\"}\n");
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (String line : claims) {
            JsonNode c = JSON.readTree(line);
            for (JsonNode set : c.path("evidence")) {
                for (JsonNode ev : set) {
                    String page = ev.path(2).asText("");
                    if (page.isEmpty() || !seen.add(page)) {
                        continue;
                    }
                    String title = page.replace('_', ' ').replace("-LRB-", "(").replace("-RRB-", ")");
                    ObjectNode n = JSON.createObjectNode();
                    n.put("id", page);
                    n.put("text", "");
                    n.put("lines", "0\t" + title + " is the subject of this page .\t\n1\t"
                            + c.get("claim").asText().replace("(", "-LRB-").replace(")", "-RRB-") + "\t" + page + "\n2\t");
                    wiki.append(JSON.writeValueAsString(n)).append('\n');
                }
            }
        }
        Path wikiFile = dir.resolve("wiki-001.jsonl");
        Files.writeString(wikiFile, wiki);
        Path pages = dir.resolve("fever-pages");
        Result built = run("index", "--pages", "--corpus", wikiFile.toString(), "--format", "fever", "--out", pages.toString());
        assertThat(built.code()).as(built.err()).isZero();
        try (SimServer sim = SimServer.start(SimConfig.builder().build())) {
            Path run = dir.resolve("court-fever");
            Result r = eval(sim, "court", "fever", claimFile, run, "--pages", pages.toString());
            assertThat(r.code()).as(r.err()).isZero();
            JsonNode s = JSON.readTree(run.resolve("summary.json").toFile());
            assertThat(s.get("n").asInt()).isEqualTo(8);
            assertThat(s.get("parse_failures").asInt()).isZero();
            assertThat(s.at("/signals/action_failures").asDouble()).isZero();
            assertThat(s.at("/signals/action_retries").asDouble()).isZero();
            assertThat(s.at("/metrics/fever-acc").isNumber()).isTrue();
            assertThat(agentCalls(run)).isNotEmpty().allSatisfy(c -> assertThat(
                    dev.veracity.retrieval.react.ActionParser.parse(c.outputs().getFirst()))
                    .isInstanceOf(dev.veracity.retrieval.react.AgentTurn.Acted.class));
            // FEVER's step limit: no agent took more than 5 steps
            assertThat(lines(run.resolve("results.jsonl"))).allSatisfy(l -> l.get("candidates")
                    .forEach(c -> assertThat(c.get("steps").asInt()).isBetween(1, 5)));
            assertThat(lines(run.resolve("results.jsonl"))).allSatisfy(l -> assertThat(l.get("prediction").asText())
                    .isIn("SUPPORTS", "REFUTES", "NOT ENOUGH INFO"));
        }
    }

    /**
     * Issue 25 point 4: standard prompting on FEVER names the labels, so a model that answers with one is scored by
     * fever-acc (before, "Provide a short answer" got a short answer, not a label, and every claim scored 0).
     */
    @Test
    void standardPromptingOnFeverAnswersWithALabel() throws Exception {
        Path claims = dir.resolve("claims.jsonl");
        Files.writeString(claims, """
                {"id": 1, "label": "SUPPORTS", "claim": "Nikolaj Coster-Waldau worked with the Fox Broadcasting Company."}
                {"id": 2, "label": "REFUTES", "claim": "Stranger Things is set in Bloomington, Indiana."}
                {"id": 3, "label": "NOT ENOUGH INFO", "claim": "Beautiful reached number two on the Billboard Hot 100 in 2003."}
                {"id": 4, "label": "SUPPORTS", "claim": "Marnie is a film."}
                {"id": 5, "label": "REFUTES", "claim": "Eric Church is a sound mixer."}
                {"id": 6, "label": "REFUTES", "claim": "Paramore is not from Tennessee."}
                """);
        try (SimServer sim = SimServer.start(SimConfig.builder().build())) {
            Path run = dir.resolve("no-rag-fever");
            Result r = eval(sim, "no-rag", "fever", claims, run);
            assertThat(r.code()).as(r.err()).isZero();
            List<JsonNode> results = lines(run.resolve("results.jsonl"));
            assertThat(results).hasSize(6).allSatisfy(l -> assertThat(l.get("prediction").asText())
                    .isIn("SUPPORTS", "REFUTES", "NOT ENOUGH INFO"));
            long right = results.stream().filter(l -> l.get("prediction").asText().equals(l.at("/gold/0").asText())).count();
            JsonNode s = JSON.readTree(run.resolve("summary.json").toFile());
            assertThat(s.at("/metrics/fever-acc").asDouble()).isCloseTo(right / 6.0, org.assertj.core.data.Offset.offset(1e-9));
            assertThat(s.get("parse_failures").asInt()).isZero();
        }
    }

    @Test
    void aMissingPageStoreOrAMissingWikipediaStopsBeforeAnyCall() throws Exception {
        Path data = hotpot();
        Path fever = dir.resolve("claims.jsonl");
        Files.writeString(fever, "{\"id\": 1, \"label\": \"SUPPORTS\", \"claim\": \"Tilda Swinton is a vegan.\"}\n");
        try (SimServer sim = SimServer.start(SimConfig.builder().build())) {
            Result missing = eval(sim, "court", "hotpotqa", data, dir.resolve("r1"), "--pages", dir.resolve("nowhere").toString());
            assertThat(missing.code()).isEqualTo(2);
            assertThat(missing.err().strip()).contains("--pages " + dir.resolve("nowhere") + ": no page store here: build one"
                    + " with ./veracity index --pages").doesNotContain("\n");
            Result noWiki = eval(sim, "court", "fever", fever, dir.resolve("r2"));
            assertThat(noWiki.code()).isEqualTo(2);
            assertThat(noWiki.err()).contains("fever questions come without paragraphs").contains("pass --pages DIR");
            Result wrongMethod = eval(sim, "cot", "hotpotqa", data, dir.resolve("r3"), "--pages", dir.toString());
            assertThat(wrongMethod.code()).isEqualTo(2);
            assertThat(wrongMethod.err()).contains("--pages is for methods whose agents act in a Wikipedia");
            assertThat(sim.counters().generationRequests()).isZero();
        }
    }

    @Test
    void theBenchPrintsSearchesPerSecond() {
        Result r = run("bench", "pages", "--pages", "3000", "--searches", "2000", "--work-dir", dir.resolve("b").toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).containsPattern("Page store: 3,000 generated pages built at [\\d,]+ pages/s; opened in [\\d.]+ ms")
                .containsPattern("ReAct Search: [\\d,]+ searches/s on one thread");
    }

    @Test
    void aPageStoreFromACorruptFileNamesTheFileAndLine() throws Exception {
        Path bad = dir.resolve("abstracts.jsonl");
        Files.writeString(bad, "{\"title\": \"Ed Wood\", \"text\": [\"Ed Wood was a filmmaker.\"]}\n"
                + "{\"title\": \"Scott Derrickson\", \"text\": [\"A director.\"\n");
        Result r = run("index", "--pages", "--corpus", bad.toString(), "--format", "hotpotqa-abstracts", "--out",
                dir.resolve("p").toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains(bad + ":2: not a JSON object").contains("(check --format)");
        // the build failed, so the folder is no page store: Ed Wood's page, read before the error, is not served
        assertThat(dir.resolve("p").resolve(dev.veracity.retrieval.react.PageStoreMetadata.FILE)).doesNotExist();
        try (SimServer sim = SimServer.start(SimConfig.builder().build())) {
            Result used = eval(sim, "court", "hotpotqa", hotpot(), dir.resolve("r"), "--pages", dir.resolve("p").toString());
            assertThat(used.code()).isEqualTo(2);
            assertThat(used.err()).contains("not a page store (no veracity-pages.json)");
            assertThat(sim.counters().generationRequests()).isZero();
        }
        Result unknown = run("index", "--pages", "--corpus", bad.toString(), "--format", "wikitext", "--out",
                dir.resolve("q").toString());
        assertThat(unknown.code()).isEqualTo(2);
        assertThat(unknown.err()).contains("unknown page format 'wikitext': use one of hotpotqa-abstracts, kilt, fever, jsonl, dataset");
    }
}
