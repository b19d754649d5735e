package dev.veracity.llm.llamacpp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.veracity.llm.ChatMessage;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChatPromptsTest {

    @Test
    void chatMlKeepsEveryMessageInPlaceAndOpensTheAssistantTurn() {
        String p = ChatPrompts.chatMl(List.of(ChatMessage.system("A"), ChatMessage.user("B"), ChatMessage.system("C")));

        assertThat(p).isEqualTo("<|im_start|>system\nA<|im_end|>\n<|im_start|>user\nB<|im_end|>\n"
                + "<|im_start|>system\nC<|im_end|>\n<|im_start|>assistant\n");
    }

    @Test
    void templateInputJoinsSystemMessagesIntoTheOneTheBindingTakes() {
        String json = ChatPrompts.templateInput(List.of(ChatMessage.system("A"), ChatMessage.user("B"),
                ChatMessage.assistant("C"), ChatMessage.system("D"))).toString();

        assertThat(json.replace(" ", "")).contains("[{\"role\":\"system\",\"content\":\"A\\n\\nD\"},"
                + "{\"role\":\"user\",\"content\":\"B\"},{\"role\":\"assistant\",\"content\":\"C\"}]");
    }
}
