package dev.veracity.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code ./veracity bench}: benchmarks that print numbers. */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Benchmarks that print their figures.",
        subcommands = {LlmBench.class, RetrievalBench.class, PagesBench.class, MadamBench.class, ParsersBench.class,
                RewardsBench.class, C3poBench.class, ServeBench.class, SoakBench.class, MemoryBench.class,
                EmbedBench.class, IndexBench.class, RunBench.class, ConcurrencyBench.class, StartupBench.class})
final class BenchCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
