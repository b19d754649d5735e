/**
 * Text as models send it: the clean-up every parser, metric, cache and trace shares, so that one mechanism decides
 * what a model "said" (reasoning blocks removed, malformed Unicode repaired) and every path sees the same text.
 */
package dev.veracity.text;
