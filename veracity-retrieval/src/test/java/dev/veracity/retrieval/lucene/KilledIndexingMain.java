package dev.veracity.retrieval.lucene;

import dev.veracity.retrieval.bench.SyntheticCorpus;
import java.nio.file.Path;

/**
 * A process to kill mid-build ({@link ResumableIndexTest}): adds the first {@code stopAfter} generated passages with a
 * commit every {@code commitEvery}, says READY and waits, batches possibly still in flight, to be killed.
 */
public final class KilledIndexingMain {

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        long stopAfter = Long.parseLong(args[1]);
        long commitEvery = Long.parseLong(args[2]);
        SyntheticCorpus corpus = SyntheticCorpus.standard();
        IndexBuilder b = IndexBuilder.builder().commitEvery(commitEvery).open(dir);
        for (long i = 0; i < stopAfter; i++) {
            b.add(corpus.passage(i));
        }
        System.out.println("READY " + b.count());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE); // never closed: the test kills us
    }
}
