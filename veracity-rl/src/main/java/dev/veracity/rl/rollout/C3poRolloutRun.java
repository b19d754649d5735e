package dev.veracity.rl.rollout;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.eval.data.Datasets;
import dev.veracity.method.MethodContext;
import dev.veracity.method.RolloutTree;
import dev.veracity.methods.c3po.rollout.LeafReward;
import dev.veracity.methods.c3po.rollout.Rollout;
import dev.veracity.methods.c3po.rollout.RolloutSettings;
import dev.veracity.methods.c3po.rollout.Tree;
import dev.veracity.methods.c3po.rollout.TreeJson;
import dev.veracity.qa.QaItem;
import dev.veracity.rl.export.DatasetInfoFile;
import dev.veracity.rl.jsonl.JsonlRows;
import dev.veracity.rl.reward.Label;
import dev.veracity.rl.reward.Reward;
import dev.veracity.rl.reward.RewardInput;
import dev.veracity.trace.CallContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * {@code veracity rollout c3po}: C-3PO's tree rollout over a dataset. Questions run concurrently (bounded), each
 * tree's leaves scored by a registered reward, and each finished question appended to the output folder
 * ({@link RolloutFiles}); a rerun skips the questions already written. A question that fails as a whole (its
 * retriever or model gone for good before any branch finished) is reported and left for the rerun.
 * {@code rollout-summary.json} sums up every tree in the folder; {@code dataset_info.json} registers
 * {@code seed.jsonl} for LLaMA-Factory.
 */
public final class C3poRolloutRun {

    /**
     * What to run.
     *
     * @param dataset         the dataset's name (loader, prompts' notes, MuSiQue's depth rule)
     * @param data            the dataset file
     * @param limit           the first {@code limit} questions (0 = all)
     * @param out             the output folder
     * @param settings        the rollout's settings
     * @param preset          the preset's name, for the files
     * @param questionsAtOnce questions rolled out at once
     * @param seedSolutions   correct trajectories kept per question for the warm-up (the paper's 4)
     * @param run             the run id in the records
     */
    public record Spec(String dataset, Path data, int limit, Path out, RolloutSettings settings, String preset,
                       int questionsAtOnce, int seedSolutions, String run) {
        public Spec {
            if (limit < 0 || questionsAtOnce < 1 || seedSolutions < 0) {
                throw new IllegalArgumentException("--limit >= 0, questions at once >= 1, seed solutions >= 0");
            }
        }
    }

    /**
     * What a run did.
     *
     * @param questions the questions considered
     * @param skipped   those already in the folder
     * @param written   trees written by this run
     * @param failures  one line per question that failed (left for a rerun)
     * @param summary   rollout-summary.json
     */
    public record Outcome(int questions, int skipped, int written, List<String> failures, ObjectNode summary) {
    }

    private C3poRolloutRun() {
    }

    /**
     * Runs the rollout.
     *
     * @param context  the backends (proxy: {@code client("proxy")}), the retriever or null; its calls, options and
     *                 dataset are replaced per question
     * @param reward   the leaves' reward
     * @param progress one line per finished question
     */
    public static Outcome run(Spec spec, MethodContext context, Reward reward, Consumer<String> progress) {
        LeafReward leafReward = leafReward(reward);
        Rollout rollout = new Rollout(spec.settings(), leafReward);
        List<QaItem> items;
        try (Stream<QaItem> s = Datasets.stream(spec.dataset(), spec.data())) {
            items = (spec.limit() > 0 ? s.limit(spec.limit()) : s).toList();
        }
        List<String> failures;
        int skipped;
        int[] written = {0};
        try (RolloutFiles files = RolloutFiles.open(spec.out())) {
            registerSeed(spec.out());
            Set<String> done = files.done();
            List<QaItem> todo = items.stream().filter(i -> !done.contains(i.id())).toList();
            skipped = items.size() - todo.size();
            failures = QuestionRuns.run(todo, spec.questionsAtOnce(), item -> {
                if (item.goldForms().isEmpty()) {
                    throw new IllegalArgumentException("no gold answer to score the leaves with");
                }
                MethodContext ctx = new MethodContext(context.llm(), CallContext.of(spec.run(), item.id(),
                        "c3po-rollout"), spec.dataset(), false, Map.of(), context.retriever(), null, null,
                        context.models());
                Tree t = rollout.run(item, ctx);
                RolloutTree line = TreeJson.tree(t, spec.preset());
                List<ObjectNode> seed = TreeJson.seedTrajectories(t, spec.seedSolutions(), leafReward);
                files.write(line.toJson(), TreeJson.records(t, spec.run()), seed);
                synchronized (written) {
                    written[0]++;
                }
                return describe(t, line) + (TreeJson.seedGold(t.gold()).isEmpty()
                        ? "; no seed data: every gold answer normalises to nothing" : "; " + seed.size() + " seed rows");
            }, progress);
        }
        ObjectNode summary = summarize(spec.out().resolve(RolloutFiles.TREES));
        try {
            Files.writeString(spec.out().resolve("rollout-summary.json"),
                    JsonlRows.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(summary));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write rollout-summary.json: " + e.getMessage(), e);
        }
        return new Outcome(items.size(), skipped, written[0], List.copyOf(failures), summary);
    }

