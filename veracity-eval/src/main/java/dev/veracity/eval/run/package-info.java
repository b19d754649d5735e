/**
 * Evaluation runs: {@link dev.veracity.eval.run.EvalRunner} answers a dataset's questions concurrently with a
 * method, scores them with the dataset's official metrics, and writes {@code results.jsonl} (resumable after a
 * kill: {@link dev.veracity.eval.run.ResultsFile}) and {@code summary.json}. With a judge, the truthfulness metrics are
 * judged in TruthRL's order when a question is answered ({@code AnswerScores}) and re-aggregated from the lines.
 * {@link dev.veracity.eval.run.RunLock} keeps a second eval out of a run folder while one writes there.
 */
package dev.veracity.eval.run;
