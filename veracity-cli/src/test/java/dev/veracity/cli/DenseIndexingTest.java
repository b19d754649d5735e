package dev.veracity.cli;

import static dev.veracity.cli.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.veracity.cli.CliRun.Result;
import dev.veracity.retrieval.lucene.IndexMetadata;
import dev.veracity.sim.Endpoint;
import dev.veracity.sim.SimServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Dense indexes past one machine's CPU: passages embedded on an embedding server, or vectors imported from .npy. */
class DenseIndexingTest {

    @TempDir
    Path dir;

    /** A version 1 .npy of float32 rows, as np.save writes it: magic, version, header length, padded dict, data. */
    private static Path npy(Path file, float[][] rows) throws Exception {
        String dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + rows.length + ", " + rows[0].length + "), }";
        int padded = (10 + dict.length() + 1 + 63) / 64 * 64;
        String header = dict + " ".repeat(padded - 10 - dict.length() - 1) + "\n";
        var b = java.nio.ByteBuffer.allocate(padded + 4 * rows.length * rows[0].length).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.put(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0}).putShort((short) header.length())
                .put(header.getBytes(StandardCharsets.ISO_8859_1));
        for (float[] r : rows) {
            for (float x : r) {
                b.putFloat(x);
            }
        }
        return Files.write(file, b.array());
    }

    private Path corpus() throws Exception {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            lines.add("{\"id\": \"p" + i + "\", \"title\": \"Town " + i + "\", \"text\": \"Harbour town " + i
                    + " has tides, boats and a lighthouse number " + i + ".\"}");
        }
        lines.add("{\"id\": \"eiffel\", \"title\": \"Eiffel Tower\", \"text\": \"The Eiffel Tower is a wrought-iron lattice"
                + " tower in Paris.\"}");
        return Files.write(dir.resolve("corpus.jsonl"), lines);
    }

    @Test
    void passagesEmbeddedOnAnEmbeddingServerAndQueriedThere() throws Exception {
        Path corpus = corpus();
        Path index = dir.resolve("index");
        try (SimServer sim = SimServer.start()) {
            Result built = run("index", "--corpus", corpus.toString(), "--out", index.toString(), "--dense",
                    "--embedder", sim.baseUrl(), "--embedder-model", "sim-model", "--embedder-concurrency", "3");
            assertThat(built.code()).as(built.err()).isZero();
            assertThat(built.out()).contains("Indexed 151 passages", "dense sim-model");
            IndexMetadata meta = IndexMetadata.read(index);
            assertThat(meta.embeddingModel()).isEqualTo("sim-model");
            assertThat(meta.dimension()).isEqualTo(384);
            // 151 passages in batches of at most 64, plus the probe that learnt the dimension
            assertThat(sim.counters().requests(Endpoint.EMBEDDINGS)).isEqualTo(1 + 3);

            Result found = run("search", "--index", index.toString(), "--mode", "dense", "--embedder", sim.baseUrl(),
                    "-k", "1", "wrought", "iron", "lattice", "tower", "Paris");
            assertThat(found.code()).as(found.err()).isZero();
            assertThat(found.out()).contains("[eiffel] Eiffel Tower");

            Result otherModel = run("search", "--index", index.toString(), "--mode", "dense", "--embedder", sim.baseUrl(),
                    "--embedder-model", "other", "tower");
            assertThat(otherModel.code()).isEqualTo(2);
            assertThat(otherModel.err().strip()).isEqualTo("veracity search: this index was embedded with sim-model, not"
                    + " --embedder-model other: queries must use the passages' model");
        }
        Result noDense = run("index", "--corpus", corpus.toString(), "--out", dir.resolve("x").toString(),
                "--embedder", "http://127.0.0.1:9/v1", "--embedder-model", "m");
        assertThat(noDense.err().strip()).isEqualTo("veracity index: --embedder embeds passages for a dense index: add --dense");
    }

    /** A bad record stops the build and leaves no finished-looking index of the passages before it. */
    @Test
    void aCorpusErrorLeavesNoFinishedIndex() throws Exception {
        List<String> lines = new ArrayList<>(Files.readAllLines(corpus()));
        lines.add(120, "{\"title\": \"no id\"}");
        Path bad = Files.write(dir.resolve("bad.jsonl"), lines);
        Path index = dir.resolve("bad-index");
        Result r = run("index", "--corpus", bad.toString(), "--out", index.toString(), "--commit-every", "10");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("bad.jsonl:121: no \"_id\" or \"id\" field");
        assertThat(index.resolve(IndexMetadata.FILE)).doesNotExist();
    }

    @Test
    void precomputedVectorsImportedFromNpyAndBadOnesRefusedBeforeAnyWork() throws Exception {
        Path corpus = corpus();
        float[][] rows = new float[151][16];
        for (int i = 0; i < rows.length; i++) {
            rows[i][i % 16] = 1;
            rows[i][(i / 16) % 16] += 0.5f;
        }
        Path npy = npy(dir.resolve("emb.npy"), rows);
        Path index = dir.resolve("imported");
        Result built = run("index", "--corpus", corpus.toString(), "--out", index.toString(), "--embeddings", npy.toString(),
                "--embedding-model", "my-gpu-model");
        assertThat(built.code()).as(built.err()).isZero();
        assertThat(built.out()).contains("Indexed 151 passages", "dense my-gpu-model");
        assertThat(IndexMetadata.read(index).dimension()).isEqualTo(16);

        Path shortIds = Files.write(dir.resolve("ids.txt"), List.of("p0", "p1"));
        Path refused = dir.resolve("refused");
        Result bad = run("index", "--corpus", corpus.toString(), "--out", refused.toString(), "--embeddings", npy.toString(),
                "--embedding-ids", shortIds.toString(), "--embedding-model", "my-gpu-model");
        assertThat(bad.code()).isEqualTo(2);
        assertThat(bad.err().strip()).isEqualTo("veracity index: " + shortIds + " lists 2 passage ids but " + npy
                + " has 151 rows: one id per row, in row order");
        assertThat(refused).doesNotExist(); // refused before any work

        Result wrongDim = run("index", "--corpus", corpus.toString(), "--out", refused.toString(), "--embeddings",
                npy.toString(), "--embedding-model", "bge-small-en-v1.5-q");
        assertThat(wrongDim.err()).contains("holds 16-dimensional vectors, but bge-small-en-v1.5-q makes 384-dimensional");
        assertThat(refused).doesNotExist();
    }
}
