package dev.veracity.cli;

import dev.veracity.eval.report.HtmlReport;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code ./veracity report}: an HTML report comparing evaluation runs, with charts and per-question transcripts. */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = "Write an HTML report of one or more eval output folders: a comparison table, charts, and a"
                + " page per question with the full agent transcript.")
final class ReportCommand implements Callable<Integer> {

    @Parameters(arity = "1..*", paramLabel = "DIR", description = "Eval output folders (with summary.json), or rollout"
            + " folders (with trees.jsonl: each gets its own tree report in --out/NAME-trees).")
    List<Path> runs;

    @Option(names = "--out", defaultValue = "report", paramLabel = "DIR", description = "Report folder (default ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--baseline", paramLabel = "RUN_DIR", description = "The run each dataset page takes paired"
            + " differences from (added to the report when not among DIR; default: each dataset's first run).")
    Path baseline;

    @Override
    public Integer call() {
        if (baseline != null && !java.nio.file.Files.isRegularFile(baseline.resolve("summary.json"))
                && !java.nio.file.Files.isRegularFile(baseline.resolve("results.jsonl"))) {
            throw new IllegalArgumentException("--baseline " + baseline + " is not an eval output folder (no summary.json"
                    + " or results.jsonl)");
        }
        List<Path> evals = runs.stream().filter(d -> !dev.veracity.eval.report.TreeReport.isRolloutFolder(d)).toList();
        for (Path d : runs) {
            if (dev.veracity.eval.report.TreeReport.isRolloutFolder(d)) {
                Path name = d.toAbsolutePath().normalize().getFileName();
                Path trees = dev.veracity.eval.report.TreeReport.write(d, out.resolve((name == null ? "rollout" : name) + "-trees"));
                System.out.println("Rollout trees: " + trees.toAbsolutePath().toUri());
            }
        }
        if (!evals.isEmpty()) {
            int width = Terminal.columns();
            Path index;
            // steps: the runs read, each run's pages, the dataset pages, the charts
            try (TaskProgress progress = TaskProgress.start("Writing the report", "steps", -1)) {
                index = HtmlReport.write(evals, out, baseline,
                        note -> System.err.print(dev.veracity.eval.report.TextTable.wrap("report: " + note, width, "", "  ")),
                        (done, of) -> {
                            progress.total(of);
                            progress.stepTo(done);
                        });
            }
            System.out.println("Report: " + index.toAbsolutePath().toUri());
        }
        return 0;
    }
}
