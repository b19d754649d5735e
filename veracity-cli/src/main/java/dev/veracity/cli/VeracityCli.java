package dev.veracity.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code ./veracity} command line. */
@Command(name = "veracity", mixinStandardHelpOptions = true, versionProvider = VeracityVersion.class,
        description = "Trustworthy retrieval-augmented answers: multi-agent methods against hallucination.",
        footer = {"", "Anywhere on the command line: --debug prints a failure's stack trace; --plugins DIR loads the"
                + " plug-in jars of DIR (methods, datasets, rewards, judges, commands; else the folder named by"
                + " VERACITY_PLUGINS)."})
public final class VeracityCli implements Runnable {

    /**
     * The subcommands, in the order the help lists them: every {@link CommandProvider}'s ({@link BuiltInCommands} first,
     * then the plug-ins'), then help. A name two commands claim is an error naming both.
     */
    static java.util.List<Class<?>> subcommands() {
        java.util.List<Class<?>> out = new java.util.ArrayList<>();
        java.util.Map<String, Class<?>> byName = new java.util.HashMap<>();
        for (CommandProvider p : dev.veracity.plugin.Plugins.load(CommandProvider.class)) {
            for (Class<?> c : p.commands()) {
                Command annotation = c.getAnnotation(Command.class);
                if (annotation == null) {
                    throw new IllegalStateException(c.getName() + " (from " + p.getClass().getName() + ") is not a picocli"
                            + " @Command class");
                }
                Class<?> before = byName.putIfAbsent(annotation.name(), c);
                if (before != null) {
                    throw new IllegalStateException("two commands named '" + annotation.name() + "': " + before.getName()
                            + " and " + c.getName() + "; rename one of them");
                }
                out.add(c);
            }
        }
        out.add(CommandLine.HelpCommand.class);
        return java.util.List.copyOf(out);
    }

    /** The narrowest help picocli draws (it throws below it). */
    static final int MIN_HELP_COLUMNS = 55;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    /**
     * Loggers whose records are not the user's business, held here because the JDK keeps loggers weakly: a level set on
     * one nobody holds is lost at the next garbage collection, and Lucene then logged its vector line anyway. Lucene
     * announces its vector API at INFO; without the incubating Vector API module (the launcher does not add it: the JVM
     * would print "Using incubator modules" on every start) it falls back to plain Java and says so at WARNING, which
     * the user cannot act on.
     */
    static final java.util.List<java.util.logging.Logger> QUIET_LOGGERS = java.util.List.of(
            quiet("org.apache.lucene", java.util.logging.Level.WARNING),
            quiet("org.apache.lucene.internal.vectorization", java.util.logging.Level.SEVERE));

    private static java.util.logging.Logger quiet(String name, java.util.logging.Level level) {
        java.util.logging.Logger logger = java.util.logging.Logger.getLogger(name);
        logger.setLevel(level);
        return logger;
    }

    /** Whether {@code --debug} was given: failures then print their stack trace too. */
    static volatile boolean debug;

    /** Builds the command line with Veracity's error handling: a bad flag or a bad setting prints one clear line. */
    public static CommandLine commandLine() {
        return commandLine(subcommands());
    }

    /**
     * The command line for these arguments: when they name a subcommand, only that one is built. Picocli reads every
     * command's annotations when it is added (a tenth of a second for all of them), which each start would pay.
     */
    static CommandLine commandLine(String[] args) {
        java.util.List<Class<?>> all = subcommands();
        for (String a : args) {
            if (a.startsWith("-")) {
                continue;
            }
            for (Class<?> c : all) {
                Command annotation = c.getAnnotation(Command.class);
                if (c != CommandLine.HelpCommand.class && annotation != null
                        && (annotation.name().equals(a) || java.util.Arrays.asList(annotation.aliases()).contains(a))) {
                    return commandLine(java.util.List.of(c));
                }
            }
            break; // not a subcommand: the full command line answers (help, a typo with suggestions)
        }
        return commandLine(all);
    }

