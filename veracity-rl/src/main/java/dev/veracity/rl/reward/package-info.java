/**
 * The reward core: one {@link dev.veracity.rl.reward.Reward} function per name behind every door.
 * <ul>
 *   <li>{@link dev.veracity.rl.reward.Reward}: (question, response, {@link dev.veracity.rl.reward.Label}, context) ->
 *       {@link dev.veracity.rl.reward.RewardResult} (score, ordered details, ok or fallback with a reason); total and
 *       thread-safe; {@code scoreAll} for batches; {@code numericDetails} declares the per-sample columns trainers log
 *       (the same for every sample, fallbacks included);</li>
 *   <li>{@link dev.veracity.rl.reward.Label}: the gold answers and optional fields, read totally from a plain string,
 *       a JSON string, a list or an object ({@link dev.veracity.rl.reward.LabelParse});</li>
 *   <li>{@link dev.veracity.rl.reward.Rewards}: the registry (every official metric, {@code accuracy},
 *       {@code truthrl-ternary}, {@code truthrl-binary}, {@code march-ztr}, {@code march-err}), built with
 *       {@link dev.veracity.rl.reward.RewardSettings};</li>
 *   <li>{@link dev.veracity.rl.reward.RewardRows} and {@link dev.veracity.rl.reward.RewardFile}: the JSON rows and the
 *       JSONL file door of {@code veracity reward}.</li>
 * </ul>
 */
package dev.veracity.rl.reward;
