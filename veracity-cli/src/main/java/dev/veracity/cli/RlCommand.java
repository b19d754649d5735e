package dev.veracity.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code ./veracity rl}: tools for the RL trainers we plug into (no trainer of our own). */
@Command(name = "rl", mixinStandardHelpOptions = true,
        description = "RL trainer tools: training data for the trainers, advantages as VeRL, TRL and OpenRLHF compute them,"
                + " multi-agent records of any run and what a trainer would learn from them, online training with AReaL.",
        subcommands = {RlExportCommand.class, RlAdvantagesCommand.class, RlRecordsCommand.class, RlInspectCommand.class,
                RlRolloutCommand.class})
final class RlCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
