package dev.veracity.embed.onnx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class OnnxEmbedderTest {

    private static final String LONG = "The Eiffel Tower is a wrought-iron lattice tower on the Champ de Mars in Paris, France."
            + " It is named after the engineer Gustave Eiffel, whose company designed and built the tower from 1887 to"
            + " 1889. Locally nicknamed La dame de fer, it was constructed as the centrepiece of the 1889 World's Fair,"
            + " and to crown the centennial anniversary of the French Revolution. Although initially criticised by some"
            + " of France's leading artists and intellectuals for its design, it has since become a global icon.";

    /** The batched encoder must give the vectors LangChain4j's one-text-at-a-time encoder gives, in the caller's order. */
    @Test
    void batchedVectorsMatchLangChain4jInOrder() {
        List<String> texts = List.of("Paris", LONG, "What is the capital of France?", LONG.substring(0, 120), "tower");
        List<float[]> ours = OnnxEmbedder.bgeSmall().embed(texts);
        var reference = new BgeSmallEnV15QuantizedEmbeddingModel(Runnable::run);
        assertThat(ours).hasSize(texts.size());
        for (int i = 0; i < texts.size(); i++) {
            float[] ref = reference.embed(TextSegment.from(texts.get(i))).content().vector();
            assertThat(cosine(ours.get(i), ref)).as(texts.get(i)).isGreaterThan(0.9999);
            assertThat(cosine(ours.get(i), ours.get(i))).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-5));
        }
        assertThat(cosine(ours.get(0), ours.get(1))).isLessThan(0.95); // not one vector for all
    }

    /** Texts longer than the model's 512 positions are truncated, not refused. */
    @Test
    void longTextsAreTruncated() {
        List<String> words = new ArrayList<>();
        for (int i = 0; i < 800; i++) {
            words.add("word" + i);
        }
        float[] v = OnnxEmbedder.bgeSmall().embed(List.of(String.join(" ", words))).getFirst();
        assertThat(v).hasSize(384);
        assertThat(OnnxEmbedder.bgeSmall().embedQuery("capital of France")).hasSize(384);
    }

    private static double cosine(float[] a, float[] b) {
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        return dot / Math.sqrt(na * nb);
    }
}
