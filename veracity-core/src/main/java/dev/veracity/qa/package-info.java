/**
 * The question-answering domain every method and dataset shares: {@link dev.veracity.qa.QaItem} (question,
 * documents, gold answers with aliases, wrong answers, query time, the raw record),
 * {@link dev.veracity.qa.Document} and {@link dev.veracity.qa.GoldAnswer}.
 */
package dev.veracity.qa;
