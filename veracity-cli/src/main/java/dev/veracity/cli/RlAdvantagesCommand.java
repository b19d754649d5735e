package dev.veracity.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.rl.advantage.AdvantageFile;
import dev.veracity.rl.advantage.GrpoFlavor;
import dev.veracity.rl.advantage.StdScaling;
import dev.veracity.rl.advantage.Whitening;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ./veracity rl advantages}: GRPO group advantages per trainer flavor, or GAE advantages and returns, over a
 * JSONL file; bad input is one line naming file and line, exit 2, nothing written.
 */
@Command(name = "advantages", mixinStandardHelpOptions = true,
        description = {"Advantages as the trainers compute them.",
                "grpo: rows {\"group\", \"reward\"} get \"advantage\" = (r - group mean) / (group std + eps), std unbiased;"
                        + " eps 1e-6 (verl), 1e-4 (trl), 1e-9 (openrlhf).",
                "gae: rows {\"rewards\": [...], \"values\": [...]} (per token) get \"advantages\" and \"returns\"."})
final class RlAdvantagesCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Option(names = "--estimator", required = true, paramLabel = "grpo|gae", description = "grpo or gae.")
    String estimator;

    @Option(names = "--flavor", paramLabel = "verl|trl|openrlhf", description = "grpo: whose formula and edge cases.")
    String flavor;

    @Option(names = "--scale", paramLabel = "group|batch|none",
            description = "grpo: divide by the group's std (default), the batch's (trl scale_rewards=batch) or not at all"
                    + " (Dr. GRPO: verl norm_adv_by_std_in_grpo=False, trl scale_rewards=none, openrlhf dr_grpo).")
    String scale;

    @Option(names = "--gamma", paramLabel = "G", description = "gae: discount factor in [0, 1].")
    Double gamma;

    @Option(names = "--lambda", paramLabel = "L", description = "gae: GAE lambda in [0, 1].")
    Double lambda;

    @Option(names = "--whiten", paramLabel = "none|verl|openrlhf",
            description = "gae: whiten the advantages over the whole file as VeRL (unbiased variance + 1e-8) or OpenRLHF"
                    + " (biased variance) does; default none (the advantages before whitening).")
    String whiten;

    @Option(names = "--in", required = true, paramLabel = "FILE", description = "Input, JSON lines.")
    Path in;

    @Option(names = "--out", required = true, paramLabel = "FILE", description = "Output, JSON lines (may be the input).")
    Path out;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        ObjectNode o = JSON.createObjectNode();
        switch (estimator.strip().toLowerCase(Locale.ROOT)) {
            case "grpo" -> {
                refuse("grpo", "--gamma", gamma, "--lambda", lambda, "--whiten", whiten);
                if (flavor == null) {
                    throw new IllegalArgumentException("--estimator grpo needs --flavor verl, trl or openrlhf");
                }
                GrpoFlavor f = GrpoFlavor.of(flavor);
                StdScaling s = StdScaling.of(scale == null ? "group" : scale);
                AdvantageFile.GrpoSummary r = AdvantageFile.grpo(in, out, f, s);
                o.put("estimator", "grpo");
                o.put("flavor", f.name().toLowerCase(Locale.ROOT));
                o.put("epsilon", f.epsilon());
                o.put("scale", s.name().toLowerCase(Locale.ROOT));
                o.put("rows", r.rows());
                o.put("groups", r.groups());
                o.put("zero_variance_groups", r.zeroVarianceGroups());
            }
            case "gae" -> {
                refuse("gae", "--flavor", flavor, "--scale", scale);
                if (gamma == null || lambda == null) {
                    throw new IllegalArgumentException("--estimator gae needs --gamma and --lambda");
                }
                Whitening w = Whitening.of(whiten == null ? "none" : whiten);
                AdvantageFile.GaeSummary r = AdvantageFile.gae(in, out, gamma, lambda, w);
                o.put("estimator", "gae");
                o.put("gamma", gamma);
                o.put("lambda", lambda);
                o.put("whiten", w.name().toLowerCase(Locale.ROOT));
                o.put("rows", r.rows());
                o.put("tokens", r.tokens());
            }
            default -> throw new IllegalArgumentException("--estimator must be grpo or gae, was '" + estimator + "'");
        }
        o.put("out", out.toString());
        spec.commandLine().getOut().println(o.toString());
        spec.commandLine().getOut().flush();
        return 0;
    }

    /** Options of the other estimator are an error, not silently ignored. */
    private static void refuse(String estimator, Object... nameValue) {
        for (int i = 0; i < nameValue.length; i += 2) {
            if (nameValue[i + 1] != null) {
                throw new IllegalArgumentException(nameValue[i] + " is not an option of --estimator " + estimator);
            }
        }
    }
}
