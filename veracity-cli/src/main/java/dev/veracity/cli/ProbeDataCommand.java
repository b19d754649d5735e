package dev.veracity.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.veracity.rl.jsonl.AtomicJsonlWriter;
import dev.veracity.rl.jsonl.JsonlRows;
import dev.veracity.rl.probe.BaselineData;
import dev.veracity.rl.probe.ProbeRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ./veracity probe-data}: TruthRL's baselines' training data from a probe, as input of {@code rl export}. */
@Command(name = "probe-data", mixinStandardHelpOptions = true,
        description = {"Build the training data of TruthRL's baselines from a probe folder: r-tuning and rft write"
                + " {\"id\", \"response\"} lines (rl export --responses), dpo writes {\"id\", \"chosen\", \"rejected\"}"
                + " (rl export --pairs)."})
final class ProbeDataCommand implements Callable<Integer> {

    @Option(names = "--from", required = true, paramLabel = "DIR", description = "A probe's output folder (probe.jsonl).")
    Path from;

    @Option(names = "--baseline", required = true, paramLabel = "NAME", description = "r-tuning, rft or dpo.")
    String baseline;

    @Option(names = "--out", required = true, paramLabel = "FILE", description = "JSON lines for rl export.")
    Path out;

    @Option(names = "--seed", defaultValue = "0", paramLabel = "S", description = "Seed of DPO's random choices (default ${DEFAULT-VALUE}).")
    long seed;

    @Override
    public Integer call() throws Exception {
        BaselineData.Baseline b = BaselineData.baseline(baseline);
        Path file = from.resolve(ProbeRun.RESULTS);
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("no " + ProbeRun.RESULTS + " in " + from + "; run ./veracity probe --out "
                    + from + " first");
        }
        if (out.toAbsolutePath().getParent() != null && !Files.isDirectory(out.toAbsolutePath().getParent())) {
            throw new IllegalArgumentException("the folder of --out " + out + " does not exist");
        }
        List<JsonNode> lines = new ArrayList<>();
        JsonlRows.forEach(file, (n, row) -> lines.add(row));
        BaselineData.Built built = BaselineData.build(b, lines, seed);
        if (built.lines().isEmpty()) {
            throw new IllegalArgumentException("no " + baseline + " example could be built from " + file + " ("
                    + built.skipped().size() + " questions left out, e.g. " + built.skipped().stream().findFirst()
                    .orElse("none") + "); probe with --keep > 0 and more samples");
        }
        try (AtomicJsonlWriter w = new AtomicJsonlWriter(out)) {
            built.lines().forEach(w::write);
            w.commit();
        }
        System.out.printf("%s: %d examples from %d questions (%d left out) in %s; next: ./veracity rl export --%s %s ...%n",
                baseline, built.lines().size(), built.questions(), built.skipped().size(), out,
                b == BaselineData.Baseline.DPO ? "pairs" : "responses", out);
        built.skipped().stream().limit(5).forEach(s -> System.err.println("  left out " + s));
        return 0;
    }
}
