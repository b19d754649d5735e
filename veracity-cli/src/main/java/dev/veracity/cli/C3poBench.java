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

/**
 * {@code ./veracity bench c3po}: C-3PO's tree rollout of N questions against the simulator at a fixed latency per
 * call, all trees at once, against the ideal for the client's concurrency limit: max(the longest tree's critical
 * path, total calls x latency / concurrency). The simulator is scripted so that samples differ (the built-in reader
 * answers every sample alike, which deduplication would fold into a chain): filters keep document sample+1, a
 * Decision Maker without documents answers [LLM] in sample 0 and retrieves in sample 1, and with documents retrieves
 * until three are kept. Also prints calls per tree and the heap a tree holds.
 */
@Command(name = "c3po", mixinStandardHelpOptions = true,
        description = {"C-3PO tree rollouts against the simulator: wall time vs the ideal for the concurrency limit, calls and memory per tree.",
                "The --questions are rolled out all at once; --warmup counts untimed rollouts of all of them, for the JIT."})
final class C3poBench implements Callable<Integer> {

    @picocli.CommandLine.Mixin
    BenchLoad.Questions questions = new BenchLoad.Questions(20);

    @picocli.CommandLine.Mixin
    BenchLoad.Latency latency = new BenchLoad.Latency(100);

    @picocli.CommandLine.Mixin
    BenchLoad.ClientConcurrency concurrency = new BenchLoad.ClientConcurrency(32);

    @picocli.CommandLine.Mixin
    BenchLoad.Warmup warmup = new BenchLoad.Warmup(2);

    @Override
    public Integer call() throws Exception {
        if (questions.count < 1 || latency.ms < 0 || concurrency.limit < 1 || warmup.count < 0) {
            throw new IllegalArgumentException("--questions and --concurrency must be >= 1, --latency-ms and --warmup >= 0");
        }
        List<QaItem> items = items(questions.count);
        SimConfig cfg = SimCommand.simulator().latency(LatencyModel.ofMillis(latency.ms, 0)).capacity(4096)
                .recentRequestLimit(0).rules(Rule.of("(?s).", C3poBench::respond)).build();
        RolloutSettings settings = RolloutSettings.of(RolloutSettings.Preset.PAPER);
        try (SimServer sim = SimServer.start(cfg);
             OpenAiCompatibleBackend backend = OpenAiCompatibleBackend.builder().baseUrl(sim.baseUrl()).model("sim-model").build();
             LlmClient client = LlmClient.builder(backend).concurrency(concurrency.limit).build()) {
            Rollout rollout = new Rollout(settings, LeafReward.AUTHORS_ACCURACY);
            // Warm-up: the same rollout untimed, so that the JIT has compiled the hot paths and the connections are
            // open; with one tree only, C2 compiles during the timed run on the same 2 cores and adds a third.
            for (int w = 0; w < warmup.count; w++) {
                rolloutAll(rollout, client, items);
            }
            long t0 = System.nanoTime();
            List<Tree> trees = rolloutAll(rollout, client, items);
            double wallMs = (System.nanoTime() - t0) / 1e6;
            int calls = trees.stream().mapToInt(Tree::calls).sum();
            int maxCalls = trees.stream().mapToInt(Tree::calls).max().orElse(0);
            int chain = trees.stream().mapToInt(C3poBench::criticalPath).max().orElse(0);
            int nodes = trees.stream().mapToInt(t -> t.nodes().size()).sum();
            double criticalMs = (double) chain * latency.ms;
            double throughputMs = (double) calls * latency.ms / concurrency.limit;
            double ideal = Math.max(criticalMs, throughputMs);
            System.out.printf(Locale.ROOT, "== C-3PO tree rollout (preset paper), %d questions at once, %d ms per call"
                    + " (simulator: plumbing, not a model), client concurrency %d%n", items.size(), latency.ms, concurrency.limit);
            System.out.printf(Locale.ROOT, "   calls: %d (%.1f per tree, at most %d; proxy %d, LLM %d); nodes %.1f per tree%n",
                    calls, (double) calls / trees.size(), maxCalls, trees.stream().mapToInt(Tree::proxyCalls).sum(),
                    trees.stream().mapToInt(Tree::llmCalls).sum(), (double) nodes / trees.size());
            System.out.printf(Locale.ROOT, "   wall: %.0f ms%n", wallMs);
            System.out.printf(Locale.ROOT, "   ideal: %.0f ms (critical path: %d dependent calls x %d ms = %.0f ms; throughput"
                    + " bound %d calls x %d ms / %d = %.0f ms)%n", ideal, chain, latency.ms, criticalMs, calls, latency.ms,
                    concurrency.limit, throughputMs);
            BenchTarget.atMost("wall time over the ideal", 1.2, "x").print(wallMs / ideal);
            int fifo = rounds(trees, concurrency.limit, false);
            int longestFirst = rounds(trees, concurrency.limit, true);
            System.out.printf(Locale.ROOT, "   these trees' calls scheduled with no overhead at concurrency %d: %d ms first come"
                    + " first served (%.2fx the ideal), %d ms longest remaining chain first (%.2fx)%n", concurrency.limit,
                    fifo * latency.ms, fifo * (double) latency.ms / ideal, longestFirst * latency.ms,
                    longestFirst * (double) latency.ms / ideal);
            // What the trees retain: the heap after a collection with them, less the heap after one without them.
            int count = trees.size();
            long with = usedHeapAfterGc();
            trees = null;
            long without = usedHeapAfterGc();
            System.out.printf(Locale.ROOT, "   heap held by the %d trees: %.1f KiB per tree (prompts and outputs included)%n",
                    count, Math.max(0, with - without) / 1024.0 / count);
        }
        return 0;
    }

