/**
 * The question-page sections of the report for the project's methods ({@link dev.veracity.eval.report.QuestionSection}):
 * what MARCH, Reasoning Court, MADAM-RAG, C-3PO and TruthRL decided for a question, read from the typed details each
 * method attaches to its answer (the result line's {@code details}, {@link dev.veracity.method.DetailKey}).
 *
 * <p>They live here, not beside each method in {@code veracity-methods}: a section implements
 * {@code veracity-eval}'s section interface over its {@code ResultLine}, and {@code veracity-methods} cannot depend on
 * {@code veracity-eval} (the reactor would have a cycle: eval's tests run the simulator, whose tests run the methods;
 * and eval runs methods only through the kernel's plug-in interface). The command line is the first module that sees
 * both; the detail types and their derivations stay with the methods.
 */
package dev.veracity.cli.report;
