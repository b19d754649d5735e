/**
 * An example plug-in: a small method of its own ({@link dev.veracity.examples.citecheck.CiteCheck}: answer, cite a
 * passage, abstain unless the passage contains the answer), its prompt (a resource beside it), its parser
 * ({@link dev.veracity.examples.citecheck.CitedAnswer}), its reward and its simulator reader. Everything lives in this
 * folder and reaches Veracity through {@code META-INF/services}; nothing outside {@code examples/} names it.
 */
package dev.veracity.examples.citecheck;
