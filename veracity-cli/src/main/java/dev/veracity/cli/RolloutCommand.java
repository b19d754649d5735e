package dev.veracity.cli;

import dev.veracity.config.VeracityConfig;
import dev.veracity.eval.data.Datasets;
import dev.veracity.method.MethodContext;
import dev.veracity.method.ModelRole;
import dev.veracity.methods.c3po.rollout.RolloutSettings;
import dev.veracity.qa.QaItem;
import dev.veracity.retrieval.Embedder;
import dev.veracity.retrieval.LocalEmbedders;
import dev.veracity.retrieval.Retriever;
import dev.veracity.retrieval.lucene.LuceneIndex;
import dev.veracity.rl.reward.Reward;
import dev.veracity.rl.rollout.C3poRolloutRun;
import dev.veracity.trace.CallContext;
import dev.veracity.trace.TraceStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code ./veracity rollout}: rollouts that make training data. */
@Command(name = "rollout", mixinStandardHelpOptions = true,
        description = "Rollouts that make training data: c3po (C-3PO's tree-structured rollout with Monte Carlo credit).",
        subcommands = RolloutCommand.C3poRollout.class)
final class RolloutCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** {@code ./veracity rollout c3po}. */
    @Command(name = "c3po", mixinStandardHelpOptions = true,
            description = {"C-3PO's tree-structured rollout (section 5.1): per question a tree whose first level forces"
                    + " the three strategies, K(t) = 2 sampled actions per node up to depth 4 and 1 deeper, leaves scored,"
                    + " every node credited with the mean reward of the leaves below it (eq. 5).",
                    "Writes to --out: trees.jsonl (one tree per question), records.jsonl (one training record per proxy"
                    + " node: messages, response, credit), seed.jsonl (LLaMA-Factory rows of up to --seed-solutions"
                    + " correct trajectories per question) and rollout-summary.json. Killed and rerun, it resumes at the"
                    + " next unwritten question."})
    static final class C3poRollout implements Callable<Integer> {

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(names = "--out", required = true, paramLabel = "DIR", description = "Output folder (resumed when it exists).")
        Path out;

        @Option(names = "--index", paramLabel = "DIR",
                description = "A retrieval index (./veracity index) the proxy's queries search; without it, each question's"
                        + " own passages (HotpotQA's paragraphs) are the corpus.")
        Path index;

        @Option(names = "--search-mode", defaultValue = "bm25", paramLabel = "MODE", description = "bm25, dense or hybrid (default ${DEFAULT-VALUE}).")
        String searchMode;

        @Option(names = "--questions-at-once", defaultValue = "4", paramLabel = "N",
                description = "Questions rolled out concurrently (default ${DEFAULT-VALUE}); each tree's branches also run concurrently.")
        int questionsAtOnce;

        @Option(names = "--seed-solutions", defaultValue = "4", paramLabel = "N",
                description = "Correct trajectories per question kept as seed data for the supervised warm-up (default ${DEFAULT-VALUE}, the paper's 4).")
        int seedSolutions;

        @Option(names = "--no-preflight", description = "Skip the check of the model server (GET /models) before the run.")
        boolean noPreflight;

        @Mixin
        DatasetOptions dataset;

        @Mixin
        C3poRolloutOptions c3po;

        @Mixin
        ModelOptions model;

        @Mixin
        ProxyOptions proxy;

        @Override
        public Integer call() throws Exception {
            String datasetName = dataset.checkedName();
            RolloutSettings settings = c3po.settings();
            Reward leafReward = c3po.leafReward();
            if (questionsAtOnce < 1 || seedSolutions < 0) {
                throw new IllegalArgumentException("--questions-at-once must be >= 1, --seed-solutions >= 0");
            }
            // before any call: questions without passages need an index to search
            if (index == null) {
                Optional<QaItem> first;
                try (Stream<QaItem> s = Datasets.stream(datasetName, dataset.file())) {
                    first = s.findFirst();
                }
                if (first.isPresent() && first.get().documents().isEmpty()) {
                    throw new IllegalArgumentException(datasetName + " questions come without passages and C-3PO searches: pass"
                            + " --index DIR (build one with ./veracity index) [--search-mode bm25|dense|hybrid]");
                }
            }
            VeracityConfig base = model.resolve();
            if (!noPreflight) {
                Preflight.check(base);
                proxy.preflight(base);
            }
            java.io.PrintWriter log = spec.commandLine().getErr();
            VeracityConfig cfg = base.withTraceFile(out.resolve("traces.db"));
            Files.createDirectories(out);
            String run = out.toAbsolutePath().normalize().getFileName() + "@" + Instant.now();
            Embedder embedder = index != null && !searchMode.equals("bm25") ? LocalEmbedders.bgeSmall() : null;
            try (LuceneIndex searchIndex = index == null ? null : LuceneIndex.open(index);
                 TraceStore traces = TraceStore.open(cfg.traceFile());
                 Stack stack = new Stack(cfg, traces);
                 ProxyOptions.Proxy proxyClient = proxy.open(stack, traces)) {
                Retriever retriever = searchIndex == null ? null : searchIndex.retriever(searchMode, embedder);
                MethodContext ctx = new MethodContext(stack.client, CallContext.of(run, "", "c3po-rollout"), datasetName,
                        false, Map.of(), retriever, null, null,
                        ModelRole.bind(dev.veracity.methods.c3po.C3po.SPEC, ProxyOptions.clients(proxyClient)));
                log.printf("C-3PO rollout: preset %s%s, proxy %s, few-shot %s, reward %s, at most %d calls per tree%n",
                        c3po.preset, c3po.single ? " (single trajectory)" : "", proxy.describe(base),
                        settings.fewShot().resolve(proxy.given()).describe(), c3po.reward, c3po.maxCalls);
                C3poRolloutRun.Outcome o = C3poRolloutRun.run(new C3poRolloutRun.Spec(datasetName, dataset.file(), dataset.limit, out,
                        settings, c3po.preset, questionsAtOnce, seedSolutions, run), ctx, leafReward, line -> {
                            synchronized (log) {
                                log.println(line);
                                log.flush();
                            }
                        });
                spec.commandLine().getOut().println(dev.veracity.rl.jsonl.JsonlRows.JSON.writerWithDefaultPrettyPrinter()
                        .writeValueAsString(o.summary()));
                spec.commandLine().getOut().flush();
                log.printf("%d questions: %d already done, %d rolled out now, %d failed. Trees in %s%n",
                        o.questions(), o.skipped(), o.written(), o.failures().size(), out.resolve("trees.jsonl"));
                if (!o.failures().isEmpty()) {
                    o.failures().stream().limit(10).forEach(f -> log.println("  failed " + f));
                    log.println("Run the same command again to retry them; written questions are kept.");
                    log.flush();
                    return 1;
                }
                log.flush();
            }
            return 0;
        }
    }
}
