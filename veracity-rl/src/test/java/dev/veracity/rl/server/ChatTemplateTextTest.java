package dev.veracity.rl.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.veracity.testing.CpuBudget;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ChatTemplateTextTest {

    private static final String QWEN = "<|im_start|>user\nWhere is it?<|im_end|>\n<|im_start|>assistant\n";

    @Test
    void theResponseIsWhatFollowsThePromptExactlyOrAfterABeginTokenOrWithOtherWhitespace() {
        assertThat(ChatTemplateText.afterPrompt(QWEN + "Paris<|im_end|>", QWEN)).hasValue("Paris<|im_end|>");
        assertThat(ChatTemplateText.afterPrompt("<|begin_of_text|>" + "Q: x\nA:" + " Paris", "Q: x\nA:")).hasValue(" Paris");
        // a decode that gave back other spaces (sentencepiece) still strips the prompt
        assertThat(ChatTemplateText.afterPrompt("<s> [INST]  Where is it? [/INST] Paris", "[INST] Where is it? [/INST]"))
                .hasValue(" Paris");
        assertThat(ChatTemplateText.afterPrompt("anything", "")).hasValue("anything");
        // a prompt that is not the query's prefix is no prefix to remove, even when it occurs later
        assertThat(ChatTemplateText.afterPrompt("system\n" + QWEN + "Paris", QWEN)).isEmpty();
        assertThat(ChatTemplateText.afterPrompt("Where", QWEN)).isEmpty();
    }

    @Test
    void endTokensAndTheWhitespaceBetweenThemGoOtherTextStaysAsItIs() {
        assertThat(ChatTemplateText.withoutEndTokens("Paris<|im_end|>")).isEqualTo("Paris");
        assertThat(ChatTemplateText.withoutEndTokens("Paris<|im_end|>\n<|endoftext|><|endoftext|>")).isEqualTo("Paris");
        assertThat(ChatTemplateText.withoutEndTokens("Paris\n<|eot_id|>")).isEqualTo("Paris\n");
        assertThat(ChatTemplateText.withoutEndTokens("Paris</s>")).isEqualTo("Paris");
        assertThat(ChatTemplateText.withoutEndTokens("Paris<|end|>")).isEqualTo("Paris");
        assertThat(ChatTemplateText.withoutEndTokens("Paris<end_of_turn>")).isEqualTo("Paris");
        assertThat(ChatTemplateText.withoutEndTokens("Paris \n")).isEqualTo("Paris \n");
        assertThat(ChatTemplateText.withoutEndTokens("<|im_end|> in the middle<|im_end|>")).isEqualTo("<|im_end|> in the middle");
        assertThat(ChatTemplateText.withoutEndTokens("<|im_end|>")).isEmpty();
        assertThat(ChatTemplateText.withoutEndTokens("")).isEmpty();
    }

    @Test
    void hostileTextsTakeLinearTime() {
        String padding = "<|endoftext|>".repeat(200_000) + " ".repeat(200_000);
        String aaa = "a".repeat(1_000_000);
        CpuBudget.run(Duration.ofSeconds(2), "four hostile texts of up to 2.8 million characters", () -> {
            assertThat(ChatTemplateText.withoutEndTokens("x" + "<|endoftext|> ".repeat(200_000))).isEqualTo("x");
            assertThat(ChatTemplateText.withoutEndTokens(padding)).isEmpty();
            assertThat(ChatTemplateText.afterPrompt(aaa, aaa.substring(1) + "b")).isEmpty();
            assertThat(ChatTemplateText.afterPrompt(" a".repeat(500_000), "a ".repeat(499_999) + "b")).isEmpty();
        });
    }
}
