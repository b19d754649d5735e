package dev.veracity.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.rl.probe.BaselineData;
import dev.veracity.rl.probe.ProbeRun;
import java.nio.charset.StandardCharsets;
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
        ObjectMapper json = new ObjectMapper();
        List<JsonNode> lines = new ArrayList<>();
        int n = 0;
        for (String l : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            n++;
            if (l.isBlank()) {
                continue;
            }
            try {
                lines.add(json.readTree(l));
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalArgumentException(file + ":" + n + ": not JSON (" + e.getOriginalMessage() + ")");
            }
        }
        BaselineData.Built built = BaselineData.build(b, lines, seed);
        if (built.lines().isEmpty()) {
            throw new IllegalArgumentException("no " + baseline + " example could be built from " + file + " ("
                    + built.skipped().size() + " questions left out, e.g. " + built.skipped().stream().findFirst()
                    .orElse("none") + "); probe with --keep > 0 and more samples");
        }
        List<String> text = new ArrayList<>();
        for (ObjectNode o : built.lines()) {
            text.add(json.writeValueAsString(o));
        }
        Path tmp = out.resolveSibling(out.getFileName() + ".tmp");
        Files.write(tmp, text, StandardCharsets.UTF_8);
        Files.move(tmp, out, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        System.out.printf("%s: %d examples from %d questions (%d left out) in %s; next: ./veracity rl export --%s %s ...%n",
                baseline, built.lines().size(), built.questions(), built.skipped().size(), out,
                b == BaselineData.Baseline.DPO ? "pairs" : "responses", out);
        built.skipped().stream().limit(5).forEach(s -> System.err.println("  left out " + s));
        return 0;
    }
}
