package dev.veracity.cli;

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

    @Option(names = "--data", required = true, paramLabel = "FILE", description = "The dataset file (its release format).")
    Path file;

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
     * The dataset's registered name (an alias resolved), checked with its file before any work: an unknown name or a
     * missing file is one line.
     */
    String checkedName() {
        String registered = Datasets.spec(name).name();
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("no dataset file at " + file);
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
