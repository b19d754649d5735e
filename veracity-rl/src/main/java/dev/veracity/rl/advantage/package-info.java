/**
 * Advantages as the trainers compute them, to check a run or to precompute them (rLLM's
 * {@code use_precomputed_advantage}): {@link dev.veracity.rl.advantage.GrpoAdvantages} per
 * {@link dev.veracity.rl.advantage.GrpoFlavor} (VeRL, TRL, OpenRLHF) and
 * {@link dev.veracity.rl.advantage.StdScaling}; {@link dev.veracity.rl.advantage.Gae} and
 * {@link dev.veracity.rl.advantage.Whitening}; {@link dev.veracity.rl.advantage.AdvantageFile}, the JSONL door of
 * {@code veracity rl advantages}. Each class names the trainer file and function it follows.
 */
package dev.veracity.rl.advantage;
