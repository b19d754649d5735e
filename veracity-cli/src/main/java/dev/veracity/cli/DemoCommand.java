package dev.veracity.cli;

import dev.veracity.concurrent.Parallel;
import dev.veracity.config.VeracityConfig;
import dev.veracity.eval.data.Datasets;
import dev.veracity.eval.report.TextTable;
import dev.veracity.llm.LlmRequest;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.sim.LatencyModel;
import dev.veracity.sim.Rule;
import dev.veracity.sim.RuleMatch;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import dev.veracity.trace.CallContext;
import dev.veracity.trace.CallRecord;
import dev.veracity.trace.CallStats;
import dev.veracity.qa.QaItem;
import dev.veracity.trace.TraceStore;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code ./veracity demo}: every method on 20 RAMDocs questions against the simulator's built-in reader (or the
 * user's server), then the comparison table ({@link MethodsDemo}).
 *
 * <p>{@code demo --exchange}: one small multi-agent exchange through the whole stack — simulator over HTTP, the
 * openai-java backend, the client's limits, retries and cache, the trace store — printed call by call. Three agents
 * read one document each, concurrently; an aggregator reads their answers. Then the same exchange again, answered
 * from the cache. With {@code --llm-base-url} (or VERACITY_LLM_BASE_URL) both run against that server instead.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Run every method on 20 RAMDocs questions and print the comparison table (against the built-in"
                + " simulator unless --llm-base-url names a server).",
                "With --exchange: a small multi-agent exchange through the whole stack, call by call."})
final class DemoCommand implements Callable<Integer> {

    @picocli.CommandLine.Option(names = "--exchange",
            description = "Instead: one multi-agent exchange through the whole stack, every traced call printed, then replayed from the cache.")
    boolean exchange;

    @picocli.CommandLine.Option(names = "--out", defaultValue = ".veracity/demo", paramLabel = "DIR",
            description = "Run folders, one per method (default ${DEFAULT-VALUE}); started over on every demo.")
    Path out;

    @picocli.CommandLine.Option(names = "--data", paramLabel = "FILE",
            description = "RAMDocs-format questions instead of the bundled 20.")
    Path data;

    @picocli.CommandLine.Option(names = "--method", split = ",", paramLabel = "NAME",
            description = "Only these methods (default: every one).")
    List<String> methods = new ArrayList<>();

    @picocli.CommandLine.Option(names = "--limit", defaultValue = "0", paramLabel = "N",
            description = "Only the first N questions (0 = all).")
    int limit;

    /** The simulator's time to first token. */
    @Mixin
    BenchLoad.Latency latency = new BenchLoad.Latency(20);

    static final String QUESTION = "In which year was the Eiffel Tower completed?";
    static final List<String> DOCUMENTS = List.of(
            "The Eiffel Tower, on the Champ de Mars in Paris, was completed in 1889 as the entrance arch to the World's Fair.",
            "Gustave Eiffel's company built the tower between 1887 and 1889; it was completed in 1889 and opened to the public that May.",
            "According to a travel blog, the Eiffel Tower was completed in 1925 after long delays caused by the war.");

    @Mixin
    ModelOptions model;

    @Override
    public Integer call() throws Exception {
        if (exchange) {
            return exchange();
        }
        if (limit < 0 || latency.ms < 0) {
            throw new IllegalArgumentException("--limit and --latency-ms must be >= 0");
        }
        if (data != null && !java.nio.file.Files.isRegularFile(data)) {
            throw new IllegalArgumentException("no questions file at " + data);
        }
        // no rules: every prompt goes to the built-in extractive reader, which knows each method's formats
        SimServer sim = model.namesAServer() ? null : SimServer.start(SimCommand.simulator()
                .latency(LatencyModel.ofMillis(latency.ms, 0)).build());
        try {
            VeracityConfig base = model.resolve();
            VeracityConfig cfg = sim == null ? base : base.withServer(sim.baseUrl(), sim.config().defaultModel());
            return MethodsDemo.run(System.out, cfg, sim != null, out, data, methods, limit);
        } finally {
            if (sim != null) {
                sim.close();
            }
        }
    }

