package dev.veracity.llm.llamacpp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.veracity.llm.LlmException;
import dev.veracity.llm.LlmRequest;
import org.junit.jupiter.api.Test;

class SamplingSettingsTest {

    @Test
    void sampleSeedsAreTheRequestSeedPlusTheSampleIndexInThirtyOneBits() {
        assertThat(SamplingSettings.seedFor(null, 3)).isNull();
        assertThat(SamplingSettings.seedFor(7L, 0)).isEqualTo(7);
        assertThat(SamplingSettings.seedFor(7L, 2)).isEqualTo(9);
        // Never llama.cpp's "random" seed 0xFFFFFFFF, never negative.
        assertThat(SamplingSettings.seedFor(-1L, 0)).isEqualTo(0x7FFF_FFFF);
        assertThat(SamplingSettings.seedFor(Long.MAX_VALUE, 1)).isNotNegative();
    }

    @Test
    void mapsSettingsAndKnownExtrasAndIgnoresTheRest() {
        LlmRequest r = LlmRequest.completion("x").temperature(0.0).topP(0.5).topK(7).maxTokens(9)
                .extra("min_p", 0.25).extra("repetition_penalty", "1.5").extra("top_k", 99)
                .extra("ignore_eos", true).extra("best_of", 3).build();

        String json = SamplingSettings.forSample("x", r, 11, 9).toString();

        assertThat(json).contains("\"n_predict\": 9", "\"temperature\": 0.0", "\"top_p\": 0.5", "\"top_k\": 7",
                "\"seed\": 11", "\"min_p\": 0.25", "\"repeat_penalty\": 1.5", "\"ignore_eos\": true",
                "\"cache_prompt\": false");
        assertThat(json).doesNotContain("best_of", "99", "n_probs", "stop");
    }

    @Test
    void rejectsExtrasOfTheWrongType() {
        LlmRequest r = LlmRequest.completion("x").extra("ignore_eos", "maybe").build();

        assertThatThrownBy(() -> SamplingSettings.forSample("x", r, null, 4)).isInstanceOf(LlmException.class)
                .hasMessageContaining("ignore_eos");
    }
}
