/**
 * MADAM-RAG (Wang et al., "Retrieval-Augmented Generation with Conflicting Evidence", 004_70ac80c5c6f35dcd):
 * one {@link dev.veracity.methods.madam.Agent} per document, an {@link dev.veracity.methods.madam.Aggregator}
 * per round and a multi-round {@link dev.veracity.methods.madam.Debate} with the authors' early stop
 * ({@link dev.veracity.methods.madam.EarlyStop}). Prompts are Appendix E's, verbatim, as resources.
 *
 * <p>Where we differ from the authors' release (HanNight/RAMDocs): a round's agents run concurrently (theirs run
 * one after another); generations may be longer than their 128 tokens; the aggregator's
 * {@code All Correct Answers: [...]} is parsed into the answer set ({@link
 * dev.veracity.methods.madam.AggregatorOutputParser}), and unparseable outputs are recorded, not fatal.
 */
package dev.veracity.methods.madam;
