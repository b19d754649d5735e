/**
 * The baselines the papers compare against: {@code no-rag} (closed book), {@code standard-rag} (all documents in
 * one prompt; MADAM-RAG's concatenated prompt for multi-answer tasks), {@code cot} and {@code cot-sc} (Reasoning
 * Court's few-shot chain-of-thought, with 21 self-consistency samples). Prompts are resources, verbatim from the
 * papers' appendices with the section cited in each file.
 */
package dev.veracity.methods.baseline;
