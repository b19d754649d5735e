package dev.veracity.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class ReasoningBlocksTest {

    @Test
    void removesCompleteBlocks() {
        assertThat(ReasoningBlocks.strip("<think>maybe 1998?</think>\nAll Correct Answers: [1963]"))
                .isEqualTo("\nAll Correct Answers: [1963]");
        assertThat(ReasoningBlocks.strip("a<THINK>x</Think>b<thinking>y</thinking>c")).isEqualTo("abc");
    }

    @Test
    void aCloseWithoutOpenDropsWhatCameBefore() {
        // Qwen3 / DeepSeek-R1 chat templates put <think> in the prompt: the output holds only the close.
        assertThat(ReasoningBlocks.strip("Agent 3 says 1998...\n</think>\n\nAnswer: 1963")).isEqualTo("\n\nAnswer: 1963");
    }

    @Test
    void anUnclosedBlockIsACutOffThought() {
        assertThat(ReasoningBlocks.strip("<think>Answer: 1998 maybe")).isEmpty();
        assertThat(ReasoningBlocks.strip("Answer: 1963\n<think>or 1998")).isEqualTo("Answer: 1963\n");
    }

    @Test
    void blocksDoNotNestAndOtherTagsStay() {
        assertThat(ReasoningBlocks.strip("<think>a<think>b</think>c")).isEqualTo("c");
        String html = "x <b>bold</b> <thin> y";
        assertThat(ReasoningBlocks.strip(html)).isSameAs(html);
        assertThat(ReasoningBlocks.strip(null)).isEmpty();
        assertThat(ReasoningBlocks.present("<think>x</think>y")).isTrue();
        assertThat(ReasoningBlocks.present("y")).isFalse();
    }

    @Property(tries = 60)
    void linearOnHostileText(@ForAll("hostile") String s) {
        Adversarial.assertFinishes(ReasoningBlocks::strip, s, Duration.ofSeconds(2));
    }

    @Provide
    Arbitrary<String> hostile() {
        return Adversarial.strings(100_000, List.of("<think", "</think", "<thinking>", "</THINK>"));
    }
}
