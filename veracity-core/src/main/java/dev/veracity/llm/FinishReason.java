package dev.veracity.llm;

import java.util.Locale;

/** Why a completion ended. Parsers treat {@link #LENGTH} as a possibly truncated output. */
public enum FinishReason {
    /** The model stopped by itself or hit a stop sequence. */
    STOP,
    /** The token limit cut the output: it may be incomplete. */
    LENGTH,
    /** A provider's content filter removed output. */
    CONTENT_FILTER,
    /** The model asked for a tool call. */
    TOOL_CALLS,
    /** The server gave no reason, or one we do not know. */
    UNKNOWN;

    /** Maps a wire value ("stop", "length", "eos", "content_filter", ...) to a reason; never throws. */
    public static FinishReason fromWire(String value) {
        if (value == null) {
            return UNKNOWN;
        }
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "stop", "eos", "stop_sequence", "end_turn", "end_of_text" -> STOP;
            case "length", "max_tokens", "max_length" -> LENGTH;
            case "content_filter" -> CONTENT_FILTER;
            case "tool_calls", "function_call", "tool_use" -> TOOL_CALLS;
            default -> UNKNOWN;
        };
    }
}
