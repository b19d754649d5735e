package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Member;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The option groups several commands share (server, dataset, bench load, model, retrieval) are declared once, in their
 * mixin: no command declares a flag of a group itself, and each command keeps its own defaults through the mixin's
 * constructor, shown in its help.
 */
class SharedOptionsTest {

    /** Each group flag and the one class that declares it. */
    private static final Map<String, Class<?>> GROUPS = new LinkedHashMap<>();

    static {
        for (String f : List.of("--host", "--port", "--max-body-mb", "--max-concurrent-requests", "--deadline-seconds",
                "--stop-grace-seconds")) {
            GROUPS.put(f, ServerOptions.class);
        }
        for (String f : List.of("--dataset", "--data", "--limit")) {
            GROUPS.put(f, DatasetOptions.class);
        }
        GROUPS.put("--latency-ms", BenchLoad.Latency.class);
        GROUPS.put("--warmup", BenchLoad.Warmup.class);
        GROUPS.put("--questions", BenchLoad.Questions.class);
        GROUPS.put("--requests", BenchLoad.Requests.class);
        GROUPS.put("--clients", BenchLoad.Requests.class);
        GROUPS.put("--llm-base-url", ModelOptions.class);
        GROUPS.put("--model", ModelOptions.class);
        GROUPS.put("--index", RetrievalOptions.class);
    }

    /**
     * Flags that share a group flag's name but not its meaning, so stay their command's own: each says why.
     */
    private static final Set<String> OTHER_MEANING = Set.of(
            "sim --port",                 // the simulator: a test server with neither --host nor the server limits
            "sim --model",                // the model names the simulator answers to, not the model to call
            "index --dataset",            // optional: the loader of --format dataset; --corpus is the file
            "reproduce --data",           // DATASET=FILE per recipe dataset, from the dataset cache by default
            "reproduce --limit",          // the first N of the paper's selection per run, not of a file
            "demo --data",                // optional RAMDocs questions instead of the bundled ones
            "demo --limit",               // the bundled (or --data) questions, no --dataset
            "bench madam --data",         // optional RAMDocs file for the benchmark
            "bench soak --data",          // the same
            "bench run --data",           // the same
            "bench startup --data",       // the same
            "ramdocs build --limit",      // records written, not questions read
            "serve-retrieval --index",    // required: the index served, not a retrieval choice for a method
            "rl rollout --index",         // c3po's search index with its own --search-mode
            "rollout c3po --index",       // the same
            "search --index");            // required: the index searched

    @Test
    void everyGroupFlagIsDeclaredOnlyInItsMixin() {
        List<String> declaredElsewhere = new ArrayList<>();
        Set<String> exceptionsSeen = new java.util.HashSet<>();
        walk(VeracityCli.commandLine(), cl -> {
            CommandSpec spec = cl.getCommandSpec();
            String command = spec.qualifiedName(" ").replaceFirst("^veracity ?", "");
            for (OptionSpec o : spec.options()) {
                Class<?> mixin = GROUPS.get(o.longestName());
                if (mixin == null || !(o.userObject() instanceof Member m)) {
                    continue;
                }
                if (OTHER_MEANING.contains(command + " " + o.longestName())) {
                    exceptionsSeen.add(command + " " + o.longestName());
                } else if (m.getDeclaringClass() != mixin) {
                    declaredElsewhere.add(command + " " + o.longestName() + " in " + m.getDeclaringClass().getSimpleName());
                }
            }
        });
        assertThat(declaredElsewhere).isEmpty();
        assertThat(exceptionsSeen).as("every exception names a flag that exists").isEqualTo(OTHER_MEANING);
    }

    private static void walk(CommandLine cl, java.util.function.Consumer<CommandLine> visit) {
        visit.accept(cl);
        cl.getSubcommands().values().forEach(c -> walk(c, visit));
    }

