package dev.veracity.retrieval.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.veracity.retrieval.Embedder;
import dev.veracity.retrieval.LocalEmbedders;
import dev.veracity.retrieval.Passage;
import dev.veracity.retrieval.corpus.Document;
import dev.veracity.retrieval.embed.Npy;
import dev.veracity.retrieval.embed.NpyFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Importing precomputed passage vectors from .npy files into the HNSW index. */
class PrecomputedVectorsTest {

    static final int N = 300;
    static final int DIM = 8;

    @TempDir
    Path dir;

    static float[][] rows(long seed) {
        Random r = new Random(seed);
        float[][] v = new float[N][DIM];
        for (float[] row : v) {
            for (int d = 0; d < DIM; d++) {
                row[d] = (float) r.nextGaussian();
            }
        }
        return v;
    }

    static List<Document> corpus() {
        List<Document> docs = new ArrayList<>();
        for (int i = 0; i < N; i++) {
            docs.add(new Document("doc" + i, "Title " + i, "text of passage " + i));
        }
        return docs;
    }

    /** Queries "row:I" with row I's vector, under the imported model's name. */
    static Embedder queries(float[][] rows, String name) {
        return new Embedder() {
            @Override
            public List<float[]> embed(List<String> texts) {
                return texts.stream().map(t -> rows[Integer.parseInt(t.substring(4))].clone()).toList();
            }

            @Override
            public int dimension() {
                return DIM;
            }

            @Override
            public String name() {
                return name;
            }
        };
    }

    private Path build(Path npy, Path ids, List<Document> docs) throws Exception {
        Path index = dir.resolve("index-" + System.nanoTime());
        try (PrecomputedVectors v = PrecomputedVectors.open(npy, ids, "my-model");
             IndexBuilder b = IndexBuilder.builder().vectors(v).open(index)) {
            b.addAll(docs);
        }
        return index;
    }

    @Test
    void rowsInCorpusOrderBecomeThePassagesVectors() throws Exception {
        float[][] rows = rows(1);
        Path index = build(Npy.write(dir.resolve("emb.npy"), rows, 1), null, corpus());
        IndexMetadata meta = IndexMetadata.read(index);
        assertThat(meta.embeddingModel()).isEqualTo("my-model");
        assertThat(meta.dimension()).isEqualTo(DIM);
        try (LuceneIndex open = LuceneIndex.open(index)) {
            for (int i : new int[] {0, 17, N - 1}) {
                List<Passage> hits = open.dense(queries(rows, "my-model")).search("row:" + i, 1);
                assertThat(hits.getFirst().id()).isEqualTo("doc" + i);
                assertThat(hits.getFirst().score()).isGreaterThan(0.999f); // (1 + cos) / 2 of the same direction
            }
            assertThatThrownBy(() -> open.dense(queries(rows, "other-model"))).hasMessageContaining("embedded with my-model");
        }
    }