    private int exchange() {
        PrintStream out = System.out;
        SimServer sim = model.namesAServer() ? null : SimServer.start(simConfig());
        try {
            VeracityConfig base = model.resolve();
            VeracityConfig cfg = sim == null ? base : base.withServer(sim.baseUrl(), sim.config().defaultModel());
            out.println("Veracity demo: " + (sim == null ? "server " + cfg.llmBaseUrl() : "simulator at " + sim.baseUrl()
                    + " (60 ms to first token + 3 ms per token)") + ", model " + cfg.model() + ", concurrency "
                    + cfg.concurrency() + ", cache " + cfg.cacheMode().name().toLowerCase(Locale.ROOT) + " " + cfg.cacheFile()
                    + ", traces " + cfg.traceFile());
            out.println("Question: " + QUESTION);
            try (TraceStore traces = TraceStore.open(cfg.traceFile()); Stack stack = new Stack(cfg, traces)) {
                String run = "demo-" + Instant.now().toString();
                // The first HTTP call of a JVM loads the SDK's classes (seconds): pay it before the timed exchange.
                stack.client.call(CallContext.of(run + "-warm-up", "", "demo").role("warm-up"),
                        LlmRequest.user("warm-up").maxTokens(1).build());
                String answer = exchange(stack.client, run);
                print(out, "First run", traces.calls(run));
                out.println("Final answer: " + answer);

                long httpBefore = stack.client.counters().attempts();
                exchange(stack.client, run + "-rerun");
                List<CallRecord> rerun = traces.calls(run + "-rerun");
                print(out, "Same exchange again", rerun);
                out.printf(Locale.ROOT, "Rerun: %d calls, %d answered from the cache, %d new requests to the model.%n",
                        rerun.size(), rerun.stream().filter(CallRecord::cacheHit).count(),
                        stack.client.counters().attempts() - httpBefore);
                madam(out, stack.client, traces, run);
                out.println();
                out.println("== MARCH: verifying a response against its documents (Appendix C, the Guadeloupe case)");
                MarchDemo.run(out, stack.client, run + "-march");
                out.println();
                out.println("Read the traces: ./veracity traces stats " + run + " --trace-file " + cfg.traceFile());
                out.println("                 ./veracity traces export " + run + " --trace-file " + cfg.traceFile()
                        + " --out calls.jsonl");
            }
        } finally {
            if (sim != null) {
                sim.close();
            }
        }
        return 0;
    }

    /** One RAMDocs question (the first of ../shared/data when present, else the paper's example) through MADAM-RAG. */
    private static void madam(PrintStream out, LlmClient client, TraceStore traces, String run) {
        QaItem item = ramdocsSample().orElseGet(MadamDemo::sampleItem);
        out.println();
        MadamDemo.run(out, client, run + "-madam", item);
        List<CallRecord> calls = traces.calls(run + "-madam");
        CallStats s = CallStats.ofQuestion(calls);
        out.printf(Locale.ROOT, "MADAM-RAG: %d documents, %d calls, %d tokens, wall %.1f ms, critical path %.1f ms,"
                        + " sum of latencies %.1f ms (each round's agents run at once)%n", item.documents().size(), s.calls(),
                s.totalTokens(), s.wall().toNanos() / 1e6, s.criticalPath().toNanos() / 1e6,
                calls.stream().mapToLong(CallRecord::latencyMicros).sum() / 1e3);
    }

    private static java.util.Optional<QaItem> ramdocsSample() {
        Path f = MadamBench.find("ramdocs/RAMDocs_test.jsonl");
        if (f == null) {
            return java.util.Optional.empty();
        }
        try (var items = Datasets.stream("ramdocs", f)) {
            return items.findFirst();
        }
    }

    /** Agents answer from their documents concurrently, then the aggregator reads their answers. */
    static String exchange(LlmClient client, String run) {
        CallContext ctx = CallContext.of(run, "eiffel", "demo");
        List<String> answers = Parallel.map(IntStream.range(0, DOCUMENTS.size()).boxed().toList(), i -> client.call(
                ctx.role("agent-" + (i + 1)).step(1),
                LlmRequest.user("You are one of several readers, each given one document.\n\nQuestion: " + QUESTION
                        + "\nDocument: " + DOCUMENTS.get(i) + "\n\nAnswer the question based only on this document. "
                        + "Please follow the format: 'Answer: {}. Explanation: {}.'").temperature(0.0).maxTokens(128)
                        .build()).text());
        StringBuilder prompt = new StringBuilder("You reconcile the answers of several readers.\n\nQuestion: ")
                .append(QUESTION).append("\nAgent responses:\n");
        for (int i = 0; i < answers.size(); i++) {
            prompt.append("Agent ").append(i + 1).append(": ").append(answers.get(i)).append('\n');
        }
        prompt.append("\nGive the answer the evidence supports. Please follow the format: 'All Correct Answers: []. Explanation: {}.'");
        return client.call(ctx.role("aggregator").step(2), LlmRequest.user(prompt.toString()).temperature(0.0)
                .maxTokens(128).build()).text();
    }

