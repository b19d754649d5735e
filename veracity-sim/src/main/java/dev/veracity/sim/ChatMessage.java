package dev.veracity.sim;

/**
 * One message of a chat request, as rules see it.
 *
 * @param role    {@code system}, {@code user}, {@code assistant}, {@code tool}, ...
 * @param content the message's text: the {@code content} string, or its text parts concatenated;
 *                {@code ""} when it has none (e.g. an assistant message carrying only tool calls)
 */
public record ChatMessage(String role, String content) {
}
