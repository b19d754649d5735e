package dev.veracity.cli;

import dev.veracity.eval.results.ResultsJson;
import dev.veracity.eval.results.RunConfiguration;
import dev.veracity.eval.run.ShardMerge;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ./veracity merge}: the run folders of {@code eval --shard I/N} joined into one run folder, equal to the
 * unsharded run's ({@link ShardMerge}); refused, before anything is written, for shards that do not make one run.
 */
@Command(name = "merge", mixinStandardHelpOptions = true,
        description = "Join the --out folders of eval --shard I/N into one run folder: results in the dataset's order,"
                + " summary.json folded afresh from them (as the unsharded run's), run.json without the shard, traces"
                + " merged. Refuses shards of different configurations or --limit, overlapping shards, unfinished or"
                + " missing shards (unless allowed) and an --out that is not empty.")
final class MergeCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "RUN_DIR", description = "The shards' eval output folders.")
    List<Path> runs;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "The merged run folder (new or empty).")
    Path out;

    @Option(names = "--allow-missing", description = "Merge a subset of the shards (the merged run.json records which).")
    boolean allowMissing;

    @Option(names = "--allow-unfinished", description = "Merge a shard whose eval has not finished (what it has so far).")
    boolean allowUnfinished;

    @Override
    public Integer call() {
        ShardMerge.Result r = ShardMerge.merge(runs, out, new ShardMerge.Allow(allowMissing, allowUnfinished,
                sideFiles(runs)));
        spec.commandLine().getErr().println("Merged " + runs.size() + " shard folder" + (runs.size() == 1 ? "" : "s")
                + " (" + (r.shard().whole() ? "every shard of " + r.shard().count() : "shards " + r.shard()) + "): "
                + r.answered() + " questions answered, " + r.failed() + " failed, " + r.traces() + " traced calls."
                + " Run folder: " + out);
        spec.commandLine().getOut().print(dev.veracity.eval.report.ComparisonTable.of(
                List.of(dev.veracity.eval.report.RunDir.load(out))).compact(Terminal.columns()));
        spec.commandLine().getOut().flush();
        return 0;
    }

    /** The file the shards' method writes beside its answers (its training records), when the method is known here. */
    private static List<String> sideFiles(List<Path> runs) {
        Path config = runs.isEmpty() ? null : runs.getFirst().resolve(dev.veracity.eval.run.RunConfig.FILE);
        if (config == null || !Files.isRegularFile(config)) {
            return List.of(); // the merge says what is wrong with the folder
        }
        RunConfiguration c = ResultsJson.runConfiguration(config);
        try {
            return dev.veracity.methods.Methods.byName(c.method()) instanceof dev.veracity.method.TrainingRecords t
                    ? List.of(t.recordsFile()) : List.of();
        } catch (IllegalArgumentException e) {
            return List.of(); // a plug-in's method not loaded here: its side file is not joined
        }
    }
}