    private static void print(PrintStream out, String title, List<CallRecord> calls) {
        out.println();
        out.println("== " + title + ": traced calls");
        // the calls as a table fitted to the terminal: the outputs are cut first, then the queue time and the cache go
        TextTable t = new TextTable(List.of(TextTable.Column.figure("#"), TextTable.Column.text("role", 6, 4),
                TextTable.Column.figure("step"), TextTable.Column.figure("queue ms").dropAt(2),
                TextTable.Column.figure("latency ms"), TextTable.Column.figure("tokens p/c").dropAt(3),
                TextTable.Column.text("cache", 5, 3).dropAt(3), TextTable.Column.text("output", 12, 1)));
        int i = 1;
        for (CallRecord c : calls) {
            String output = c.error() != null ? "ERROR " + c.error() : String.join(" | ", c.outputs());
            t.row(List.of(Integer.toString(i++), c.context().role(), Integer.toString(c.context().step()),
                    String.format(Locale.ROOT, "%.1f", c.queueMicros() / 1e3),
                    String.format(Locale.ROOT, "%.1f", c.latencyMicros() / 1e3), c.promptTokens() + "/" + c.completionTokens(),
                    c.cacheHit() ? "hit" : "-", abbreviate(output, 90)));
        }
        int width = Terminal.columns();
        out.print(t.render(width).text());
        CallStats s = CallStats.ofQuestion(calls);
        out.print(TextTable.wrap(String.format(Locale.ROOT, "calls %d (samples %d), tokens billed %d (prompt %d,"
                        + " completion %d), tokens used %d (%d from the cache), wall %.1f ms, critical path %.1f ms, sum of"
                        + " latencies %.1f ms", s.calls(), s.samples(), s.totalTokens(), s.promptTokens(), s.completionTokens(), s.usedTokens(),
                s.cachedPromptTokens() + s.cachedCompletionTokens(), s.wall().toNanos() / 1e6,
                s.criticalPath().toNanos() / 1e6, calls.stream().mapToLong(CallRecord::latencyMicros).sum() / 1e3),
                width, "", "  "));
    }

    private static String abbreviate(String s, int max) {
        String one = s.replace('\n', ' ');
        return one.length() <= max ? one : one.substring(0, max - 3) + "...";
    }

    /**
     * The simulator scripted for the demo: the methods' scripted models first (their rules match their prompts'
     * opening lines), then the engine exchange's readers, who read the year out of their document, and its
     * reconciler, who counts.
     */
    static SimConfig simConfig() {
        List<Rule> rules = new ArrayList<>(MadamDemo.simRules());
        rules.addAll(MarchDemo.simRules());
        rules.add(Rule.of("(?s)^You are one of several readers.*?Question: (.*?)\\nDocument: (.*?)\\n\\n", DemoCommand::agent));
        rules.add(Rule.of("(?s)^You reconcile the answers.*?Agent responses:\\n(.*?)\\n\\n", DemoCommand::aggregator));
        return SimCommand.simulator().latency(LatencyModel.ofMillis(60, 3)).rules(rules.toArray(Rule[]::new)).build();
    }

    private static final Pattern COMPLETED = Pattern.compile("completed in (\\d{4})");
    private static final Pattern YEAR = Pattern.compile("\\b(1[0-9]{3}|20[0-9]{2})\\b");
    private static final Pattern ANSWER = Pattern.compile("Answer: ([^.]+)\\.");

    private static String agent(RuleMatch m) {
        String doc = m.group(2);
        Matcher c = COMPLETED.matcher(doc);
        Matcher y = YEAR.matcher(doc);
        String year = c.find() ? c.group(1) : y.find() ? y.group(1) : null;
        return year == null ? "Answer: unknown. Explanation: The document gives no year."
                : "Answer: " + year + ". Explanation: The document states that the tower was completed in " + year + ".";
    }

    private static String aggregator(RuleMatch m) {
        Map<String, Integer> votes = new TreeMap<>();
        Matcher a = ANSWER.matcher(m.group(1));
        while (a.find()) {
            votes.merge(a.group(1).trim(), 1, Integer::sum);
        }
        if (votes.isEmpty()) {
            return "All Correct Answers: []. Explanation: No agent gave an answer.";
        }
        int best = votes.values().stream().max(Integer::compare).orElse(0);
        List<String> kept = new ArrayList<>();
        List<String> dropped = new ArrayList<>();
        votes.forEach((k, v) -> (v == best ? kept : dropped).add(k + " (" + v + " agent" + (v == 1 ? "" : "s") + ")"));
        return "All Correct Answers: [" + String.join(", ", kept.stream().map(s -> s.substring(0, s.indexOf(' '))).toList())
                + "]. Explanation: Supported by " + String.join(", ", kept)
                + (dropped.isEmpty() ? "." : "; " + String.join(", ", dropped) + " is outvoted and treated as misinformation.");
    }
}
