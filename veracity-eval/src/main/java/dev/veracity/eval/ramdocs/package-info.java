/**
 * Builds RAMDocs-style records (MADAM-RAG, 004_70ac80c5c6f35dcd, Section 3; controlled subsets of Sections 6.2 and
 * 6.3) from ambiguous questions with per-answer supporting documents: {@link dev.veracity.eval.ramdocs.RamdocsBuilder}
 * over {@link dev.veracity.eval.ramdocs.SourceRecord}s read by {@link dev.veracity.eval.ramdocs.SourceReader},
 * with misinformation by same-type entity substitution ({@link dev.veracity.eval.ramdocs.AnswerType}).
 */
package dev.veracity.eval.ramdocs;