    @Test
    void anIdsFileMapsRowsToPassagesInAnyOrder() throws Exception {
        float[][] rows = rows(2);
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < N; i++) {
            order.add(i);
        }
        Collections.shuffle(order, new Random(3));
        float[][] shuffled = new float[N][];
        List<String> ids = new ArrayList<>();
        for (int r = 0; r < N; r++) {
            shuffled[r] = rows[order.get(r)];
            ids.add("doc" + order.get(r));
        }
        Path idsFile = Files.write(dir.resolve("ids.txt"), ids);
        Path index = build(Npy.write(dir.resolve("emb.npy"), shuffled, 2), idsFile, corpus());
        try (LuceneIndex open = LuceneIndex.open(index)) {
            assertThat(open.dense(queries(rows, "my-model")).search("row:42", 1).getFirst().id()).isEqualTo("doc42");
        }
    }

    @Test
    void badFilesAreRefusedWithOneLineBeforeAnyWork() throws Exception {
        byte[] eight = new byte[8 * 4 * 2];
        assertRefused(Npy.write(dir.resolve("f8.npy"), "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 4), }",
                eight, 1), "dtype '<f8' (float64)");
        assertRefused(Npy.write(dir.resolve("be.npy"), "{'descr': '>f4', 'fortran_order': False, 'shape': (2, 8), }",
                eight, 1), "big-endian float32");
        assertRefused(Npy.write(dir.resolve("f.npy"), "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 8), }",
                eight, 1), "fortran_order is True");
        assertRefused(Npy.write(dir.resolve("3d.npy"), "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2, 4), }",
                eight, 1), "not two-dimensional");
        assertRefused(Npy.write(dir.resolve("short.npy"), "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 8), }",
                eight, 1), "truncated");
        assertRefused(Files.write(dir.resolve("text.npy"), "id,vector\n".getBytes()), "not a NumPy .npy file");

        Path ok = Npy.write(dir.resolve("ok.npy"), rows(4), 1);
        Path fewIds = Files.write(dir.resolve("few.txt"), List.of("doc1", "doc2"));
        assertThatThrownBy(() -> PrecomputedVectors.open(ok, fewIds, "my-model"))
                .hasMessage(fewIds + " lists 2 passage ids but " + ok + " has " + N + " rows: one id per row, in row order");
        List<String> twice = new ArrayList<>(corpus().stream().map(Document::id).toList());
        twice.set(5, "doc4");
        Path dup = Files.write(dir.resolve("dup.txt"), twice);
        assertThatThrownBy(() -> PrecomputedVectors.open(ok, dup, "my-model")).hasMessageContaining("'doc4' is listed twice");
        assertThatThrownBy(() -> PrecomputedVectors.open(ok, null, LocalEmbedders.BGE_SMALL))
                .hasMessageContaining("holds 8-dimensional vectors, but bge-small-en-v1.5-q makes 384-dimensional ones");
    }

    private static void assertRefused(Path npy, String message) {
        assertThatThrownBy(() -> PrecomputedVectors.open(npy, null, "my-model"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message)
                .hasMessageStartingWith(npy.toString())
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void aCorpusThatDoesNotLineUpWithTheRowsLeavesTheIndexUnfinished() throws Exception {
        Path npy = Npy.write(dir.resolve("emb.npy"), rows(5), 1);
        List<Document> more = new ArrayList<>(corpus());
        more.add(new Document("extra", "", "one passage too many"));
        assertThatThrownBy(() -> build(npy, null, more)).hasMessageContaining("more passages than");
        List<Document> fewer = corpus().subList(0, N - 1);
        Path index = dir.resolve("fewer");
        assertThatThrownBy(() -> {
            try (PrecomputedVectors v = PrecomputedVectors.open(npy, null, "my-model");
                 IndexBuilder b = IndexBuilder.builder().vectors(v).commitEvery(64).open(index)) {
                b.addAll(fewer);
            }
        }).hasMessageContaining("the corpus has " + (N - 1) + " passages but");
        assertThat(Files.exists(index.resolve(IndexMetadata.FILE))).isFalse();
        // what the failed build leaves is its last commit, which says truly how many passages it holds (a resume
        // relies on that): the passages added after it are not committed when the builder closes on the failure
        try (var d = org.apache.lucene.store.FSDirectory.open(index); var reader = org.apache.lucene.index.DirectoryReader.open(d)) {
            assertThat(reader.getIndexCommit().getUserData().get(IndexBuilder.PASSAGES))
                    .isEqualTo(Integer.toString(reader.maxDoc()));
            assertThat(reader.maxDoc()).isPositive().isLessThan(N - 1);
        }
    }

    /** The same check on a file NumPy itself wrote, when python3 with numpy is here (skipped otherwise). */
    @Test
    void readsWhatNumpySaves() throws Exception {
        Path script = Files.writeString(dir.resolve("save.py"), """
                import sys, numpy as np
                a = (np.arange(6 * 5, dtype=np.float64).reshape(6, 5) / 7).astype(np.float32)
                np.save(sys.argv[1] + '/c.npy', a)
                np.save(sys.argv[1] + '/f8.npy', a.astype(np.float64))
                np.save(sys.argv[1] + '/fortran.npy', np.asfortranarray(a))
                """);
        Process p;
        try {
            p = new ProcessBuilder("python3", script.toString(), dir.toString()).redirectErrorStream(true).start();
        } catch (java.io.IOException e) {
            assumeTrue(false, "no python3");
            return;
        }
        assumeTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "python3 without numpy");
        try (NpyFile f = NpyFile.open(dir.resolve("c.npy"))) {
            assertThat(f.rows()).isEqualTo(6);
            assertThat(f.dimension()).isEqualTo(5);
            assertThat(f.row(4)).containsExactly((float) (20 / 7.0), (float) (21 / 7.0), (float) (22 / 7.0),
                    (float) (23 / 7.0), (float) (24 / 7.0));
        }
        assertRefused(dir.resolve("f8.npy"), "float64");
        assertRefused(dir.resolve("fortran.npy"), "fortran_order is True");
    }
}
