package dev.veracity.cli;

import dev.veracity.llm.client.LlmClient;
import dev.veracity.llm.openai.OpenAiCompatibleBackend;
import dev.veracity.method.MethodContext;
import dev.veracity.methods.c3po.Agent;
import dev.veracity.methods.c3po.rollout.LeafReward;
import dev.veracity.methods.c3po.rollout.Node;
import dev.veracity.methods.c3po.rollout.Rollout;
import dev.veracity.methods.c3po.rollout.RolloutSettings;
import dev.veracity.methods.c3po.rollout.Tree;
import dev.veracity.qa.Document;
import dev.veracity.qa.GoldAnswer;
import dev.veracity.qa.QaItem;
import dev.veracity.sim.LatencyModel;
import dev.veracity.sim.Rule;
import dev.veracity.sim.RuleMatch;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import dev.veracity.trace.CallContext;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./veracity bench c3po}: C-3PO's tree rollout of N questions against the simulator at a fixed latency per
 * call, all trees at once, against the ideal for the client's concurrency limit: max(the longest tree's critical
 * path, total calls x latency / concurrency). The simulator is scripted so that samples differ (the built-in reader
 * answers every sample alike, which deduplication would fold into a chain): filters keep document sample+1, a
 * Decision Maker without documents answers [LLM] in sample 0 and retrieves in sample 1, and with documents retrieves
 * until three are kept. Also prints calls per tree and the heap a tree holds.
 */
@Command(name = "c3po", mixinStandardHelpOptions = true,
        description = "C-3PO tree rollouts against the simulator: wall time vs the ideal for the concurrency limit, calls and memory per tree.")
final class C3poBench implements Callable<Integer> {

    @Option(names = "--questions", defaultValue = "20", description = "Questions, all rolled out at once (default ${DEFAULT-VALUE}).")
    int questions;

    @Option(names = "--latency-ms", defaultValue = "100", description = "Simulated latency per call (default ${DEFAULT-VALUE}).")
    int latencyMs;

    @Option(names = "--concurrency", defaultValue = "32", description = "The client's concurrency limit (default ${DEFAULT-VALUE}).")
    int concurrency;

