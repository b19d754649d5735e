/**
 * LangChain4j components: {@link dev.veracity.langchain4j.VeracityChatModel}, a {@code ChatModel} that answers with any
 * Veracity method (compositions included) over any backend and puts the method's verdicts in the response's metadata
 * ({@link dev.veracity.langchain4j.VeracityResponseMetadata}), and
 * {@link dev.veracity.langchain4j.VeracityContentRetriever}, a {@code ContentRetriever} over an index built by
 * {@code veracity index} (BM25, dense or hybrid, as {@code veracity search} searches it). Bad input is a LangChain4j
 * exception with a one-line reason, at {@code build()} where it can be known then.
 */
package dev.veracity.langchain4j;
