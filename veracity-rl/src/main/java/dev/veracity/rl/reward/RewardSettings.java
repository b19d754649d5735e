package dev.veracity.rl.reward;

import dev.veracity.llm.client.LlmClient;
import dev.veracity.methods.march.MarchSettings;
import java.util.Objects;

/**
 * How rewards that need more than the label are built.
 *
 * @param llm           the model client of the rewards that call a model (MARCH); its backend, concurrency limit,
 *                      retries and response cache are the client's; null when no such reward is used
 * @param march         MARCH's settings (Checker samples, matching, ZTR scalar, ...; {@code MarchSettings.fromOptions})
 * @param fallbackScore the score of an input a reward cannot compute (its model cannot be reached); default 0.0,
 *                      as VeRL's rate-limited reward manager gives on a timeout
 * @param parallelism   the most inputs a model-calling reward scores at once in {@link Reward#scoreAll}
 * @param judge         TruthRL's judge: only {@code none} (exact match) for now
 * @param runId         the trace run id of the model calls
 */
public record RewardSettings(LlmClient llm, MarchSettings march, double fallbackScore, int parallelism, String judge,
                             String runId) {

    public RewardSettings {
        Objects.requireNonNull(march, "march");
        if (!Double.isFinite(fallbackScore)) {
            throw new IllegalArgumentException("the fallback score must be a finite number, was " + fallbackScore);
        }
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism must be >= 1, was " + parallelism);
        }
        judge = Objects.requireNonNullElse(judge, "none");
        runId = Objects.requireNonNullElse(runId, "rewards");
    }

    public static RewardSettings defaults() {
        return new RewardSettings(null, MarchSettings.defaults(), 0.0, 64, "none", "rewards");
    }

    public RewardSettings withLlm(LlmClient client) {
        return new RewardSettings(client, march, fallbackScore, parallelism, judge, runId);
    }

    public RewardSettings withMarch(MarchSettings settings) {
        return new RewardSettings(llm, settings, fallbackScore, parallelism, judge, runId);
    }

    public RewardSettings withFallbackScore(double score) {
        return new RewardSettings(llm, march, score, parallelism, judge, runId);
    }

    public RewardSettings withParallelism(int n) {
        return new RewardSettings(llm, march, fallbackScore, n, judge, runId);
    }

    public RewardSettings withJudge(String name) {
        return new RewardSettings(llm, march, fallbackScore, parallelism, name, runId);
    }

    public RewardSettings withRunId(String id) {
        return new RewardSettings(llm, march, fallbackScore, parallelism, judge, id);
    }
}
