package dev.veracity.cli;

import dev.veracity.plugin.Plugins;
import java.util.List;

/** Veracity's own subcommands, contributed as a plug-in's are, listed first. */
public final class BuiltInCommands implements CommandProvider, Plugins.Ordered {

    @Override
    public List<Class<?>> commands() {
        return List.of(DemoCommand.class, AskCommand.class, EvalCommand.class, MethodsCommand.class, ScoreCommand.class,
                ReportCommand.class, CompareCommand.class, VerifyCommand.class, RewardCommand.class, RlCommand.class,
                RolloutCommand.class, ProbeCommand.class, ProbeDataCommand.class, IndexCommand.class, SearchCommand.class,
                ServeRetrievalCommand.class, ServeRewardsCommand.class, ServeCommand.class, McpCommand.class, SimCommand.class,
                BenchCommand.class, TracesCommand.class, RamdocsCommand.class, ReproduceCommand.class,
                DatasetsCommand.class, MergeCommand.class);
    }

    @Override
    public int order() {
        return BUILT_IN;
    }
}