    /**
     * Registers {@code seed.jsonl} in the folder's LLaMA-Factory {@code dataset_info.json} as the SFT dataset
     * {@value #SEED_DATASET} (alpaca columns {@code system, instruction, input, output}), so that the folder is a
     * {@code dataset_dir} for the warm-up; other entries of an existing file are kept, a broken one is refused.
     */
    static void registerSeed(Path out) {
        DatasetInfoFile.in(out).put(SEED_DATASET, DatasetInfoFile.alpacaEntry(RolloutFiles.SEED, false, true));
    }

    /** The seed data's name in the folder's {@code dataset_info.json}. */
    public static final String SEED_DATASET = "c3po_seed";

    /** A registered reward as the leaves' reward: the answer scored against the question's gold answers. */
    public static LeafReward leafReward(Reward reward) {
        return (question, answer, gold) -> reward.score(RewardInput.of(question, answer,
                new Label(gold, List.of(), null, List.of(), null))).score();
    }

    private static String describe(Tree t, RolloutTree line) {
        return String.format(java.util.Locale.ROOT, "%s: %d nodes, %d leaves (%d correct, %d failed), %d proxy + %d LLM"
                        + " calls, %d searches, root credit %.3f, %.1f s%s", t.questionId(), t.nodes().size(),
                line.leafCount(), line.correctLeaves(), line.failedLeaves(),
                t.proxyCalls(), t.llmCalls(), t.searches(), t.root().credit(), t.nanos() / 1e9,
                t.truncated() ? " (TRUNCATED by the call budget)" : "");
    }

    /** Means over every tree in the file: size, calls, credits per strategy, failures. */
    static ObjectNode summarize(Path trees) {
        ObjectNode s = JsonlRows.JSON.createObjectNode();
        double[] sum = new double[8];
        int[] max = new int[2];
        int[] count = {0, 0};
        Map<String, double[]> strategy = new java.util.LinkedHashMap<>();
        if (Files.exists(trees)) {
            JsonlRows.forEach(trees, (n, json) -> {
                RolloutTree row = RolloutTree.fromJson(json, trees + ":" + n);
                count[0]++;
                int calls = row.calls().proxy() + row.calls().llm();
                sum[0] += row.nodes().size();
                sum[1] += row.leafCount();
                sum[2] += row.calls().proxy();
                sum[3] += row.calls().llm();
                sum[4] += row.calls().searches();
                sum[5] += row.root() == null ? 0 : row.root().credit();
                sum[6] += row.failedLeaves();
                sum[7] += row.ms();
                max[0] = Math.max(max[0], calls);
                max[1] = Math.max(max[1], row.nodes().size());
                if (row.truncated()) {
                    count[1]++;
                }
                for (RolloutTree.Node node : row.nodes()) {
                    if (node.depth() == 1 && "router".equals(node.agent())) {
                        String a = node.action() == null ? "" : node.action();
                        String key = a.startsWith("[Retrieval]") ? "retrieval" : a.equals("[Planning]") ? "planning"
                                : a.equals("[No Retrieval]") ? "no_retrieval" : "invalid";
                        double[] acc = strategy.computeIfAbsent(key, k -> new double[2]);
                        acc[0] += node.credit();
                        acc[1]++;
                    }
                }
            });
        }
        int n = Math.max(1, count[0]);
        s.put("trees", count[0]);
        s.put("nodes_per_tree", sum[0] / n);
        s.put("max_nodes_per_tree", max[1]);
        s.put("leaves_per_tree", sum[1] / n);
        s.put("proxy_calls_per_tree", sum[2] / n);
        s.put("llm_calls_per_tree", sum[3] / n);
        s.put("max_calls_per_tree", max[0]);
        s.put("searches_per_tree", sum[4] / n);
        s.put("mean_root_credit", sum[5] / n);
        s.put("failed_leaves_per_tree", sum[6] / n);
        s.put("seconds_per_tree", sum[7] / n / 1000);
        s.put("truncated_trees", count[1]);
        ObjectNode credits = s.putObject("router_credit");
        strategy.forEach((k, acc) -> credits.put(k, acc[0] / acc[1]));
        return s;
    }
}