    /** Every question's tree at once, each on its own virtual thread. */
    private static List<Tree> rolloutAll(Rollout rollout, LlmClient client, List<QaItem> items) throws Exception {
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
        return trees;
    }

    private static long usedHeapAfterGc() {
        System.gc();
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static MethodContext context(LlmClient client, QaItem item) {
        return new MethodContext(client, CallContext.of("bench", item.id(), "c3po"), "hotpotqa", false, Map.of());
    }

    /**
     * The calls of the trees as a schedule with no overhead: each call takes one latency, at most {@code concurrency}
     * at once, and a node's expansion call is ready when the call that made the node has returned (forced nodes are
     * made without a call). All calls last alike, so everything starts at whole latencies: the answer is the number
     * of latencies the schedule takes. Ready calls are taken in the order they became ready, or, with
     * {@code longestFirst}, those with the longest chain of calls below them first (critical-path list scheduling).
     */
    static int rounds(List<Tree> trees, int concurrency, boolean longestFirst) {
        List<Node> ready = new ArrayList<>();
        Map<Node, Integer> height = new java.util.IdentityHashMap<>();
        for (Tree t : trees) {
            collect(t.root(), ready, height);
        }
        int rounds = 0;
        while (!ready.isEmpty()) {
            if (longestFirst) {
                ready.sort((a, b) -> Integer.compare(height.get(b), height.get(a)));
            }
            List<Node> now = new ArrayList<>(ready.subList(0, Math.min(concurrency, ready.size())));
            ready.subList(0, now.size()).clear();
            for (Node n : now) {
                for (Node c : n.children()) {
                    if (!c.forced() && madeByCall(c.children())) {
                        ready.add(c);
                    }
                }
            }
            rounds++;
        }
        return rounds;
    }

    /** Nodes whose children came from a call (not forced), ready at the start: the root and the forced nodes. */
    private static int collect(Node n, List<Node> ready, Map<Node, Integer> height) {
        int below = 0;
        for (Node c : n.children()) {
            below = Math.max(below, collect(c, ready, height));
        }
        boolean calls = madeByCall(n.children());
        int h = below + (calls ? 1 : 0);
        height.put(n, h);
        if (calls && (n.parentId() == null || n.forced())) {
            ready.add(n);
        }
        return h;
    }

    private static boolean madeByCall(List<Node> children) {
        return children.stream().anyMatch(c -> !c.forced());
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
            // the state, after the instructions and any few-shot examples (which imitate it)
            String state = p.substring(Math.max(0, p.indexOf("Now, process the following question:")));
            int kept = count(state.substring(state.indexOf("Existing Documents: "), state.indexOf("\n\nPlan: ")),
                    "\n\nDocument ") + (state.contains("Existing Documents: Document 1 ") ? 1 : 0);
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
