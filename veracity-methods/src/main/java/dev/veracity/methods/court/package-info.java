/**
 * Reasoning Court (Wu et al., "Reasoning Court: Combining Reasoning, Action, and Judgment for Multi-Hop Reasoning",
 * 003_db09377d9b7d779f; no code released), read against its Sections 3-6 and Appendix B.
 *
 * <p>Top to bottom: the prompts ({@link dev.veracity.methods.court.CourtPrompts}, verbatim resources: B.2 few-shot
 * agents per dataset, B.3 judges, B.4 debater, B.5 LLM-as-a-judge; ours, marked, where the paper names a baseline
 * without printing its prompt); the agent's turn parser (the retrieval module's ReAct {@code ActionParser}, which its
 * {@code WikiEnvironment} reads actions with too) and the judge's
 * ({@link dev.veracity.methods.court.JudgeOutputParser}), total and linear-time with typed failures; the ReAct
 * agent ({@link dev.veracity.methods.court.ReactAgent}) in the retrieval module's {@code WikiEnvironment} over a page
 * store or the question's paragraphs ({@link dev.veracity.methods.court.QuestionPages}), agents run concurrently
 * ({@link dev.veracity.methods.court.Agents}); the judge ({@link dev.veracity.methods.court.CourtJudge}); and the
 * methods: {@code court} and {@code court-no-judge} ({@link dev.veracity.methods.court.ReasoningCourt}),
 * {@code react} and {@code react-sc} ({@link dev.veracity.methods.court.React}), {@code react-cot-sc} and
 * {@code cot-sc-react} ({@link dev.veracity.methods.court.ReactCotSc}, over the {@code cot-sc} baseline),
 * {@code react-self-refine}, {@code react-mad} and {@code react-judge} ({@link dev.veracity.methods.court.ReactJudges}),
 * {@code cot-judge} and {@code mad}. Standard prompting, CoT and CoT-SC are the {@code baseline} package's
 * {@code no-rag}, {@code cot} and {@code cot-sc}.
 *
 * <p>Where the paper is silent we follow ReAct's released code (Yao et al. 2023, {@code hotpotqa.ipynb},
 * {@code wikienv.py}): its instructions before the examples, the stop at {@code "\nObservation i:"}, the second call
 * for a turn without an action, the forced {@code finish[]} (an empty answer) at the step limit, and the observations.
 * How the two agents can differ (the paper runs both at temperature 0) is explained in
 * {@link dev.veracity.methods.court.ReactSettings}.
 */
package dev.veracity.methods.court;
