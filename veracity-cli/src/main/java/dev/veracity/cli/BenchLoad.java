package dev.veracity.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The load flags the {@code bench} commands (and {@code demo}, for its simulator) share, each declared once as a small mixin that a bench mixes in with its
 * own default (picocli shows a field's initial value as {@code ${DEFAULT-VALUE}}). A bench checks their values with its
 * others, in one line.
 */
final class BenchLoad {

    private BenchLoad() {
    }

    /**
     * {@code --latency-ms}: the simulator's latency per model call, its time to the first token (bench llm, c3po, madam,
     * rewards, run, serve, soak; demo).
     */
    static final class Latency {
        @Option(names = "--latency-ms", paramLabel = "MS",
                description = "Simulated latency per model call, its time to the first token (default ${DEFAULT-VALUE}).")
        int ms;

        Latency(int ms) {
            this.ms = ms;
        }
    }

    /**
     * {@code --warmup}: untimed work before measuring, in the unit the bench measures (llm: calls; c3po: rollouts of all
     * the questions; serve and rewards: requests; run: runs of each method).
     */
    static final class Warmup {
        @Option(names = "--warmup", paramLabel = "N", description = "Untimed work before measuring, for the JIT to settle,"
                + " counted as the bench counts what it measures (default ${DEFAULT-VALUE}).")
        int count;

        Warmup(int count) {
            this.count = count;
        }
    }

    /** {@code --questions}: how many questions a bench runs (c3po, madam, soak, memory, run). */
    static final class Questions {
        @Option(names = "--questions", paramLabel = "N", description = "Questions (default ${DEFAULT-VALUE}).")
        int count;

        Questions(int count) {
            this.count = count;
        }
    }

    /** {@code --requests} and {@code --clients}: the HTTP load on a server (serve, rewards). */
    static final class Requests {
        @Option(names = "--requests", paramLabel = "N", description = "Measured requests (default ${DEFAULT-VALUE}).")
        int requests;

        @Option(names = "--clients", paramLabel = "N", description = "Concurrent clients (default ${DEFAULT-VALUE}).")
        int clients;

        Requests(int requests, int clients) {
            this.requests = requests;
            this.clients = clients;
        }
    }

    /**
     * {@code --data}: the RAMDocs-format questions of the benches that run eval's path on RAMDocs (madam, run, startup):
     * the file given, else RAMDocs' test set found upwards from here (shared/data), else a copy of the demo's 20.
     * ({@code bench soak} has its own default: the bundled 20 reworded up to its question count.)
     */
    static final class RamdocsData {
        @Option(names = "--data", paramLabel = "FILE", description = "RAMDocs-format questions (default: shared/data's"
                + " RAMDocs test set found upwards from here, else the demo's bundled 20).")
        Path file;

        /**
         * The file to read: --data (a one-line error when it is not a file), else the shared test set, else the demo's
         * 20 copied to {@code copy} (null: a new temporary file).
         */
        Path resolve(Path copy) throws IOException {
            if (file != null) {
                if (!Files.isRegularFile(file)) {
                    throw new IllegalArgumentException("no RAMDocs file at " + file);
                }
                return file;
            }
            Path shared = MadamBench.find("ramdocs/RAMDocs_test.jsonl");
            if (shared != null) {
                return shared;
            }
            return MethodsDemo.copyBundled(copy != null ? copy : Files.createTempFile("ramdocs-20", ".jsonl"));
        }
    }

    /** {@code --concurrency}: the model client's limit on calls in flight (c3po, madam, run). */
    static final class ClientConcurrency {
        @Option(names = "--concurrency", paramLabel = "N",
                description = "The model client's concurrency limit (default ${DEFAULT-VALUE}).")
        int limit;

        ClientConcurrency(int limit) {
            this.limit = limit;
        }
    }
}
