package dev.veracity.methods.c3po;

/**
 * How one kind of call samples.
 *
 * @param temperature sampling temperature
 * @param topP        nucleus mass (the authors send 1.0 everywhere)
 * @param maxTokens   new tokens per sample (the authors: 2,048 for the proxy, 1,024 for the LLM)
 */
public record Sampling(double temperature, double topP, int maxTokens) {

    /** The proxy at test time: greedy. */
    public static final Sampling PROXY_TEST = new Sampling(0.0, 1.0, 2048);
    /** The proxy in the rollout: temperature 0.6 (section 5.1 via GUIDE; the authors' default). */
    public static final Sampling PROXY_ROLLOUT = new Sampling(0.6, 1.0, 2048);
    /** The LLM's roadmap: the authors' {@code plan_temperature} 0.3, at test time too. */
    public static final Sampling ROADMAP = new Sampling(0.3, 1.0, 1024);
    /** The LLM's answer: the authors' {@code answer_temperature} 0. */
    public static final Sampling ANSWER = new Sampling(0.0, 1.0, 1024);

    public Sampling {
        if (!(temperature >= 0) || !(topP > 0 && topP <= 1) || maxTokens < 1) {
            throw new IllegalArgumentException("temperature >= 0, 0 < top-p <= 1 and max tokens >= 1");
        }
    }

    public Sampling withTemperature(double t) {
        return new Sampling(t, topP, maxTokens);
    }
}
