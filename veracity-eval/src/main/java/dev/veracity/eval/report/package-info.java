/**
 * The HTML report of evaluation runs. {@link dev.veracity.eval.report.HtmlReport#write} reads run directories
 * ({@code summary.json}, {@code results.jsonl}, {@code traces.db} through {@link dev.veracity.trace.TraceStore})
 * and writes static pages that open offline: a comparison table with interactive metric charts (Chart.js, one per
 * dataset and metric, with 95% intervals: {@link dev.veracity.eval.report.MetricCharts}) and XChart PNGs for the cost
 * and papers' figures, each run's questions in the dataset's order in a sortable, filterable table, and each
 * question's full agent transcript; the scripts are vendored and written once into the report's {@code assets/}
 * folder ({@link dev.veracity.eval.report.ReportAssets}). Templates are jmustache resources with HTML escaping
 * on; every piece of run content is treated as untrusted and escaped. {@link dev.veracity.eval.report.RunDir} reads a
 * run into a compact table of its questions (ids, scores, figures) and streams {@code results.jsonl} again for what
 * needs whole lines, so the report, {@code compare} and eval's closing table read a run of any length in a heap that
 * does not grow with it (the table's columns are memory-mapped temporary files: {@link
 * dev.veracity.eval.report.MappedArray}, with ids joined across runs by {@link dev.veracity.eval.report.IdColumn}); a run whose eval was interrupted (no {@code summary.json}, or one older than the lines) is read as
 * partial, its figures from the lines. {@link dev.veracity.eval.report.ComparisonTable} is the table {@code compare}
 * prints (one document per format, with {@link dev.veracity.eval.report.PairedComparison}'s differences from a
 * baseline, their p-values by {@link dev.veracity.eval.report.PairedTest}: exact McNemar for 0/1 metrics, sign-flip
 * permutation otherwise). {@link dev.veracity.eval.report.TreeReport} draws a rollout folder's trees ({@code trees.jsonl}) as SVG,
 * one page per question.
 */
package dev.veracity.eval.report;
