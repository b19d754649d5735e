/**
 * The ReAct environment Reasoning Court's agents act in: {@link dev.veracity.retrieval.react.WikiEnvironment}
 * ({@code Search}, {@code Lookup}, {@code Finish}) over a {@link dev.veracity.retrieval.react.PageStore} (a Wikipedia
 * dump's pages, indexed) or a {@link dev.veracity.retrieval.react.QuestionPageSource} (a question's own paragraphs, in
 * memory without an index, answering as an index of them would), with a
 * total, linear-time action parser ({@link dev.veracity.retrieval.react.ActionParser}: a model's turn to an
 * {@link dev.veracity.retrieval.react.AgentTurn}) and a simple
 * {@link dev.veracity.retrieval.react.SentenceSplitter}.
 */
package dev.veracity.retrieval.react;
