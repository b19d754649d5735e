/**
 * Benchmark answer metrics that reproduce the official evaluation scripts, and scoring of prediction files.
 *
 * <p>Every metric is a pure, total function of a prediction string, the gold answers and (where the metric needs
 * them) the wrong answers: any input, null included, gives a number and never an exception. Each class cites the
 * script whose rules it follows:
 * <ul>
 *   <li>{@link dev.veracity.eval.metrics.SquadEval}: SQuAD v1.1 {@code evaluate-v1.1.py} normalisation, EM, F1.</li>
 *   <li>{@link dev.veracity.eval.metrics.HotpotEval}: HotpotQA {@code hotpot_evaluate_v1.py} F1 (yes/no/noanswer rule).</li>
 *   <li>{@link dev.veracity.eval.metrics.NqOpenEval}: NQ-open / DPR {@code qa_validation.py} EM (Unicode NFD first).</li>
 *   <li>{@link dev.veracity.eval.metrics.TriviaQaEval}: TriviaQA {@code triviaqa_evaluation.py} EM and F1.</li>
 *   <li>{@link dev.veracity.eval.metrics.MusiqueEval}: MuSiQue {@code metrics/answer.py} EM and F1.</li>
 *   <li>{@link dev.veracity.eval.metrics.SubstringMatch}: PopQA / C-3PO accuracy.</li>
 *   <li>{@link dev.veracity.eval.metrics.FeverLabelAccuracy}: FEVER label accuracy.</li>
 *   <li>{@link dev.veracity.eval.metrics.StrictMultiAnswer}: MADAM-RAG strict accuracy and set P/R/F1.</li>
 *   <li>{@link dev.veracity.eval.metrics.Truthfulness}: TruthRL / CRAG truthfulness, each response decided by
 *       {@link dev.veracity.eval.metrics.TruthRlOrder} (the authors' evaluate.py order; with an LLM judge where exact
 *       match does not settle it: a {@link dev.veracity.eval.metrics.JudgedMetric}).</li>
 * </ul>
 * {@link dev.veracity.eval.metrics.Metrics#byName(String)} is the registry; {@link dev.veracity.eval.metrics.ScoreFile}
 * scores a JSONL prediction file; {@link dev.veracity.eval.metrics.LineScores} scores a run's result line as every
 * reader of {@code results.jsonl} does (a judged outcome as the line kept it; a metric of whole responses over the
 * line's raw output).
 */
package dev.veracity.eval.metrics;
