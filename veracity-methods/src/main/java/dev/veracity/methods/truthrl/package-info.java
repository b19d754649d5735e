/**
 * TruthRL (Wei et al., 2025; {@code ../shared/papers/001_7b65862a126bc16f.txt}): a model that answers, abstains
 * ("I don't know") or calls a false premise ("invalid question"), reasoning in {@code <think>} and boxing its final
 * answer.
 *
 * <ul>
 *   <li>{@link dev.veracity.methods.truthrl.TruthRlPrompts}: the inference prompts of Tables 9 (no retrieval) and 10
 *       (with retrieval), as the authors' released code sends them (one user message; references as
 *       {@code <DOC>Document [i]: ...</DOC>} blocks capped at 80,000 characters);</li>
 *   <li>{@link dev.veracity.methods.truthrl.TruthRl}: the inference method, {@code truthrl} with the question's
 *       documents and {@code truthrl-no-retrieval} closed book; the answer is the box
 *       ({@link dev.veracity.qa.BoxedAnswer}) and its kind ({@link dev.veracity.qa.Abstention}) a signal.</li>
 * </ul>
 * The rewards (binary, ternary, knowledge- and reasoning-enhanced) live in the reward core of {@code veracity-rl};
 * the truthfulness metric in {@code veracity-eval}.
 */
package dev.veracity.methods.truthrl;
