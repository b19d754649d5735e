/**
 * MARCH (Multi-Agent Reinforced self-CHeck; paper 000_f0af45795e5662a9, section 2 and Appendices A to C): a
 * response is checked against its documents by three agents of one model.
 *
 * <ol>
 *   <li>{@link dev.veracity.methods.march.Solver} answers from the documents (Appendix A.1).</li>
 *   <li>{@link dev.veracity.methods.march.Proposer} turns the response, and only the response, into numeric
 *       question-answer pairs (A.2; at least {@code min-pairs} of them, Appendix B.4), parsed by
 *       {@link dev.veracity.methods.march.ClaimParser}.</li>
 *   <li>{@link dev.veracity.methods.march.Checker} answers the questions from the documents, blind: its input type
 *       {@link dev.veracity.methods.march.CheckerInput} holds documents and questions and nothing else (A.3). It
 *       is sampled k times (default 3); {@link dev.veracity.methods.march.CheckerOutputParser} keys answers by
 *       their number.</li>
 *   <li>{@link dev.veracity.methods.march.MarchVerifier} votes per claim (+1 per sample whose answer matches the
 *       claim under an {@link dev.veracity.methods.march.AnswerMatcher}, -1 otherwise; a fault when the sum is
 *       below 0, as the authors' code does) and returns a {@link dev.veracity.methods.march.Verification}.</li>
 *   <li>Rewards: {@link dev.veracity.methods.march.ZeroToleranceReward} (equation 7, with the -1/0 and 0/1
 *       scalars of Table 6) and {@link dev.veracity.methods.march.ErrorRateReward} (section 4.4).</li>
 * </ol>
 *
 * <p>{@link dev.veracity.methods.march.MarchMethod} ("march") answers with the Solver and applies a
 * {@link dev.veracity.methods.march.FailurePolicy} when verification fails; its
 * {@link dev.veracity.methods.march.MarchOutcome} carries the training records ({@link dev.veracity.method.AgentRecord}s, the one rollout-record schema)
 * (Solver and one Checker trajectory with the ZTR reward, equation 8) and feeds
 * {@link dev.veracity.methods.march.ConsistencyRate}.
 *
 * <p>Where we differ from the authors' code: answers are keyed by the number the Checker wrote (their code uses the
 * position when the output does not start with "1."); parsers accept bracketed or bare "Answer:", one line or many,
 * and never throw; a number the Checker answers twice is ambiguous and counts as missing. Beyond the paper and off
 * by default: the strict numeric matcher ({@code match=strict}) and non-numeric claims ({@code claims=typed}).
 */
package dev.veracity.methods.march;
