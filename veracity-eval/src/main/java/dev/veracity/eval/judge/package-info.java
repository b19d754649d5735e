/**
 * LLM judges: grade a prediction against gold answers with a model, through {@link dev.veracity.llm.client.LlmClient}
 * (limited, retried, cached, traced with role "judge").
 *
 * <ul>
 *   <li>{@link dev.veracity.eval.judge.CragJudge}: TruthRL's outcome judge (CRAG-style JSON score), per gold: the
 *       authors' released prompt (system message with their 36 CRAG examples, then the user's) by default, the
 *       paper's Table 11 with {@link dev.veracity.eval.judge.JudgePrompt#PAPER}. TruthRL's order around it (exact
 *       match, abstention, "invalid question" before any judge call) is {@link dev.veracity.eval.metrics.TruthRlOrder}.
 *       {@link dev.veracity.eval.judge.ReasoningJudge} is its reasoning-quality judge (Table 12).</li>
 *   <li>{@link dev.veracity.eval.judge.TrueFalseJudge}: C-3PO, Appendix D.2 "Prompt of Evaluation" (True/False,
 *       all golds in one prompt).</li>
 *   <li>{@link dev.veracity.eval.judge.EquivalenceJudge}: our Yes/No answer-equivalence prompt, per gold.</li>
 * </ul>
 *
 * <p>Every result is a typed {@link dev.veracity.eval.judge.Verdict}: CORRECT, INCORRECT or UNPARSEABLE (never
 * silently scored), with each sample's vote and raw text. k samples ({@link dev.veracity.eval.judge.JudgeOptions})
 * are asked as one request with n = k and combined by majority over parseable votes, ties INCORRECT.
 * {@link dev.veracity.eval.judge.JudgeStats} counts verdicts and unparseable samples for a run's report:
 * <pre>{@code
 * CragJudge judge = new CragJudge(client, JudgeOptions.defaults());
 * Verdict v = judge.judge(JudgeInput.of(question, prediction, golds), CallContext.of(runId, qid, "truthrl"));
 * judge.stats().toJson();   // {"verdicts":..,"correct":..,"incorrect":..,"unparseable":..,"samples":..,"unparseable_samples":..}
 * }</pre>
 */
package dev.veracity.eval.judge;
