package dev.veracity.retrieval.opensearch;

import dev.veracity.retrieval.Embedder;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A deterministic stand-in for a model: each text's vector is a random unit vector seeded by the text, so Lucene and
 * OpenSearch index the same vectors and a brute-force oracle can rank them. Not a semantic embedder.
 */
record HashEmbedder(int dimension) implements Embedder {

    @Override
    public List<float[]> embed(List<String> texts) {
        return texts.stream().map(this::vector).toList();
    }

    float[] vector(String text) {
        SplittableRandom r = new SplittableRandom(text.hashCode() * 0x9E3779B97F4A7C15L);
        float[] v = new float[dimension];
        double norm = 0;
        for (int i = 0; i < dimension; i++) {
            v[i] = (float) r.nextGaussian();
            norm += v[i] * v[i];
        }
        for (int i = 0; i < dimension; i++) {
            v[i] /= (float) Math.sqrt(norm);
        }
        return v;
    }

    @Override
    public String name() {
        return "hash-" + dimension;
    }
}
