package dev.veracity.llm;

import java.util.Objects;

/**
 * One message of a chat conversation.
 *
 * @param role    who speaks
 * @param content what is said; never null (an absent content is the empty string)
 */
public record ChatMessage(Role role, String content) {

    /** The speaker of a message, as in the OpenAI chat format. */
    public enum Role {
        SYSTEM, USER, ASSISTANT;

        /** The wire name used by OpenAI-compatible servers. */
        public String wireName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        /** The role of a wire name; anything else (a tool, a developer message) reads as the user's. */
        public static Role fromWire(String name) {
            return switch (name == null ? "" : name) {
                case "system" -> SYSTEM;
                case "assistant" -> ASSISTANT;
                default -> USER;
            };
        }
    }

    public ChatMessage {
        Objects.requireNonNull(role, "role");
        content = content == null ? "" : content;
    }

    public static ChatMessage system(String content) {
        return new ChatMessage(Role.SYSTEM, content);
    }

    public static ChatMessage user(String content) {
        return new ChatMessage(Role.USER, content);
    }

    public static ChatMessage assistant(String content) {
        return new ChatMessage(Role.ASSISTANT, content);
    }
}
