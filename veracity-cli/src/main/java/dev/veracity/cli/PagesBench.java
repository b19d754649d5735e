package dev.veracity.cli;

import dev.veracity.retrieval.bench.PageStoreBenchmark;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ./veracity bench pages}: the ReAct page store's build rate, opening time and Search steps per second. */
@Command(name = "pages", mixinStandardHelpOptions = true,
        description = "Build a page store of generated pages, open it, and print ReAct Search steps per second (hits"
                + " and misses with their Similar list).")
final class PagesBench implements Callable<Integer> {

    @Option(names = "--pages", defaultValue = "200000", description = "Pages in the store (default ${DEFAULT-VALUE}).")
    long pages;

    @Option(names = "--searches", defaultValue = "20000", description = "Timed Search steps (default ${DEFAULT-VALUE}).")
    int searches;

    @Option(names = "--work-dir", paramLabel = "DIR", description = "Where the store goes (default: a temporary directory, deleted after).")
    Path workDir;

    @Override
    public Integer call() throws Exception {
        if (pages < 1 || searches < 2) {
            throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this),
                    "--pages must be >= 1 and --searches >= 2");
        }
        Path dir = workDir != null ? Files.createDirectories(workDir) : Files.createTempDirectory("veracity-bench-pages");
        try {
            PageStoreBenchmark.run(dir, pages, searches, System.out);
        } finally {
            if (workDir == null) {
                try (var files = Files.walk(dir)) {
                    files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
        }
        return 0;
    }
}
