package dev.veracity.cli;

import static dev.veracity.cli.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.cli.CliRun.Result;
import dev.veracity.opensearch.node.OpenSearchTestNode;
import dev.veracity.retrieval.lucene.IndexMetadata;
import dev.veracity.sim.Rule;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import dev.veracity.testing.Shared;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commands with {@code --index opensearch://...} against a real node ({@link OpenSearchTestNode}, started once):
 * {@code index} loads a FlashRAG corpus, {@code search} ranks as the Lucene folder of the same corpus does, {@code eval}
 * retrieves from it (checksum recorded as for a folder), and an unreachable cluster is one line, exit 2.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OpenSearchCliTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int QUESTIONS = 8;

    @TempDir
    static Path dir;

    OpenSearchTestNode node;
    Path nq;
    final List<String> questions = new ArrayList<>();
    String url;
    Path folder;

    @BeforeAll
    void start() throws Exception {
        nq = Shared.data("nq-open/NQ-open.dev.jsonl");
        StringBuilder corpus = new StringBuilder();
        List<String> lines = Files.readAllLines(nq).stream().filter(l -> !l.isBlank()).limit(QUESTIONS).toList();
        for (int i = 0; i < lines.size(); i++) {
            JsonNode q = JSON.readTree(lines.get(i));
            questions.add(q.get("question").asText());
            corpus.append(passage("a" + i, "Topic " + i, "On the matter of " + q.get("question").asText() + ": it is "
                    + q.get("answer").get(0).asText() + "."));
            corpus.append(passage("d" + i, "Other " + i, "A note about " + q.get("question").asText().split(" ")[0]
                    + " and the weather in town " + i + "."));
        }
        Files.writeString(dir.resolve("corpus.jsonl"), corpus);
        node = OpenSearchTestNode.start();
        url = node.url("nq");
        folder = dir.resolve("idx");
        Result os = run("index", "--corpus", dir.resolve("corpus.jsonl").toString(), "--format", "flashrag", "--out", url,
                "--batch", "5");
        assertThat(os.code()).as(os.err()).isZero();
        assertThat(os.out()).contains("Indexed " + 2 * QUESTIONS + " passages").contains(url);
        Result lucene = run("index", "--corpus", dir.resolve("corpus.jsonl").toString(), "--format", "flashrag", "--out",
                folder.toString());
        assertThat(lucene.code()).as(lucene.err()).isZero();
    }

    @AfterAll
    void stop() throws Exception {
        if (node != null) {
            node.close();
        }
    }

    private static String passage(String id, String title, String text) throws Exception {
        return JSON.writeValueAsString(JSON.createObjectNode().put("id", id).put("contents", "\"" + title + "\"\n" + text))
                + "\n";
    }

    private static List<String> rankedIds(String out) {
        List<String> ids = new ArrayList<>();
        Matcher m = Pattern.compile("(?m)^\\s*\\d+\\. \\S+\\s+\\[([^\\]]+)]").matcher(out);
        while (m.find()) {
            ids.add(m.group(1));
        }
        return ids;
    }

    @Test
    void searchRanksAsTheLuceneFolderDoes() {
        for (String q : questions) {
            Result theirs = run("search", "--index", url, "-k", "5", q);
            Result ours = run("search", "--index", folder.toString(), "-k", "5", q);
            assertThat(theirs.code()).as(theirs.err()).isZero();
            assertThat(rankedIds(theirs.out())).isNotEmpty().isEqualTo(rankedIds(ours.out()));
        }
    }

    @Test
    void evalRetrievesFromOpenSearchAndRecordsTheCorpusChecksum() throws Exception {
        try (SimServer sim = SimServer.start(SimConfig.builder().rules(Rule.of("(?s).*", "Paris")).build())) {
            Path out = dir.resolve("run");
            Result r = run("eval", "--method", "standard-rag", "--dataset", "nq-open", "--data", nq.toString(),
                    "--limit", Integer.toString(QUESTIONS), "--out", out.toString(), "--index", url, "--k", "2",
                    "--llm-base-url", sim.baseUrl(), "--model", "sim-model", "--cache", "off",
                    "--trace-file", dir.resolve("traces.db").toString());
            assertThat(r.code()).as(r.err()).isZero();
            JsonNode retrieval = JSON.readTree(out.resolve("summary.json").toFile()).get("retrieval");
            assertThat(retrieval.get("source").asText()).isEqualTo("index");
            assertThat(retrieval.get("corpus_sha256").asText()).isEqualTo(IndexMetadata.read(folder).corpusSha256());
            for (String line : Files.readAllLines(out.resolve("results.jsonl"))) {
                if (!line.isBlank()) {
                    JsonNode l = JSON.readTree(line);
                    assertThat(l.at("/retrieval/ids/0").asText())
                            .isEqualTo("a" + questions.indexOf(l.get("question").asText()));
                }
            }
        }
    }

    @Test
    void courtReadsAPageStoreInOpenSearchAsItReadsTheFolder() throws Exception {
        Path data = dir.resolve("hotpot.json");
        try (var in = getClass().getResourceAsStream("/dev/veracity/cli/hotpot-distractor-5.json")) {
            Files.copy(in, data);
        }
        String pagesUrl = node.url("hotpot-pages");
        Path pagesDir = dir.resolve("hotpot-pages");
        for (String out : List.of(pagesUrl, pagesDir.toString())) {
            Result built = run("index", "--pages", "--corpus", data.toString(), "--format", "dataset", "--dataset",
                    "hotpotqa", "--out", out);
            assertThat(built.code()).as(built.err()).isZero();
            assertThat(built.out()).contains("Stored 12 pages from");
        }
        List<List<String>> predictions = new ArrayList<>();
        List<String> recorded = new ArrayList<>();
        for (String pages : List.of(pagesUrl, pagesDir.toString())) {
            try (SimServer sim = SimServer.start(SimConfig.builder().build())) {
                Path run = dir.resolve("court-" + predictions.size());
                Result r = run("eval", "--method", "court", "--dataset", "hotpotqa", "--data", data.toString(), "--out",
                        run.toString(), "--pages", pages, "--llm-base-url", sim.baseUrl(), "--model", "sim-model",
                        "--cache", "off", "--concurrency", "8");
                assertThat(r.code()).as(r.err()).isZero();
                List<String> p = new ArrayList<>();
                for (String line : Files.readAllLines(run.resolve("results.jsonl"))) {
                    if (!line.isBlank()) {
                        JsonNode l = JSON.readTree(line);
                        p.add(l.get("question").asText() + " -> " + l.get("prediction").asText());
                    }
                }
                predictions.add(p.stream().sorted().toList());
                recorded.add(JSON.readTree(run.resolve("summary.json").toFile()).at("/config/pages").asText());
            }
        }
        assertThat(predictions.get(0)).hasSize(5).isEqualTo(predictions.get(1));
        assertThat(recorded.get(0)).startsWith(pagesUrl + " sha256=");
        assertThat(recorded.get(0).substring(recorded.get(0).indexOf("sha256=")))
                .isEqualTo(recorded.get(1).substring(recorded.get(1).indexOf("sha256=")));
    }

    @Test
    void anUnreachableClusterIsOneLineExitTwo() throws Exception {
        Result r = run("search", "--index", "opensearch://127.0.0.1:" + OpenSearchTestNode.freePort() + "/nq", "who");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err().strip()).contains("cannot reach OpenSearch at http://127.0.0.1:").doesNotContain("\n\tat ");
        Result missing = run("search", "--index", node.url("absent"), "who");
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err()).contains("no index absent").contains("./veracity index --corpus FILE --out " + node.url("absent"));
    }
}
