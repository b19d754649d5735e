package dev.veracity.rl.reward;

import dev.veracity.llm.LlmException;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.methods.march.MarchSettings;
import dev.veracity.methods.march.MarchVerifier;
import dev.veracity.methods.march.Verification;
import dev.veracity.text.ReasoningBlocks;
import dev.veracity.trace.CallContext;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * MARCH's rewards over its own pipeline ({@link MarchVerifier}: the Proposer reads the response, the Checker answers
 * the Proposer's questions k times from the label's documents, blind to the response, and each claim is voted):
 * <ul>
 *   <li>{@code march-ztr}: the Zero-Tolerance Reward of equation 7 ({@link MarchSettings#ztr()}: -1/0 by default);</li>
 *   <li>{@code march-err}: the Error Rate Reward of Table 6, -faults/claims ({@link MarchSettings#errorRateReward()}).</li>
 * </ul>
 * When a model call fails for good (the server is down, every retry spent) the result is the configured fallback
 * score, flagged {@link RewardResult.Status#FALLBACK} with the error as the reason: a trainer must get an answer for
 * every sample, and the flag lets it (and the logs) tell a real -1 from an outage.
 */
final class MarchReward implements Reward {

    /** Which of MARCH's two rewards. */
    enum Kind { ZTR, ERROR_RATE }

    private final Kind kind;
    private final LlmClient llm;
    private final MarchSettings settings;
    private final MarchVerifier verifier;
    private final double fallbackScore;
    private final int parallelism;
    private final String runId;

    MarchReward(Kind kind, RewardSettings s) {
        this.kind = kind;
        this.llm = Objects.requireNonNull(s.llm(), "llm");
        this.settings = s.march();
        this.verifier = new MarchVerifier(settings);
        this.fallbackScore = s.fallbackScore();
        this.parallelism = s.parallelism();
        this.runId = s.runId();
    }

    @Override
    public String name() {
        return kind == Kind.ZTR ? "march-ztr" : "march-err";
    }

    /** The verification's counts: {@code claims}, {@code faults}, {@code calls}; neutral 0. */
    @Override
    public Map<String, Double> numericDetails() {
        return NumericDetails.zeros("claims", "faults", "calls");
    }

    @Override
    public Optional<String> problem(RewardInput in) {
        return in.label().documents().isEmpty()
                ? Optional.of("MARCH's Checker answers from documents, and the label has no \"documents\"")
                : Optional.empty();
    }

    @Override
    public RewardResult score(RewardInput in) {
        Optional<String> problem = problem(in);
        if (problem.isPresent()) {
            return RewardResult.fallback(fallbackScore, problem.get());
        }
        String response = ReasoningBlocks.strip(in.response());
        Verification v;
        try {
            v = verifier.verify(llm, CallContext.of(runId, in.traceId(), "march"), response, in.label().documents());
        } catch (LlmException e) {
            return RewardResult.fallback(fallbackScore, "model call failed: " + e.summary());
        } catch (RuntimeException e) {
            // A batch must not die on one input: any other failure is flagged the same way, with what it was.
            return RewardResult.fallback(fallbackScore, "reward failed: " + e.getClass().getSimpleName() + ": " + e.getMessage());
        }
        double score = kind == Kind.ZTR ? settings.ztr().of(v) : settings.errorRateReward().of(v);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("verification", v.status().label());
        details.put("claims", v.claims().size());
        details.put("faults", v.faults());
        details.put("calls", v.calls());
        return RewardResult.ok(score, details);
    }

    @Override
    public List<RewardResult> scoreAll(List<RewardInput> inputs) {
        return BoundedParallel.map(inputs, parallelism, this::score);
    }
}
