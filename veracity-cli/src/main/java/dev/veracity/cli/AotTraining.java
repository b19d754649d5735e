package dev.veracity.cli;

import dev.veracity.sim.SimServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The training run of the launcher's start-up cache (JEP 483/514/515: the classes a run loads and links, and the
 * method profiles, kept for the next starts): the commands a user starts most, in one JVM, on the simulator. The
 * demo alone left eval's own path out (its options, the preflight, the adaptive limit, eval's ending): a start of
 * {@code eval} then loaded and linked those classes from the jars every time. Output is discarded; a failure makes
 * the launcher start without the cache.
 */
final class AotTraining {

    private AotTraining() {
    }

    public static void main(String[] args) throws Exception {
        HeapGuard.install("aot-training"); // as VeracityCli.main does, so its collector listeners' classes are kept too
        Path dir = Files.createTempDirectory("veracity-aot-training");
        int code;
        try {
            code = run("demo", "--out", dir.resolve("demo").toString(), "--limit", "3", "--latency-ms", "0", "--cache",
                    "off", "--method", "no-rag,standard-rag,cot,cot-sc,madam-rag,self-reflection,astute-rag,march");
            Path data = MethodsDemo.copyBundled(dir.resolve("ramdocs.jsonl"));
            try (SimServer sim = SimServer.start(SimCommand.simulator().build())) {
                for (String method : List.of("madam-rag", "march")) {
                    code |= run("eval", "--method", method, "--dataset", MethodsDemo.DATASET, "--data", data.toString(),
                            "--limit", "2", "--out", dir.resolve("eval-" + method).toString(), "--llm-base-url",
                            sim.baseUrl(), "--model", "sim-model", "--cache", "off", "--trace-file",
                            dir.resolve("traces-" + method + ".db").toString());
                }
            }
            code |= run("--version");
        } finally {
            deleteQuietly(dir);
        }
        System.exit(code == 0 ? 0 : 1);
    }

    /** One command as {@link VeracityCli#main} runs it, without its exit. */
    private static int run(String... args) {
        return VeracityCli.commandLine(args).execute(args);
    }

    private static void deleteQuietly(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
