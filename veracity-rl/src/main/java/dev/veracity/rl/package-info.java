/**
 * RL trainer integration: we write no trainer, we make every trainer able to use our rewards and data.
 * <ul>
 *   <li>{@link dev.veracity.rl.reward}: one reward core ({@code Reward}: question, response, label -> score and
 *       named details) with every official metric, MARCH's ZTR and error-rate rewards, and TruthRL's exact-match
 *       rewards, served the same way through the Java API, {@code veracity reward} and the reward server;</li>
 *   <li>{@link dev.veracity.rl.export}: training files for VeRL, OpenRLHF, TRL, LLaMA-Factory and slime from any
 *       dataset and method role prompt, whose labels the reward core reads back;</li>
 *   <li>{@link dev.veracity.rl.advantage}: GRPO group advantages and GAE as VeRL, TRL and OpenRLHF compute them;</li>
 *   <li>{@link dev.veracity.rl.jsonl}: the JSONL file doors' reading and all-or-nothing writing;</li>
 *   <li>{@link dev.veracity.rl.server}: the reward server ({@code veracity serve-rewards}), the third door, in the
 *       protocols of OpenRLHF, slime and the Python shims;</li>
 *   <li>{@link dev.veracity.rl.rollout}: rollouts over a dataset that make training data (C-3PO's credited trees);</li>
 *   <li>{@link dev.veracity.rl.areal}: online training with AReaL, the method's agents driven against the trainer's
 *       policy, one session per question, each trained interaction rewarded.</li>
 * </ul>
 */
package dev.veracity.rl;
