package dev.veracity.cli;

import dev.veracity.eval.data.DatasetCache;
import dev.veracity.eval.data.DatasetSpec;
import dev.veracity.eval.data.Datasets;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The dataset flags every command that reads questions from a dataset file shares ({@code eval}, {@code probe},
 * {@code rl export}, {@code rl rollout}, {@code rollout c3po}), declared once: the dataset's name in the registry,
 * its file, and how many of its questions.
 */
public final class DatasetOptions {

    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    @Option(names = "--dataset", required = true, paramLabel = "NAME", description = "Dataset format: ${COMPLETION-CANDIDATES}.",
            completionCandidates = Names.class)
    String name;

    @Option(names = "--data", paramLabel = "FILE", description = "The dataset file (its release format); default: the"
            + " dataset's file that `veracity datasets list` shows present (the download cache, or shared/data beside"
            + " the checkout).")
    Path given;

    private Path file;

    int limit;

    /** Refused as it is parsed: a negative count is a usage error, whatever the command. */
    @Option(names = "--limit", defaultValue = "0", paramLabel = "N", description = "Only the first N questions (0 = all).")
    void limit(int n) {
        if (n < 0) {
            throw new ParameterException(mixee.commandLine(), "--limit must be >= 0, was " + n);
        }
        limit = n;
    }

    /**
     * The dataset file: {@code --data}, else the dataset's first declared file that is here (as {@code datasets list}
     * finds it), said on stderr; neither is one line saying how to get one.
     */
    Path file() {
        if (file == null) {
            if (given != null) {
                file = given;
            } else {
                DatasetSpec spec = Datasets.spec(name);
                file = DatasetCache.fromEnvironment().find(spec).orElseThrow(() -> new IllegalArgumentException(
                        "--data FILE is needed: no file of " + spec.name() + " is here (see `veracity datasets list`; "
                                + (spec.downloads().isEmpty() ? "it declares no official file)"
                                : "`veracity datasets fetch " + spec.name() + "` downloads it where there is a URL)")));
                System.err.println(mixee.qualifiedName() + ": --data " + file + " (" + spec.name()
                        + "'s file, as `veracity datasets list` finds it)");
            }
        }
        return file;
    }

    /** What lm-eval says of --limit, in our words: one line on stderr before a run that scores only the first N. */
    static String limitWarning(int limit) {
        return "--limit " + limit + ": only the first " + limit + " questions, for testing; the metrics are not comparable"
                + " with a full run's or a paper's";
    }

    /**
     * The dataset's registered name (an alias resolved), checked with its file before any work: an unknown name or a
     * missing file is one line.
     */
    String checkedName() {
        String registered = Datasets.spec(name).name();
        if (!Files.isRegularFile(file())) {
            throw new IllegalArgumentException("no dataset file at " + file());
        }
        return registered;
    }

    /** The registered dataset names, for {@code ${COMPLETION-CANDIDATES}} and shell completion. */
    static final class Names extends java.util.ArrayList<String> {
        Names() {
            super(Datasets.names());
        }
    }
}
