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

/** {@code ./veracity compare}: eval runs side by side, every metric with n and a 95% bootstrap interval. */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = "Print a table comparing eval output folders: one row per run, each metric with its n and a 95%%"
                + " percentile bootstrap interval (fixed seed, reproducible), the judge's accuracy over parsed verdicts,"
                + " calls, tokens and seconds per question, parse failures. One table per dataset.")
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
            description = "Also print each run's paired difference from this run on the questions both answered"
                    + " (95%% paired bootstrap interval, two-sided p, questions better and worse).")
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
            base = ComparisonTable.load(List.of(baseline)).getFirst();
        }
        ComparisonTable table = ComparisonTable.of(loaded, resamples, Bootstrap.DEFAULT_SEED);
        spec.commandLine().getOut().print(table.format(f));
        if (f == ComparisonTable.Format.CSV) { // text, markdown and json say it in the table
            table.partial().forEach((run, why) -> spec.commandLine().getErr().println("compare: " + run
                    + " is a partial run (" + why + ")"));
        }
        if (base != null) {
            spec.commandLine().getOut().print("\n" + dev.veracity.eval.report.PairedComparison.text(base,
                    dev.veracity.eval.report.PairedComparison.against(base, loaded, resamples, Bootstrap.DEFAULT_SEED)));
        }
        spec.commandLine().getOut().flush();
        return 0;
    }
}
