package dev.veracity.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code ./veracity} command line. */
@Command(name = "veracity", mixinStandardHelpOptions = true, version = "Veracity 0.1.0",
        description = "Trustworthy retrieval-augmented answers: multi-agent methods against hallucination.",
        subcommands = {DemoCommand.class, EvalCommand.class, MethodsCommand.class, ScoreCommand.class, ReportCommand.class, VerifyCommand.class,
                IndexCommand.class, SearchCommand.class, ServeRetrievalCommand.class, SimCommand.class,
                BenchCommand.class,
                TracesCommand.class, RamdocsCommand.class,
                CommandLine.HelpCommand.class})
public final class VeracityCli implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    /** Builds the command line with Veracity's error handling: a bad flag or a bad setting prints one clear line. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new VeracityCli());
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            if (ex instanceof IllegalArgumentException || ex instanceof dev.veracity.llm.LlmException
                    || ex instanceof java.io.UncheckedIOException || ex instanceof IllegalStateException) {
                cmd.getErr().println("veracity " + cmd.getCommandName() + ": " + ex.getMessage());
                return 2;
            }
            if (ex instanceof java.net.BindException) {
                cmd.getErr().println("veracity " + cmd.getCommandName() + ": cannot listen on that port (" + ex.getMessage()
                        + "); pick another --port or stop what uses it");
                return 2;
            }
            if (ex instanceof java.io.IOException) {
                cmd.getErr().println("veracity " + cmd.getCommandName() + ": " + ex.getClass().getSimpleName() + ": "
                        + ex.getMessage());
                return 2;
            }
            throw ex;
        });
        return cl;
    }

    public static void main(String[] args) {
        // Lucene announces its vector API at INFO on every start: keep the console for our output.
        java.util.logging.Logger.getLogger("org.apache.lucene").setLevel(java.util.logging.Level.WARNING);
        System.exit(commandLine().execute(args));
    }
}
