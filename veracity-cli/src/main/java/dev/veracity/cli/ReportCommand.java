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

    @Parameters(arity = "1..*", paramLabel = "DIR", description = "Eval output folders (with summary.json).")
    List<Path> runs;

    @Option(names = "--out", defaultValue = "report", paramLabel = "DIR", description = "Report folder (default ${DEFAULT-VALUE}).")
    Path out;

    @Override
    public Integer call() {
        Path index = HtmlReport.write(runs, out);
        System.out.println("Report: " + index.toAbsolutePath().toUri());
        return 0;
    }
}
