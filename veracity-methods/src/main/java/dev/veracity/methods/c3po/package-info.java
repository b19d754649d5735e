/**
 * C-3PO (Chen et al., ICML 2025; {@code ../shared/papers/002_d44d7225b1bdaee8.txt}): a small proxy model plays three
 * agents between a retriever and a large LLM, which it never changes. Read top to bottom against the paper:
 * <ul>
 *   <li>{@link dev.veracity.methods.c3po.C3poPrompts}: the agents' instructions and states (Appendix B.1) and the
 *       LLM's roadmap (D.1) and answer prompts, as the authors' released code sends them, diffed against the paper by
 *       {@code PaperPromptsTest};</li>
 *   <li>{@link dev.veracity.methods.c3po.FewShot} and {@link dev.veracity.methods.c3po.FewShotExamples}: the authors'
 *       released few-shot examples and their seeded random draw (the roadmap and the answer; every agent for
 *       C-3PO-ICL, section 6.7);</li>
 *   <li>{@link dev.veracity.methods.c3po.RouterParser}, {@link dev.veracity.methods.c3po.FilterParser},
 *       {@link dev.veracity.methods.c3po.DecisionParser}: one total, linear-time parser per output format, typed
 *       failures ({@link dev.veracity.methods.c3po.ParseFailure});</li>
 *   <li>{@link dev.veracity.methods.c3po.State} and {@link dev.veracity.methods.c3po.Transition}: the deterministic
 *       state transition function of Appendix B.2, with the authors' limits (forced [LLM], next-10 rule);</li>
 *   <li>{@link dev.veracity.methods.c3po.C3po}: Algorithm 1 (inference), method {@code c3po};</li>
 *   <li>{@code rollout}: the tree-structured rollout and Monte Carlo credit of section 5.1 (eq. 1-5).</li>
 * </ul>
 * Two models: the proxy ({@link Agent#PROXY}, a declared {@link dev.veracity.method.ModelRole}) and the
 * LLM ({@link dev.veracity.method.MethodContext#llm()}); one model plays both when only one is configured, which is
 * C-3PO-ICL (section 6.7) when it is a large instruction model.
 */
package dev.veracity.methods.c3po;
