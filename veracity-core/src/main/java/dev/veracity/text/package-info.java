/**
 * Text as models send it: the clean-up every parser, metric, cache and trace shares, so that one mechanism decides
 * what a model "said" (reasoning blocks removed, malformed Unicode repaired) and every path sees the same text; and
 * the one decoder of the files a user gives (datasets, corpora, page dumps), {@link dev.veracity.text.StrictUtf8Reader},
 * which refuses bytes that are not UTF-8 with their line instead of reading them as U+FFFD.
 */
package dev.veracity.text;
