package dev.veracity.cli;

import static dev.veracity.cli.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.cli.CliRun.Result;
import dev.veracity.retrieval.Passage;
import dev.veracity.retrieval.lucene.IndexMetadata;
import dev.veracity.retrieval.lucene.LuceneIndex;
import dev.veracity.sim.RecordedRequest;
import dev.veracity.sim.Rule;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import dev.veracity.testing.Shared;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Retrieval in evaluation against the simulator: standard RAG on NQ-open questions over an index built from a small
 * FlashRAG-format corpus (their answers plus distractors), closed-book methods that get no passage, a RAG method
 * without an index that stops before any request, and {@code ask}.
 */
class EvalRetrievalTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int QUESTIONS = 10;

    @TempDir
    Path dir;

    Path nq;
    List<JsonNode> questions = new ArrayList<>();
    List<String> answerPassages = new ArrayList<>();
    List<String> distractors = new ArrayList<>();

    @BeforeEach
    void corpus() throws Exception {
        nq = Shared.data("nq-open/NQ-open.dev.jsonl");
        List<String> lines = Files.readAllLines(nq).stream().filter(l -> !l.isBlank()).limit(QUESTIONS).toList();
        StringBuilder corpus = new StringBuilder();
        for (int i = 0; i < lines.size(); i++) {
            JsonNode q = JSON.readTree(lines.get(i));
            questions.add(q);
            String question = q.get("question").asText();
            String[] words = question.split(" ");
            // the passage with the answer shares the question's words; the distractor only the first half of them
            String answer = "Encyclopedia entry " + i + ". On the matter of " + question + ": it is " + q.get("answer").get(0).asText() + ".";
            String distractor = "Unrelated note " + i + " about "
                    + String.join(" ", java.util.Arrays.copyOf(words, Math.max(1, words.length / 2))) + " and weather.";
            answerPassages.add(answer);
            distractors.add(distractor);
            corpus.append(flashrag("a" + i, "Topic " + i, answer)).append(flashrag("d" + i, "Other " + i, distractor));
        }
        for (int i = 0; i < 20; i++) {
            corpus.append(flashrag("f" + i, "Filler " + i, "A report about rain, wind and tides in harbour town " + i + "."));
        }
        Files.writeString(dir.resolve("corpus.jsonl"), corpus);
    }

    private static String flashrag(String id, String title, String text) throws Exception {
        ObjectNode n = JSON.createObjectNode();
        n.put("id", id);
        n.put("contents", "\"" + title + "\"\n" + text);
        return JSON.writeValueAsString(n) + "\n";
    }

    private List<String> model(SimServer sim) {
        return List.of("--llm-base-url", sim.baseUrl(), "--model", "sim-model", "--cache", "off",
                "--trace-file", dir.resolve("traces.db").toString(), "--concurrency", "4");
    }

    private Result eval(SimServer sim, String method, String... more) {
        List<String> args = new ArrayList<>(List.of("eval", "--method", method, "--dataset", "nq-open", "--data", nq.toString(),
                "--limit", Integer.toString(QUESTIONS), "--out", dir.resolve("run-" + method).toString()));
        args.addAll(List.of(more));
        args.addAll(model(sim));
        return run(args.toArray(String[]::new));
    }

    private static String prompt(RecordedRequest r) {
        StringBuilder sb = new StringBuilder();
        r.body().path("messages").forEach(m -> sb.append(m.path("content").asText()).append('\n'));
        sb.append(r.body().path("prompt").asText(""));
        return sb.toString();
    }

    private Path index() {
        Path idx = dir.resolve("idx");
        Result r = run("index", "--corpus", dir.resolve("corpus.jsonl").toString(), "--format", "flashrag", "--out", idx.toString());
        assertThat(r.code()).as(r.err()).isZero();
        return idx;
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

    @Test
    void flashRagCorpusRoundTripsThroughTheIndexWithAChecksum() throws Exception {
        Path idx = index();
        IndexMetadata meta = IndexMetadata.read(idx);
        assertThat(meta.passages()).isEqualTo(2L * QUESTIONS + 20);
        assertThat(meta.corpusSha256()).matches("[0-9a-f]{64}");
        try (LuceneIndex index = LuceneIndex.open(idx)) {
            Passage top = index.bm25().search(questions.get(3).get("question").asText(), 1).getFirst();
            assertThat(top.id()).isEqualTo("a3");
            assertThat(top.title()).isEqualTo("Topic 3"); // the quotes of FlashRAG's title line are dropped
            assertThat(top.text()).isEqualTo(answerPassages.get(3));
        }
    }

    @Test
    void standardRagOnNqOpenReadsTheRetrievedPassages() throws Exception {
        Path idx = index();
        try (SimServer sim = SimServer.start(SimConfig.builder().rules(Rule.of("(?s).*", "Paris")).build())) {
            Result r = eval(sim, "standard-rag", "--index", idx.toString(), "--k", "3");
            assertThat(r.code()).as(r.err()).isZero();
            JsonNode summary = JSON.readTree(dir.resolve("run-standard-rag/summary.json").toFile());
            JsonNode retrieval = summary.get("retrieval");
            System.out.println("standard-rag on " + QUESTIONS + " NQ-open questions, BM25 k=3: recall@3 = "
                    + retrieval.get("answer_recall_at_k"));
            assertThat(retrieval.get("source").asText()).isEqualTo("index");
            assertThat(retrieval.get("k").asInt()).isEqualTo(3);
            assertThat(retrieval.get("mode").asText()).isEqualTo("bm25");
            assertThat(retrieval.get("corpus_sha256").asText()).isEqualTo(IndexMetadata.read(idx).corpusSha256());
            assertThat(retrieval.get("replaces_dataset_documents").asBoolean()).isFalse();
            assertThat(retrieval.get("answer_recall_at_k").asDouble()).isGreaterThanOrEqualTo(0.9);
            assertThat(retrieval.get("questions_with_gold").asInt()).isEqualTo(QUESTIONS);

            List<JsonNode> results = lines(dir.resolve("run-standard-rag/results.jsonl"));
            assertThat(results).hasSize(QUESTIONS);
            for (JsonNode l : results) {
                // BM25 returns only passages sharing a term with the question: up to k
                assertThat(l.at("/retrieval/ids").size()).isBetween(1, 3);
                assertThat(l.at("/retrieval/scores").size()).isEqualTo(l.at("/retrieval/ids").size());
                assertThat(l.at("/retrieval/ms").isNumber()).isTrue();
                int i = questionIndex(l.get("question").asText());
                assertThat(l.at("/retrieval/ids/0").asText()).isEqualTo("a" + i);
            }
            List<String> prompts = sim.recentGenerations().stream().map(EvalRetrievalTest::prompt).toList();
            assertThat(prompts).hasSize(QUESTIONS);
            for (int i = 0; i < QUESTIONS; i++) {
                String passage = answerPassages.get(i);
                assertThat(prompts).as("a prompt holds question %d's retrieved passage", i)
                        .anyMatch(p -> p.contains(passage));
            }
        }
    }

    private int questionIndex(String question) {
        for (int i = 0; i < questions.size(); i++) {
            if (questions.get(i).get("question").asText().equals(question)) {
                return i;
            }
        }
        throw new AssertionError("unknown question " + question);
    }

    @Test
    void closedBookMethodsGetNoPassageEvenWithAnIndex() throws Exception {
        Path idx = index();
        try (SimServer sim = SimServer.start(SimConfig.builder().rules(Rule.of("(?s).*", "Paris")).build())) {
            Result r = eval(sim, "no-rag", "--index", idx.toString());
            assertThat(r.code()).as(r.err()).isZero();
            List<String> prompts = sim.recentGenerations().stream().map(EvalRetrievalTest::prompt).toList();
            assertThat(prompts).hasSize(QUESTIONS);
            for (String p : prompts) {
                assertThat(p).doesNotContain("Encyclopedia entry").doesNotContain("Unrelated note").doesNotContain("harbour town");
            }
            JsonNode summary = JSON.readTree(dir.resolve("run-no-rag/summary.json").toFile());
            assertThat(summary.at("/retrieval/source").asText()).isEqualTo("none");
            assertThat(lines(dir.resolve("run-no-rag/results.jsonl"))).allMatch(l -> l.at("/retrieval/source").asText().equals("none"));
        }
    }

    @Test
    void aRagMethodWithoutPassagesOrIndexStopsBeforeAnyRequest() {
        try (SimServer sim = SimServer.start(SimConfig.builder().rules(Rule.of("(?s).*", "Paris")).build())) {
            Result r = eval(sim, "standard-rag");
            assertThat(r.code()).isEqualTo(2);
            assertThat(r.err().strip()).doesNotContain("\n")
                    .contains("standard-rag needs documents").contains("--index DIR");
            assertThat(sim.counters().generationRequests()).isZero();
            assertThat(dir.resolve("run-standard-rag")).doesNotExist();
        }
    }

    @Test
    void askPrintsTheAnswerAndTheTranscript() throws Exception {
        Path docs = Files.writeString(dir.resolve("docs.jsonl"), """
                {"id": "h", "title": "Hamlet", "text": "Hamlet is a tragedy written by William Shakespeare."}
                {"text": "Macbeth is another play."}
                """);
        try (SimServer sim = SimServer.start(SimConfig.builder().rules(Rule.of("(?s).*", "William Shakespeare")).build())) {
            List<String> args = new ArrayList<>(List.of("ask", "who wrote hamlet", "--method", "standard-rag", "--docs", docs.toString()));
            args.addAll(model(sim));
            Result r = run(args.toArray(String[]::new));
            assertThat(r.code()).as(r.err()).isZero();
            assertThat(r.out()).contains("documents (--docs): 2").contains("transcript:").contains("--- answerer #0")
                    .contains("Hamlet is a tragedy").contains("output: William Shakespeare")
                    .contains("answer: William Shakespeare").contains("calls 1 (samples 1), tokens");
            assertThat(prompt(sim.recentGenerations().getFirst())).contains("Hamlet is a tragedy written by William Shakespeare.");

            Path idx = index();
            List<String> withIndex = new ArrayList<>(List.of("ask", questions.getFirst().get("question").asText(),
                    "--method", "standard-rag", "--index", idx.toString(), "--k", "2"));
            withIndex.addAll(model(sim));
            Result viaIndex = run(withIndex.toArray(String[]::new));
            assertThat(viaIndex.code()).as(viaIndex.err()).isZero();
            assertThat(viaIndex.out()).contains("documents (index): 2").contains("[a0]");

            List<String> missing = new ArrayList<>(List.of("ask", "who wrote hamlet", "--method", "madam-rag"));
            missing.addAll(model(sim));
            Result none = run(missing.toArray(String[]::new));
            assertThat(none.code()).isEqualTo(2);
            assertThat(none.err()).contains("--docs FILE").contains("--index DIR");
        }
    }

    @Test
    void indexesADatasetsOwnPassagesThroughItsLoader() throws Exception {
        Path ramdocs = Shared.data("ramdocs/RAMDocs_test.jsonl");
        Path idx = dir.resolve("ram-idx");
        Result r = run("index", "--corpus", ramdocs.toString(), "--format", "dataset", "--dataset", "ramdocs", "--out", idx.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(IndexMetadata.read(idx).passages()).isPositive();
        assertThat(IndexMetadata.read(idx).corpusSha256()).isNotBlank();
    }
}
