package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.sim.Rule;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TruthRL on CRAG from the command line (issue 25, points 1 to 3) against a simulator whose TruthRL answers and judge
 * verdicts are scripted: the judged truthfulness numbers, {@code --metric truthfulness} over the raw response, the
 * judge's text, the exclude-no-box variant, and the authors' processed CRAG with its chunks.
 */
class TruthRlJudgedEvalTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private Path crag() throws Exception {
        Path f = dir.resolve("crag.jsonl");
        Files.writeString(f, """
                {"interaction_id": "a", "query": "is dreamworks animation owned by time warner or universal pictures?", "answer": "universal pictures", "alternative_answers": [], "query_time": "03/10/2024, 23:34:42 PT", "question_type": "comparison", "search_results": [{"page_name": "p", "page_url": "u", "page_snippet": "a snippet", "page_result": ""}]}
                {"interaction_id": "b", "query": "is office 2019 available in more languages than office 2013?", "answer": "yes", "alternative_answers": [], "query_time": "02/28/2024, 10:04:54 PT", "question_type": "comparison", "search_results": [{"page_name": "p", "page_url": "u", "page_snippet": "a snippet", "page_result": ""}]}
                {"interaction_id": "c", "query": "what is the other language heaven and hell came out in?", "answer": "en", "alternative_answers": [], "query_time": "03/19/2024, 23:28:32 PT", "question_type": "simple", "search_results": [{"page_name": "p", "page_url": "u", "page_snippet": "a snippet", "page_result": ""}]}
                {"interaction_id": "d", "query": "what company in the dow jones is the best performer today?", "answer": "salesforce", "alternative_answers": [], "query_time": "03/05/2024, 23:18:31 PT", "question_type": "multi-hop", "search_results": [{"page_name": "p", "page_url": "u", "page_snippet": "a snippet", "page_result": ""}]}
                """);
        return f;
    }

    /** TruthRL's answerer: a judged paraphrase, an exact match, an abstention, a response without a box. */
    private static final List<Rule> ANSWERS = List.of(
            Rule.of("(?s)MUST be put in .*### Question\\nis dreamworks", "<think>Universal.</think>\n\\boxed{Universal}"),
            Rule.of("(?s)MUST be put in .*### Question\\nis office 2019", "<think>Yes.</think>\n\\boxed{Yes}"),
            Rule.of("(?s)MUST be put in .*### Question\\nwhat is the other", "<think>?</think>\n\\boxed{I don't know}"),
            Rule.of("(?s)MUST be put in .*### Question\\nwhat company", "<think>Salesforce.</think>\nSalesforce, I think."));

    private CliRun.Result eval(SimServer sim, String out, String... extra) throws Exception {
        List<String> args = new java.util.ArrayList<>(List.of("eval", "--method", "truthrl", "--dataset", "crag",
                "--data", crag().toString(), "--out", dir.resolve(out).toString(), "--llm-base-url", sim.baseUrl(),
                "--model", "sim-model", "--cache", "off", "--metric", "truthfulness-answer,truthfulness,em"));
        args.addAll(List.of(extra));
        return CliRun.run(args.toArray(String[]::new));
    }

    @Test
    void withTheCragJudgeTheTruthfulnessNumbersAreJudgedAndTheBoxedMetricReadsTheRawResponse() throws Exception {
        List<String> judged = new CopyOnWriteArrayList<>();
        // the judge says yes to "universal" for "universal pictures" and, were it asked, no to the exact match "yes"
        Rule judge = Rule.of("(?s)Assume you are a human expert in grading predictions.*\\n Prediction: (.*)\\n$", m -> {
            judged.add(m.group(1));
            return "{\"explanation\": \"scripted\", \"score\": " + (m.group(1).equals("universal") ? 1 : 0) + "}";
        });
        List<Rule> rules = new java.util.ArrayList<>(ANSWERS);
        rules.add(judge);
        try (SimServer sim = SimServer.start(SimConfig.builder().rules(rules.toArray(Rule[]::new)).build())) {
            CliRun.Result r = eval(sim, "judged", "--judge", "crag");
            assertThat(r.code()).as(r.err()).isZero();
            JsonNode s = JSON.readTree(dir.resolve("judged/summary.json").toFile());
            for (String m : List.of("truthfulness-answer", "truthfulness")) {
                // universal (judged) and yes (exact match) correct, I don't know an abstention, no box a hallucination
                assertThat(s.at("/metrics/" + m + ".accuracy").asDouble()).as(m).isEqualTo(0.5);
                assertThat(s.at("/metrics/" + m + ".abstention").asDouble()).as(m).isEqualTo(0.25);
                assertThat(s.at("/metrics/" + m + ".hallucination").asDouble()).as(m).isEqualTo(0.25);
                assertThat(s.at("/metrics/" + m + ".truthfulness").asDouble()).as(m).isEqualTo(0.25);
            }
            assertThat(s.at("/metrics/em").asDouble()).isEqualTo(0.25);
            assertThat(s.at("/judge/accuracy").asDouble()).isEqualTo(0.5);
            // the judge was asked about the paraphrase only (once per judged metric), never the exact match
            assertThat(judged).containsOnly("universal");
            assertThat(s.at("/config/judge").asText()).isEqualTo("crag model=sim-model samples=1 prompt=authors");

            // without a judge: exact match, and the boxed metric still reads the raw response, as score does
            CliRun.Result plain = eval(sim, "plain");
            assertThat(plain.code()).as(plain.err()).isZero();
            JsonNode p = JSON.readTree(dir.resolve("plain/summary.json").toFile());
            assertThat(p.at("/metrics/truthfulness.accuracy").asDouble()).isEqualTo(0.25);
            assertThat(p.at("/metrics/truthfulness.abstention").asDouble()).isEqualTo(0.25);
            assertThat(p.at("/metrics/truthfulness.truthfulness").asDouble()).isEqualTo(-0.25);
            assertThat(p.at("/metrics/truthfulness")).isEqualTo(p.at("/metrics/truthfulness-answer"));
        }
    }

    @Test
    void thePapersJudgeTextIsAnOptionAndABadOneIsRefusedBeforeAnyWork() throws Exception {
        List<String> prompts = new CopyOnWriteArrayList<>();
        Rule paper = Rule.of("(?s)Assume you are human expert in grading predictions", m -> {
            prompts.add(m.prompt());
            return "{\"explanation\": \"x\", \"score\": 1}";
        });
        List<Rule> rules = new java.util.ArrayList<>(ANSWERS);
        rules.add(paper);
        try (SimServer sim = SimServer.start(SimConfig.builder().rules(rules.toArray(Rule[]::new)).build())) {
            CliRun.Result r = eval(sim, "paper", "--judge", "crag", "--judge-prompt", "paper", "--limit", "1");
            assertThat(r.code()).as(r.err()).isZero();
            assertThat(prompts).isNotEmpty().allSatisfy(p -> assertThat(p).contains(
                    "Examples:\nQuestion: \"which company has higher eps, btu or cma?\"").endsWith(
                    "Ground Truth: universal pictures\nPrediction: universal\nOutput:"));
            long asked = sim.counters().generationRequests();
            CliRun.Result bad = eval(sim, "bad", "--judge", "crag", "--judge-prompt", "table11");
            assertThat(bad.code()).isEqualTo(2);
            assertThat(bad.err()).contains("unknown judge prompt 'table11'").doesNotContain("\tat ");
            CliRun.Result alone = eval(sim, "alone", "--judge-prompt", "paper");
            assertThat(alone.code()).isEqualTo(2);
            assertThat(alone.err()).contains("--judge-prompt").contains("--judge crag");
            assertThat(sim.counters().generationRequests()).isEqualTo(asked);
        }
    }

    @Test
    void theExcludeNoBoxVariantIsAMetricNameThatKeepsN() throws Exception {
        Path in = dir.resolve("p.jsonl");
        Files.writeString(in, """
                {"id": "1", "prediction": "\\\\boxed{Paris}", "gold": ["Paris"]}
                {"id": "2", "prediction": "Paris, no box", "gold": ["Paris"]}
                {"id": "3", "prediction": "\\\\boxed{Lyon}", "gold": ["Paris"]}
                """);
        CliRun.Result r = CliRun.run("score", "--metric", "truthfulness,truthfulness:exclude-no-box", "--input",
                in.toString(), "--out", dir.resolve("s.jsonl").toString());
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode agg = JSON.readTree(r.out());
        assertThat(agg.at("/truthfulness/n").asInt()).isEqualTo(3);
        assertThat(agg.at("/truthfulness/hallucination").asDouble()).isCloseTo(2 / 3.0, within(1e-9));
        assertThat(agg.at("/truthfulness:exclude-no-box/n").asInt()).isEqualTo(3);
        assertThat(agg.at("/truthfulness:exclude-no-box/hallucination").asDouble()).isCloseTo(1 / 3.0, within(1e-9));
        assertThat(agg.at("/truthfulness:exclude-no-box/no_box").asDouble()).isCloseTo(1 / 3.0, within(1e-9));
    }

    @Test
    void theAuthorsProcessedCragGivesTheChunksTheyKeepAsReferencesAndTheSummarySaysSo() throws Exception {
        Path f = dir.resolve("truthrl_crag.jsonl");
        Files.writeString(f, """
                {"interaction_id": "x1", "query": "who owns dreamworks animation?", "query_time": "03/10/2024, 23:34:42 PT", "answer": "universal pictures", "alt_ans": [], "retrieved_chunks": [{"chunk_text": "DreamWorks Animation is owned by Universal Pictures.", "bge_score": 4}, {"chunk_text": "An unrelated chunk.", "bge_score": 1}, {"chunk_text": "NBCUniversal acquired it in 2016.", "oracle_score": 3}]}
                """);
        List<String> prompts = new CopyOnWriteArrayList<>();
        Rule answerer = Rule.of("(?s)MUST be put in ", m -> {
            prompts.add(m.prompt());
            return "<think>Document [1].</think>\n\\boxed{Universal Pictures}";
        });
        try (SimServer sim = SimServer.start(SimConfig.builder().rules(answerer).build())) {
            CliRun.Result r = CliRun.run("eval", "--method", "truthrl", "--dataset", "truthrl-crag", "--data", f.toString(),
                    "--out", dir.resolve("chunks").toString(), "--llm-base-url", sim.baseUrl(), "--model", "sim-model",
                    "--cache", "off");
            assertThat(r.code()).as(r.err()).isZero();
        }
        assertThat(prompts).singleElement().satisfies(p -> assertThat(p).endsWith("### References\n"
                + "<DOC>\nDocument [1]: DreamWorks Animation is owned by Universal Pictures.\n</DOC>\n"
                + "<DOC>\nDocument [2]: NBCUniversal acquired it in 2016.\n</DOC>"));
        JsonNode s = JSON.readTree(dir.resolve("chunks/summary.json").toFile());
        assertThat(s.at("/retrieval/references").asText()).contains("retrieved_chunks");
        assertThat(s.at("/metrics/truthfulness-answer.accuracy").asDouble()).isEqualTo(1.0);
    }
}
