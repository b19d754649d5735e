/**
 * Evaluation runs: {@link dev.veracity.eval.run.EvalRunner} answers a dataset's questions concurrently with a
 * method, scores them with the dataset's official metrics, and writes {@code results.jsonl} (resumable after a
 * kill: {@link dev.veracity.eval.run.ResultsFile}) and {@code summary.json}. With a judge, the truthfulness metrics are
 * judged in TruthRL's order when a question is answered ({@code AnswerScores}) and re-aggregated from the lines.
 * {@link dev.veracity.eval.run.RunLock} keeps a second eval out of a run folder while one writes there.
 *
 * <p>{@link dev.veracity.eval.run.EvalJob} is one run, typed and checked ({@code eval} maps its flags to one,
 * {@code reproduce} and {@code demo} build them directly); {@link dev.veracity.eval.run.EvalJobRunner} runs it once
 * per folder ({@link dev.veracity.eval.run.RunConfig}: {@code run.json}) on what the front end provides
 * ({@link dev.veracity.eval.run.JobEnvironment}, {@link dev.veracity.eval.run.JobDocuments}), with a method's training
 * records ({@link dev.veracity.method.TrainingRecords}) written beside its answers
 * ({@link dev.veracity.eval.run.AgentRecordsFile}).
 */
package dev.veracity.eval.run;
