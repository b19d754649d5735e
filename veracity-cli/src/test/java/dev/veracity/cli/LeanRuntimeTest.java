package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.veracity.retrieval.LocalEmbedders;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI as a user who has not added the optional embed part runs it: this module's class path less the part (its
 * module, ONNX Runtime, DJL's tokenizers, the bge-small jar), in a JVM of its own. Every command that needs no
 * in-process model works; one that does stops before any work with the one line that says how to add the part.
 */
class LeanRuntimeTest {

    @TempDir
    Path dir;

    /** This JVM's class path without the embed part; fails if nothing was taken out (the test would prove nothing). */
    private static String withoutEmbedPart() {
        List<String> all = Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));
        List<String> kept = all.stream().filter(e -> !(e.contains("veracity-embed-onnx") || e.contains("onnxruntime")
                || e.contains(File.separator + "ai" + File.separator + "djl") || e.contains("langchain4j-embeddings")))
                .toList();
        assertThat(all.size() - kept.size()).as("embed part entries on the test class path").isGreaterThanOrEqualTo(3);
        return String.join(File.pathSeparator, kept);
    }

    private static CliProcess.Ran veracity(String... args) throws Exception {
        // a wide terminal: the test reads the whole table
        return CliProcess.run(withoutEmbedPart(), Path.of(""), Map.of("COLUMNS", "400"), args);
    }

    private static final String PART_MISSING = "the in-process embedding model (bge-small, e5) is the optional embed part"
            + " (ONNX Runtime, about 140 MB), which this runtime does not hold: add it with `" + LocalEmbedders.ADD_COMMAND
            + "` (./veracity then uses it), or embed on an OpenAI-compatible server with --embedder URL where the"
            + " command takes it";

    @Test
    void theDemoRunsEveryKindOfMethodWithoutThePartEmbeddingOnTheSimulator() throws Exception {
        // speculative-rag clusters documents by embedding: on the simulator it embeds there, not with bge-small
        CliProcess.Ran r = veracity("demo", "--out", dir.resolve("demo").toString(), "--limit", "2", "--latency-ms", "0",
                "--cache", "off", "--method", "standard-rag,speculative-rag");
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("speculative-rag embedded documents on the simulator too (hashed bags of words).");
        assertThat(r.out()).containsPattern("(?m)^speculative-rag\\s+speculative-rag\\s+sim-model\\s+dataset\\s+2\\s");
    }

    @Test
    void aDenseIndexWithoutThePartIsOneLineSayingHowToAddItBeforeAnyWork() throws Exception {
        Path corpus = Files.writeString(dir.resolve("corpus.jsonl"),
                "{\"id\": \"eiffel\", \"title\": \"Eiffel Tower\", \"text\": \"The tower is in Paris.\"}\n");
        Path index = dir.resolve("index");
        CliProcess.Ran r = veracity("index", "--corpus", corpus.toString(), "--out", index.toString(), "--dense");
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(2);
        assertThat(r.err().strip()).isEqualTo("veracity index: " + PART_MISSING);
        assertThat(index).doesNotExist();
        // BM25 alone needs no model
        CliProcess.Ran bm25 = veracity("index", "--corpus", corpus.toString(), "--out", index.toString());
        assertThat(bm25.code()).as(bm25.out() + bm25.err()).isZero();
        assertThat(bm25.out()).contains("Indexed 1 passages");
    }

    @Test
    void aMethodThatEmbedsStopsBeforeAnyModelCall() throws Exception {
        Path data = MethodsDemo.copyBundled(dir.resolve("ramdocs.jsonl"));
        // nothing listens on port 9: a model call would fail with another message
        CliProcess.Ran r = veracity("eval", "--method", "speculative-rag", "--dataset", "ramdocs", "--data", data.toString(),
                "--limit", "1", "--out", dir.resolve("run").toString(), "--llm-base-url", "http://127.0.0.1:9/v1",
                "--model", "m", "--cache", "off");
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(2);
        assertThat(r.err().strip()).isEqualTo("veracity eval: " + PART_MISSING);
        assertThat(r.err().lines().collect(Collectors.toList())).hasSize(1);
    }
}
