package dev.veracity.method;

import dev.veracity.llm.ChatMessage;
import java.util.List;
import java.util.Objects;

/**
 * The chat messages one agent of a role sends, as its method's pipeline sends them.
 *
 * @param agent    the agent, named as the traces name its calls ({@code solver}, {@code answerer}, {@code agent-2})
 * @param messages the messages, at least one
 */
public record AgentPrompt(String agent, List<ChatMessage> messages) {

    public AgentPrompt {
        Objects.requireNonNull(agent, "agent");
        messages = List.copyOf(messages);
        if (messages.isEmpty()) {
            throw new IllegalArgumentException("a prompt needs at least one message");
        }
    }
}
