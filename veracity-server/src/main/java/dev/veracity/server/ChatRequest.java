package dev.veracity.server;

import dev.veracity.qa.Document;
import java.util.List;
import java.util.Map;

/**
 * A chat completion request as the server answers it, read and checked by {@link ChatRequestReader}.
 *
 * @param model        the method and upstream model
 * @param question     the last user message's text
 * @param documents    the documents the request gave, or null when it gave none (the index's are used, if any)
 * @param options      {@code veracity_options} as strings, not yet checked against the method's declaration
 * @param stream       answer with server-sent events
 * @param includeUsage with {@code stream}, a last chunk with the usage ({@code stream_options.include_usage})
 * @param dataset      {@code veracity_dataset}: the prompt family for methods whose prompts differ by dataset, or ""
 * @param multiAnswer  {@code veracity_multi_answer}: ask for every valid answer (MADAM-RAG's answer-set format)
 * @param ignored      what the request held that the method does not use (sampling fields, other messages),
 *                     reported back in the {@code veracity} field
 */
public record ChatRequest(ModelName model, String question, List<Document> documents, Map<String, String> options,
                          boolean stream, boolean includeUsage, String dataset, boolean multiAnswer,
                          List<String> ignored) {

    public ChatRequest {
        documents = documents == null ? null : List.copyOf(documents);
        options = Map.copyOf(options);
        ignored = List.copyOf(ignored);
    }
}
