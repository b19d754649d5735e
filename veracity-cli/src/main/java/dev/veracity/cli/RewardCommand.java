package dev.veracity.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.config.VeracityConfig;
import dev.veracity.methods.march.MarchSettings;
import dev.veracity.rl.reward.RewardFile;
import dev.veracity.rl.reward.RewardSettings;
import dev.veracity.rl.reward.Rewards;
import dev.veracity.trace.TraceStore;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ./veracity reward NAME --in FILE --out FILE}: the file door of the reward core. Each line
 * {@code {"question", "response", "label"}} is written back with {@code "reward"} and {@code "details"}; the scores
 * are those of the Java API ({@code Rewards.byName}) and the reward server. Bad input (a line that is not JSON, a
 * missing field, a bad label) is one line naming file and line, exit 2, and nothing is written. Prints a summary as
 * JSON; rows that got the fallback score (the model could not be reached) are counted and said on stderr.
 */
@Command(name = "reward", mixinStandardHelpOptions = true,
        description = "Score {\"question\", \"response\", \"label\"} lines with a reward; each line is written back with"
                + " \"reward\" and \"details\". The label is a gold answer, a list of them, or an object with \"answers\""
                + " and optional \"ook\", \"documents\" (MARCH), \"wrong_answers\", \"reasoning_score\".")
final class RewardCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Parameters(index = "0", paramLabel = "NAME", description = "The reward: an official metric (em, f1, nq-em, substring,"
            + " ...), accuracy, truthrl-ternary, truthrl-binary, march-ztr or march-err.")
    String name;

    @Option(names = "--in", required = true, paramLabel = "FILE", description = "Input, JSON lines.")
    Path in;

    @Option(names = "--out", required = true, paramLabel = "FILE", description = "Output, JSON lines (may be the input).")
    Path out;

    @Option(names = "--judge", defaultValue = "none", paramLabel = "JUDGE",
            description = "TruthRL rewards: none (exact match, the default), or an LLM judge for answers exact match does"
                    + " not settle: crag (TruthRL's, the authors' released prompt), true-false, equivalence; needs"
                    + " --llm-base-url and --model.")
    String judge;

    @Option(names = "--fallback-score", defaultValue = "0", paramLabel = "X",
            description = "MARCH rewards: the score of a row whose model calls failed (flagged in details; default 0).")
    double fallbackScore;

    @Option(names = "--rewards-at-once", defaultValue = "64", paramLabel = "N",
            description = "MARCH rewards: most rows scored at once (model calls are further limited by --concurrency).")
    int rewardsAtOnce;

    @Option(names = "--option", paramLabel = "KEY=VALUE",
            description = "MARCH setting, as for the march method (veracity methods march): e.g. --option samples=5,"
                    + " --option scalar=incentive.")
    Map<String, String> options = new LinkedHashMap<>();

    @Option(names = "--no-preflight", description = "MARCH rewards: skip the GET /models check before the first call.")
    boolean noPreflight;

    @Mixin
    ModelOptions model;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Rewards.Spec reward = Rewards.spec(name);
        boolean judged = !judge.equals("none");
        if (judged) {
            dev.veracity.eval.judge.Judges.requireKnown(judge);
            if (!model.namesAServer()) {
                throw new IllegalArgumentException("reward " + name + " with judge '" + judge + "' calls a model: pass"
                        + " --llm-base-url and --model (or --judge none for exact match)");
            }
        }
        if (!reward.needsModel() && !options.isEmpty()) {
            throw new IllegalArgumentException("--option sets MARCH's settings; reward " + name + " has none");
        }
        RewardSettings settings = RewardSettings.defaults().withMarch(MarchSettings.fromOptions(options))
                .withFallbackScore(fallbackScore).withParallelism(rewardsAtOnce).withJudge(judge)
                .withRunId("reward-" + name + "-" + Instant.now());
        RewardFile.Summary summary;
        if (reward.needsModel() || judged) {
            VeracityConfig cfg = model.resolve();
            try (TraceStore traces = TraceStore.open(cfg.traceFile()); Stack stack = new Stack(cfg, traces)) {
                summary = RewardFile.score(in, out, Rewards.byName(name, settings.withLlm(stack.client)), () -> {
                    if (!noPreflight) {
                        Preflight.check(cfg);
                    }
                });
            }
        } else {
            summary = RewardFile.score(in, out, Rewards.byName(name, settings));
        }
        ObjectNode o = JSON.createObjectNode();
        o.put("reward", summary.reward());
        o.put("rows", summary.rows());
        o.put("mean", summary.mean());
        o.put("fallbacks", summary.fallbacks());
        o.put("out", out.toString());
        spec.commandLine().getOut().println(o.toString());
        spec.commandLine().getOut().flush();
        if (summary.fallbacks() > 0) {
            spec.commandLine().getErr().println(String.format(Locale.ROOT, "veracity reward: %d of %d rows got the fallback"
                    + " score %s because the reward could not be computed (details.fallback_reason says why)",
                    summary.fallbacks(), summary.rows(), fallbackScore));
        }
        return 0;
    }
}
