package dev.veracity.retrieval.opensearch;

/**
 * A load to kill ({@link OpenSearchIndexTest#aKilledLoadResumesWithoutSendingAgain}): loads the test corpus into the
 * index named by {@code args[0]} in batches of {@code args[1]}, printing {@code PROGRESS n} after each batch, until
 * the test kills it (at any point, a bulk request perhaps half applied).
 */
public final class KilledOpenSearchLoadMain {

    public static void main(String[] args) throws Exception {
        try (OpenSearchIndexer load = OpenSearchIndexer.open(OpenSearchLocation.parse(args[0]), null,
                Integer.parseInt(args[1]), 1, n -> {
                    System.out.println("PROGRESS " + n);
                    System.out.flush();
                    try {
                        Thread.sleep(20); // leaves the test time to kill us mid-load
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                })) {
            load.addAll(OpenSearchIndexTest.corpus());
            System.out.println("DONE");
            Thread.sleep(Long.MAX_VALUE); // never finished: the test kills us before or here
        }
    }
}
