package dev.veracity.llm.llamacpp;

import de.kherud.llama.InferenceParameters;
import de.kherud.llama.Pair;
import dev.veracity.llm.ChatMessage;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns chat messages into the one prompt text llama.cpp completes.
 *
 * <p>With a chat template (the GGUF's {@code tokenizer.chat_template} or one given to the builder) llama.cpp
 * renders the messages itself; the binding takes at most one system message, placed first, so several system
 * messages are joined, in order, by blank lines. Without a template the messages are rendered as ChatML, the
 * format llama.cpp itself falls back to and which most instruction-tuned small models understand:
 *
 * <pre>
 * &lt;|im_start|&gt;system
 * {content}&lt;|im_end|&gt;
 * &lt;|im_start|&gt;user
 * {content}&lt;|im_end|&gt;
 * &lt;|im_start|&gt;assistant
 * </pre>
 */
final class ChatPrompts {

    private ChatPrompts() {
    }

    /** The ChatML rendering, ending with the open assistant turn the model completes. */
    static String chatMl(List<ChatMessage> messages) {
        StringBuilder sb = new StringBuilder();
        for (ChatMessage m : messages) {
            sb.append("<|im_start|>").append(m.role().wireName()).append('\n').append(m.content())
                    .append("<|im_end|>\n");
        }
        return sb.append("<|im_start|>assistant\n").toString();
    }

    /** The binding's input for {@code LlamaModel.applyTemplate}: one leading system text, then user/assistant turns. */
    static InferenceParameters templateInput(List<ChatMessage> messages) {
        StringBuilder system = new StringBuilder();
        List<Pair<String, String>> turns = new ArrayList<>();
        for (ChatMessage m : messages) {
            if (m.role() == ChatMessage.Role.SYSTEM) {
                if (!system.isEmpty()) {
                    system.append("\n\n");
                }
                system.append(m.content());
            } else {
                turns.add(new Pair<>(m.role().wireName(), m.content()));
            }
        }
        return new InferenceParameters("").setMessages(system.isEmpty() ? null : system.toString(), turns);
    }
}
