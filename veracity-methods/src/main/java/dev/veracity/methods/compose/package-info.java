/**
 * Composition: any answering method followed by MARCH's verification of its answer and MARCH's policy, as one method
 * ({@code madam-rag+march}, {@code standard-rag+march+abstain}, {@code c3po+march+regenerate}). One pipeline over the
 * method interface, no per-pair glue: the first stage answers, MARCH's Proposer and blind Checker verify that answer
 * against the documents the question carried, and the policy keeps the answer (reporting the verdict), abstains, or
 * asks the method again for another sample when verification fails. Calls, tokens and traces add up per stage (the
 * stages' roles: the method's own, then proposer and checker).
 */
package dev.veracity.methods.compose;