    /** A mixin built with the command's defaults: picocli 4.7.7 shows them as ${DEFAULT-VALUE} and parses to them. */
    @Test
    void eachServerKeepsItsDefaultsThroughTheMixin() {
        ServeCommand serve = new ServeCommand();
        ServeRetrievalCommand retrieval = new ServeRetrievalCommand();
        ServeRewardsCommand rewards = new ServeRewardsCommand();
        record Defaults(Object command, java.util.function.Supplier<ServerOptions> http, String[] args, int port,
                        double deadline, double grace) {
        }
        for (Defaults d : List.of(new Defaults(serve, () -> serve.http, new String[0], 8080, 300, 30),
                new Defaults(retrieval, () -> retrieval.http, new String[] {"--index", "idx"}, 8000, 120, 5),
                new Defaults(rewards, () -> rewards.http, new String[] {"--reward", "em"}, 5000, 100, 5))) {
            CommandLine cl = new CommandLine(d.command());
            String name = cl.getCommandName();
            String help = cl.getUsageMessage(CommandLine.Help.Ansi.OFF).replaceAll("\\s+", " ");
            assertThat(help).as(name)
                    .contains("Port (0 picks a free one; default " + d.port() + ").")
                    .contains("(default 127.0.0.1: this machine only;")
                    .contains("flagged (default " + d.deadline() + ").")
                    .contains("before they are cancelled (default " + d.grace() + ").")
                    .contains("else 413 before it is read (default 16).")
                    .contains("then get 429 (default 256).");
            List<String> changed = new ArrayList<>(List.of(d.args()));
            changed.addAll(List.of("--port", "1", "--deadline-seconds", "2", "--max-body-mb", "3"));
            cl.parseArgs(changed.toArray(String[]::new)); // changed, then reset by the next parse
            cl.parseArgs(d.args());
            ServerOptions http = d.http().get();
            assertThat(List.<Object>of(http.port, http.deadlineSeconds, http.stopGraceSeconds, http.maxBodyMb,
                    http.maxConcurrentRequests, http.host)).as(name)
                    .containsExactly(d.port(), d.deadline(), d.grace(), 16, 256, "127.0.0.1");
        }
    }

    @Test
    void eachBenchKeepsItsLoadDefaults() {
        CommandLine bench = VeracityCli.commandLine().getSubcommands().get("bench");
        Map<String, List<String>> expected = Map.of(
                "llm", List.of("--warmup=N Untimed work before measuring, for the JIT to settle, counted as the bench"
                        + " counts what it measures (default 15000).", "its time to the first token (default 200)."),
                "c3po", List.of("Questions (default 20).", "The model client's concurrency limit (default 32).",
                        "(default 2)."),
                "madam", List.of("Questions (default 30).", "concurrency limit (default 64).", "first token (default 100)."),
                "rewards", List.of("Measured requests (default 10000).", "Concurrent clients (default 64).",
                        "(default 5000)."),
                "serve", List.of("Measured requests (default 1000).", "Concurrent clients (default 50).",
                        "(default 3000)."),
                "soak", List.of("Questions (default 500).", "first token (default 5)."),
                "memory", List.of("Questions (default 100000)."));
        expected.forEach((name, texts) -> {
            String help = bench.getSubcommands().get(name).getUsageMessage(CommandLine.Help.Ansi.OFF)
                    .replaceAll("\\s+", " ");
            texts.forEach(t -> assertThat(help).as(name).contains(t));
        });
        assertThat(VeracityCli.commandLine().getSubcommands().get("demo").getUsageMessage(CommandLine.Help.Ansi.OFF)
                .replaceAll("\\s+", " ")).contains("first token (default 20).");
    }

    /** --limit is refused as it is parsed, by every command with the dataset flags (eval's check, now everyone's). */
    @Test
    void aNegativeLimitIsAUsageErrorEverywhere() {
        for (List<String> command : List.of(List.of("eval", "--method", "no-rag"), List.of("probe"),
                List.of("rl", "export", "--format", "verl", "--prompt", "no-rag", "--out", "x.parquet"),
                List.of("rl", "rollout", "--method", "march", "--areal", "http://127.0.0.1:9", "--out", "o"),
                List.of("rollout", "c3po", "--out", "o"))) {
            List<String> args = new ArrayList<>(command);
            args.addAll(List.of("--dataset", "ramdocs", "--data", "nowhere.jsonl", "--limit", "-2"));
            if (command.getFirst().equals("eval") || command.getFirst().equals("probe")) {
                args.addAll(List.of("--out", "o"));
            }
            CliRun.Result r = CliRun.run(args.toArray(String[]::new));
            assertThat(r.code()).as(command.toString()).isEqualTo(2);
            assertThat(r.err()).as(command.toString()).contains("--limit must be >= 0, was -2")
                    .doesNotContain("no dataset file");
        }
    }
}