    static CommandLine commandLine(java.util.List<Class<?>> subcommands) {
        CommandLine cl = new CommandLine(new VeracityCli());
        // Built here rather than by addSubcommand(Class), which skips a command's modelTransformer (serve's --cache).
        subcommands.forEach(c -> cl.addSubcommand(new CommandLine(c)));
        VeracityVersion.everywhere(cl);
        cl.setParameterExceptionHandler(VeracityCli::badArguments);
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            if (debug) {
                ex.printStackTrace(cmd.getErr());
            }
            if (HeapGuard.outOfMemory(ex)) { // a worker's, handed on by a future
                HeapGuard.stop("an OutOfMemoryError");
                return HeapGuard.EXIT;
            }
            if (ex instanceof IllegalArgumentException || ex instanceof dev.veracity.llm.LlmException
                    || ex instanceof dev.veracity.eval.data.DatasetException
                    || ex instanceof dev.veracity.eval.metrics.ScoreFileException
                    || ex instanceof java.io.UncheckedIOException || ex instanceof IllegalStateException) {
                cmd.getErr().println(cmd.getCommandSpec().qualifiedName() + ": " + ex.getMessage());
                return 2;
            }
            if (ex instanceof java.net.BindException) {
                cmd.getErr().println(cmd.getCommandSpec().qualifiedName() + ": cannot listen on that port (" + ex.getMessage()
                        + "); pick another --port or stop what uses it");
                return 2;
            }
            if (ex instanceof java.io.IOException) {
                cmd.getErr().println(cmd.getCommandSpec().qualifiedName() + ": " + ex.getClass().getSimpleName() + ": "
                        + ex.getMessage());
                return 2;
            }
            // Anything else is unexpected: one line, the stack trace only with --debug.
            cmd.getErr().println(cmd.getCommandSpec().qualifiedName() + ": " + describe(ex)
                    + (debug ? "" : " (run again with --debug for the stack trace)"));
            return 1;
        });
        // help fits the terminal as the tables do; picocli refuses a width under 55 (an exception on every command),
        // so a narrower terminal gets 55-column help, which it wraps
        cl.setUsageHelpWidth(Math.max(MIN_HELP_COLUMNS, Terminal.columns()));
        return cl;
    }

    /** Why {@code --api-key} is refused, and where the key goes instead. */
    static final String API_KEY_IS_NOT_A_FLAG = "--api-key is not a flag (a key on the command line shows in process"
            + " lists and shell history): export VERACITY_API_KEY=... (or OPENAI_API_KEY), or put api-key=... in "
            + "$XDG_CONFIG_HOME/veracity/config.properties (default ~/.config/veracity/config.properties)";

    /**
     * A bad command line, as git and docker answer one: the error, "did you mean" for a mistyped option or
     * command, and where the help is; exit 2. Never the whole usage (a hundred lines that bury the one that matters).
     */
    static int badArguments(CommandLine.ParameterException ex, String[] args) {
        CommandLine cmd = ex.getCommandLine();
        java.io.PrintWriter err = cmd.getErr();
        String name = cmd.getCommandSpec().qualifiedName();
        // whatever picocli found first (a missing required option is reported before an unknown one)
        if (java.util.Arrays.stream(args).anyMatch(a -> a.equals("--api-key") || a.startsWith("--api-key="))) {
            err.println(name + ": " + API_KEY_IS_NOT_A_FLAG);
            return 2;
        }
        err.println(name + ": " + ex.getMessage());
        if (ex instanceof CommandLine.UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
            String typed = u.getUnmatched().getFirst();
            java.util.Collection<String> names = typed.startsWith("-") ? cmd.getCommandSpec().optionsMap().keySet()
                    : cmd.getSubcommands().keySet();
            String near = dev.veracity.plugin.NearestNames.didYouMean(typed.replaceFirst("=.*", ""), names);
            if (!near.isEmpty()) {
                err.println(near.strip());
            }
        }
        err.println("see '" + name + " --help'");
        return 2;
    }

    /** The innermost message worth showing: a wrapped cause's message, else the exception's type. */
    static String describe(Throwable ex) {
        Throwable t = ex;
        while (t.getCause() != null && t.getCause() != t && (t.getMessage() == null
                || t instanceof java.util.concurrent.CompletionException || t instanceof java.util.concurrent.ExecutionException)) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }

    /** The arguments without {@code --debug}, which any command accepts; sets {@link #debug}. */
    static String[] withoutDebug(String[] args) {
        java.util.List<String> rest = new java.util.ArrayList<>();
        for (String a : args) {
            if (a.equals("--debug")) {
                debug = true;
            } else {
                rest.add(a);
            }
        }
        return rest.toArray(String[]::new);
    }

    /**
     * The arguments without {@code --plugins DIR} (or {@code --plugins=DIR}), which any command accepts: the plug-in
     * folder is set before any registry is read, so every command sees the plug-ins' methods, datasets and rewards.
     *
     * @throws IllegalArgumentException for {@code --plugins} without a folder, or a folder without jars
     */
    static String[] withoutPlugins(String[] args) {
        java.util.List<String> rest = new java.util.ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--plugins") || a.startsWith("--plugins=")) {
                String dir = a.equals("--plugins") ? (i + 1 < args.length ? args[++i] : "") : a.substring("--plugins=".length());
                if (dir.isBlank() || dir.startsWith("-")) {
                    throw new IllegalArgumentException("--plugins needs a folder of plug-in jars, e.g. --plugins plugins/");
                }
                dev.veracity.plugin.Plugins.useFolder(java.nio.file.Path.of(dir));
            } else {
                rest.add(a);
            }
        }
        return rest.toArray(String[]::new);
    }

    public static void main(String[] args) {
        Carriers.apply(System.getProperties(), Runtime.getRuntime().availableProcessors()); // before any virtual thread
        QUIET_LOGGERS.size(); // the levels are set when the class initialises; kept reachable there
        String[] rest = withoutDebug(args);
        CommandLine cl;
        try {
            rest = withoutPlugins(rest);
            cl = commandLine(rest); // reads the plug-ins' commands: a clash or a broken plug-in is one line here
        } catch (IllegalArgumentException | IllegalStateException | java.io.UncheckedIOException e) {
            if (debug) {
                e.printStackTrace();
            }
            System.err.println("veracity: " + e.getMessage());
            System.exit(2);
            return;
        }
        // a heap too small for the work stops the command with one line, before minutes of collecting
        HeapGuard.install(java.util.Arrays.stream(rest).filter(a -> !a.startsWith("-")).findFirst().orElse(""));
        int code;
        try {
            code = cl.execute(rest);
        } catch (OutOfMemoryError e) {
            if (!HeapGuard.ofTheHeap(e)) {
                throw e;
            }
            HeapGuard.stop("an OutOfMemoryError");
            code = HeapGuard.EXIT;
        }
        // the guard's watchdog may have said the heap is too small while the command went on to its end
        System.exit(HeapGuard.stopping() ? HeapGuard.EXIT : code);
    }
}
