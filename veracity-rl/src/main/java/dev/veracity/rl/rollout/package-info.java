/**
 * Rollouts over a dataset for training data: {@link dev.veracity.rl.rollout.C3poRolloutRun} runs C-3PO's tree
 * rollout ({@code dev.veracity.methods.c3po.rollout}) on every question, scores the leaves with a registered
 * {@link dev.veracity.rl.reward.Reward}, and appends each finished tree to the run folder's files
 * ({@link dev.veracity.rl.rollout.RolloutFiles}), resumable at the question level; the question loop
 * ({@link dev.veracity.rl.rollout.QuestionRuns}) and the files serve the online rollout too.
 */
package dev.veracity.rl.rollout;
