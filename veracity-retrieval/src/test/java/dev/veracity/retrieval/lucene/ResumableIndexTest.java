package dev.veracity.retrieval.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.veracity.retrieval.Embedder;
import dev.veracity.retrieval.bench.SyntheticCorpus;
import dev.veracity.retrieval.corpus.Document;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An indexing process is killed (SIGKILL) mid-build; building again into its folder resumes it, with no passage twice. */
class ResumableIndexTest {

    static final int TOTAL = 12_000;
    static final int KILLED_AFTER = 7_000;
    static final int COMMIT_EVERY = 2_000;
    static final SyntheticCorpus CORPUS = SyntheticCorpus.standard();

    @TempDir
    static Path tmp;
    static Path killed;
    static long committed;

    @BeforeAll
    static void killAnIndexingProcessMidWay() throws Exception {
        killed = tmp.resolve("killed");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), KilledIndexingMain.class.getName(),
                killed.toString(), Integer.toString(KILLED_AFTER), Integer.toString(COMMIT_EVERY))
                .redirectErrorStream(true).start();
        StringBuilder output = new StringBuilder();
        BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = r.readLine()) != null && !line.startsWith("READY")) { // JVM and Lucene notices first
            output.append(line).append('\n');
        }
        assertThat(line).as("the indexing process said READY; it printed:%n%s", output).isNotNull();
        p.destroyForcibly(); // SIGKILL: no close, no shutdown hook
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(Files.exists(killed.resolve(IndexMetadata.FILE))).as("a killed build is unfinished").isFalse();
        try (var dir = FSDirectory.open(killed)) {
            committed = Long.parseLong(SegmentInfos.readLatestCommit(dir).getUserData().get(IndexBuilder.PASSAGES));
        }
        assertThat(committed).isBetween((long) COMMIT_EVERY, (long) KILLED_AFTER);
    }

    @Test
    void rebuildingResumesAtTheLastCommitWithEveryPassageOnce() throws Exception {
        Path dir = copy(killed, tmp.resolve("resumed"));
        List<Long> progress = new ArrayList<>();
        try (IndexBuilder b = IndexBuilder.create(dir, null, progress::add)) {
            assertThat(b.resumedAt()).isEqualTo(committed);
            for (long i = 0; i < TOTAL; i++) {
                b.add(CORPUS.passage(i));
            }
        }
        assertThat(progress).contains(committed, (long) TOTAL);
        try (var reader = DirectoryReader.open(FSDirectory.open(dir))) {
            assertThat(reader.maxDoc()).isEqualTo(TOTAL); // nothing added twice and deleted
            assertThat(reader.numDocs()).isEqualTo(TOTAL);
            Set<String> ids = new HashSet<>();
            StoredFields fields = reader.storedFields();
            for (int d = 0; d < reader.maxDoc(); d++) {
                ids.add(fields.document(d).get(IndexFields.ID));
            }
            assertThat(ids).hasSize(TOTAL);
            for (int i = 0; i < TOTAL; i++) {
                assertThat(ids).contains("p" + i);
            }
        }
        IndexMetadata meta = IndexMetadata.read(dir);
        assertThat(meta.passages()).isEqualTo(TOTAL);
        assertThat(meta.corpusSha256()).isEqualTo(sha256(TOTAL)); // hashed over all passages, skipped ones too
        try (LuceneIndex index = LuceneIndex.open(dir)) {
            Document d = CORPUS.passage(TOTAL - 1);
            assertThat(index.bm25().search(d.text(), 1).getFirst().id()).isEqualTo(d.id());
        }
    }

    @Test
    void anotherCorpusOrAnotherModelIsRefusedRatherThanMixedIn() throws Exception {
        Path other = copy(killed, tmp.resolve("other-corpus"));
        SyntheticCorpus different = new SyntheticCorpus(7, 1000, 100);
        assertThatThrownBy(() -> {
            try (IndexBuilder b = IndexBuilder.create(other, null, null)) {
                for (long i = 0; i < TOTAL; i++) {
                    b.add(different.passage(i));
                }
            }
        }).hasMessageContaining("is not the one").hasMessageContaining("delete the folder");

        Path dense = copy(killed, tmp.resolve("other-model"));
        Embedder fake = new Embedder() {
            @Override
            public List<float[]> embed(List<String> texts) {
                return texts.stream().map(t -> new float[] {1, 0}).toList();
            }

            @Override
            public int dimension() {
                return 2;
            }
        };
        assertThatThrownBy(() -> IndexBuilder.create(dense, fake, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unfinished index of " + committed + " passages built for BM25 only");
    }

    @Test
    void aFinishedIndexIsReplacedNotResumed() throws Exception {
        Path dir = tmp.resolve("finished");
        try (IndexBuilder b = IndexBuilder.create(dir, null, null)) {
            for (long i = 0; i < 100; i++) {
                b.add(CORPUS.passage(i));
            }
        }
        try (IndexBuilder b = IndexBuilder.create(dir, null, null)) {
            assertThat(b.resumedAt()).isZero();
            assertThat(Files.exists(dir.resolve(IndexMetadata.FILE))).as("old metadata gone while rebuilding").isFalse();
            b.add(CORPUS.passage(500));
        }
        assertThat(IndexMetadata.read(dir).passages()).isEqualTo(1);
        try (LuceneIndex index = LuceneIndex.open(dir)) {
            assertThat(index.size()).isEqualTo(1);
        }
    }

    private static String sha256(int n) throws Exception {
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        for (long i = 0; i < n; i++) {
            Document d = CORPUS.passage(i);
            md.update((d.id() + "\t" + d.title() + "\t" + d.text() + "\n").getBytes(StandardCharsets.UTF_8));
        }
        return HexFormat.of().formatHex(md.digest());
    }

    private static Path copy(Path from, Path to) throws Exception {
        Files.createDirectories(to);
        try (var files = Files.list(from)) {
            for (Path f : files.toList()) {
                if (!f.getFileName().toString().equals("write.lock")) {
                    Files.copy(f, to.resolve(f.getFileName()));
                }
            }
        }
        return to;
    }
}
