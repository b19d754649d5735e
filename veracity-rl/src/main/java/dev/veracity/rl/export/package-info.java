/**
 * Training data for the trainers we plug into ({@code veracity rl export}): any dataset, any method's role prompt
 * ({@link dev.veracity.methods.RolePrompts}), written in each trainer's convention, read from its source: VeRL RL
 * parquet (parquet-java, without Hadoop) or JSON Lines, OpenRLHF, TRL (prompt-only, DPO, SFT), LLaMA-Factory alpaca with
 * its {@code dataset_info.json} entry, and slime. RL rows carry the label the reward core reads back
 * ({@link dev.veracity.rl.reward.Label#parse}), so a rollout of a row is scored by {@code veracity reward} and the reward
 * server as {@code eval} would score it. {@link dev.veracity.rl.export.TrainingDataExport} is the entry point.
 */
package dev.veracity.rl.export;
