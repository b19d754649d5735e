/**
 * MADAM-RAG's baselines (004_70ac80c5c6f35dcd, Section 5.1, Appendices B, C, E): {@code self-reflection}
 * ({@link dev.veracity.methods.madam.baseline.SelfReflection}), {@code astute-rag}
 * ({@link dev.veracity.methods.madam.baseline.AstuteRag}) and {@code speculative-rag}
 * ({@link dev.veracity.methods.madam.baseline.SpeculativeRag}), with Appendix E's prompts as resources. Every
 * prediction is a canonical "All Correct Answers: [...]" line read by the MADAM-RAG aggregator parser.
 */
package dev.veracity.methods.madam.baseline;