    @Override
    public Integer call() throws Exception {
        if (questions < 1 || latencyMs < 0 || concurrency < 1) {
            throw new IllegalArgumentException("--questions and --concurrency must be >= 1, --latency-ms >= 0");
        }
        List<QaItem> items = items(questions);
        SimConfig cfg = SimConfig.builder().latency(LatencyModel.ofMillis(latencyMs, 0)).capacity(4096)
                .recentRequestLimit(0).rules(Rule.of("(?s).", C3poBench::respond)).build();
        RolloutSettings settings = RolloutSettings.of(RolloutSettings.Preset.PAPER);
        try (SimServer sim = SimServer.start(cfg);
             OpenAiCompatibleBackend backend = OpenAiCompatibleBackend.builder().baseUrl(sim.baseUrl()).model("sim-model").build();
             LlmClient client = LlmClient.builder(backend).concurrency(concurrency).build()) {
            Rollout rollout = new Rollout(settings, LeafReward.AUTHORS_ACCURACY);
            rollout.run(items.getFirst(), context(client, items.getFirst())); // warm-up: JIT and connections
            System.gc();
            long heap0 = usedHeap();
            long t0 = System.nanoTime();
            List<Tree> trees = new ArrayList<>();
            try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
                List<Future<Tree>> all = new ArrayList<>();
                for (QaItem item : items) {
                    all.add(pool.submit(() -> rollout.run(item, context(client, item))));
                }
                for (Future<Tree> f : all) {
                    trees.add(f.get());
                }
            }
            double wallMs = (System.nanoTime() - t0) / 1e6;
            System.gc();
            long heap1 = usedHeap();
            int calls = trees.stream().mapToInt(Tree::calls).sum();
            int maxCalls = trees.stream().mapToInt(Tree::calls).max().orElse(0);
            int chain = trees.stream().mapToInt(C3poBench::criticalPath).max().orElse(0);
            int nodes = trees.stream().mapToInt(t -> t.nodes().size()).sum();
            double criticalMs = (double) chain * latencyMs;
            double throughputMs = (double) calls * latencyMs / concurrency;
            double ideal = Math.max(criticalMs, throughputMs);
            System.out.printf(Locale.ROOT, "== C-3PO tree rollout (preset paper), %d questions at once, %d ms per call"
                    + " (simulator: plumbing, not a model), client concurrency %d%n", items.size(), latencyMs, concurrency);
            System.out.printf(Locale.ROOT, "   calls: %d (%.1f per tree, at most %d; proxy %d, LLM %d); nodes %.1f per tree%n",
                    calls, (double) calls / trees.size(), maxCalls, trees.stream().mapToInt(Tree::proxyCalls).sum(),
                    trees.stream().mapToInt(Tree::llmCalls).sum(), (double) nodes / trees.size());
            System.out.printf(Locale.ROOT, "   wall: %.0f ms%n", wallMs);
            System.out.printf(Locale.ROOT, "   ideal: %.0f ms (critical path: %d dependent calls x %d ms = %.0f ms; throughput"
                    + " bound %d calls x %d ms / %d = %.0f ms)%n", ideal, chain, latencyMs, criticalMs, calls, latencyMs,
                    concurrency, throughputMs);
            System.out.printf(Locale.ROOT, "   wall / ideal: %.2fx (target <= 1.2x)%n", wallMs / ideal);
            System.out.printf(Locale.ROOT, "   heap held by the %d trees: %.1f KiB per tree (prompts and outputs included)%n",
                    trees.size(), Math.max(0, heap1 - heap0) / 1024.0 / trees.size());
            if (trees.isEmpty() || heap1 < 0) {
                return 1;
            }
        }
        return 0;
    }

    private static long usedHeap() {
        var m = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        return m.getUsed();
    }

    private static MethodContext context(LlmClient client, QaItem item) {
        return new MethodContext(client, CallContext.of("bench", item.id(), "c3po"), "hotpotqa", false, Map.of());
    }

    /** The most calls on one root-to-leaf path: each node but the forced first level was made by its own call. */
    static int criticalPath(Tree t) {
        int best = 0;
        for (Node leaf : t.leaves()) {
            int calls = (int) leaf.path().stream().filter(n -> !n.forced()).count();
            best = Math.max(best, calls);
        }
        return best;
    }

    /** The scripted proxy and LLM (see the class comment). */
    static String respond(RuleMatch m) {
        String p = m.lastMessage();
        int sample = m.sample();
        if (p.startsWith("You are an intelligent assistant tasked with analyzing the retrieved documents")) {
            return "Thought: document " + (sample + 1) + " helps.\nAction: [" + (sample + 1) + "]";
        }
        if (p.startsWith("You are an intelligent assistant tasked with determining")) {
            int kept = count(p.substring(p.indexOf("Existing Documents: "), p.indexOf("\n\nPlan: ")), "\n\nDocument ")
                    + (p.contains("Existing Documents: Document 1 ") ? 1 : 0);
            if (kept == 0) {
                return sample == 0 ? "Thought: I know it.\nAction: [LLM]" : "Thought: find it.\nAction: [Retrieval] step 0";
            }
            return kept >= 3 ? "Thought: enough.\nAction: [LLM]" : "Thought: more.\nAction: [Retrieval] step " + kept;
        }
        if (p.startsWith("You are an intelligent assistant assigned to analyze")) {
            return "Thought: enough.\nAction: [LLM]";
        }
        if (p.startsWith("You are an intelligent assistant tasked with evaluating")) {
            return "[Planning]";
        }
        if (p.startsWith("You are an expert assistant")) {
            return "Plan " + sample + ": retrieve, then answer.";
        }
        return "The answer is Lisbon.";
    }

    private static int count(String s, String what) {
        int n = 0;
        for (int at = s.indexOf(what); at >= 0; at = s.indexOf(what, at + 1)) {
            n++;
        }
        return n;
    }

    /** Questions with four passages each, as HotpotQA's distractor setting gives them (the corpus without an index). */
    static List<QaItem> items(int n) {
        List<QaItem> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            List<Document> docs = new ArrayList<>();
            for (int d = 0; d < 4; d++) {
                docs.add(Document.of("p" + i + "-" + d, "Page " + d, "Passage " + d + " about company " + i
                        + " and step " + d + ", headquartered in Lisbon."));
            }
            out.add(new QaItem("b" + i, "In which city is company " + i + " headquartered?", docs,
                    List.of(GoldAnswer.anyOf(List.of("Lisbon"))), List.of(), null, Map.of(), null));
        }
        return out;
    }
}
