package dev.veracity.cli;

import dev.veracity.eval.report.Bootstrap;
import dev.veracity.eval.report.ComparisonTable;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ./veracity compare}: eval runs side by side, every metric with n and a 95% bootstrap interval, the cost per
 * question, the failed questions, and with {@code --baseline} the paired differences; each format prints one document.
 */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = "Print a table comparing eval output folders: one row per run (its model and retrieval beside"
                + " it), each metric with its n and a 95%% percentile bootstrap interval (fixed seed, reproducible), the"
                + " judge's accuracy over parsed verdicts, calls (requests) and samples per question, tokens per question,"
                + " the share of samples the response cache served, wall and model seconds per question, parse failures"
                + " and failed questions (listed under the table). One table per dataset; every format is one document.")
final class CompareCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "RUN_DIR", description = "Eval output folders (with summary.json).")
    List<Path> runs;

    @Option(names = "--format", defaultValue = "text", paramLabel = "FORMAT",
            description = "text, csv, json or markdown (default ${DEFAULT-VALUE}).")
    String format;

    @Option(names = "--resamples", defaultValue = "" + Bootstrap.DEFAULT_RESAMPLES, paramLabel = "N",
            description = "Bootstrap resamples (default ${DEFAULT-VALUE}).")
    int resamples;

    @Option(names = "--baseline", paramLabel = "RUN_DIR",
            description = "Also give each run's paired difference from this run on the questions both answered"
                    + " (95%% paired bootstrap interval; two-sided p of the exact McNemar test for 0/1 metrics, of the"
                    + " sign-flip permutation test otherwise; questions better and worse), inside the same document.")
    Path baseline;

    @Override
    public Integer call() {
        ComparisonTable.Format f;
        try {
            f = ComparisonTable.Format.valueOf(format.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--format must be text, csv, json or markdown, got '" + format + "'");
        }
        if (resamples < 1) {
            throw new IllegalArgumentException("--resamples must be >= 1, got " + resamples);
        }
        List<dev.veracity.eval.report.RunDir> loaded = ComparisonTable.load(runs);
        dev.veracity.eval.report.RunDir base = null;
        if (baseline != null) {
            // a baseline among the runs is the run already read, not a second copy of it
            Path b = baseline.toAbsolutePath().normalize();
            base = loaded.stream().filter(r -> r.dir().toAbsolutePath().normalize().equals(b)).findFirst()
                    .orElseGet(() -> ComparisonTable.load(List.of(baseline)).getFirst());
        }
        ComparisonTable table = ComparisonTable.of(loaded, resamples, Bootstrap.DEFAULT_SEED, base);
        // the text fits the terminal (COLUMNS, else its size, else 80); the file formats carry every column
        spec.commandLine().getOut().print(f == ComparisonTable.Format.TEXT ? table.text(Terminal.columns()) : table.format(f));
        if (f == ComparisonTable.Format.CSV) { // text, markdown and json say it in the table
            table.partial().forEach((run, why) -> spec.commandLine().getErr().println("compare: " + run
                    + " is a partial run (" + why + ")"));
        }
        spec.commandLine().getOut().flush();
        return 0;
    }
}
