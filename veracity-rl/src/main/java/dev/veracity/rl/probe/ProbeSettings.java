package dev.veracity.rl.probe;

/**
 * How a probe samples.
 *
 * @param samples        samples per question (the paper: 256)
 * @param perCall        samples asked in one request (n); the client splits further where a server refuses n > 1
 * @param temperature    sampling temperature
 * @param topP           nucleus mass (the authors' sampling: 0.9)
 * @param maxTokens      new tokens per sample
 * @param seed           the seed of the first request of a question; request k of a question uses seed + k
 * @param retrieval      whether the prompt shows the question's documents (the paper probes the model's own knowledge:
 *                       false)
 * @param queryTime      the Query Time shown for questions without one
 * @param questionsAtOnce questions probed concurrently
 * @param keep           responses kept per question and outcome (correct, abstain, wrong) for the baselines' data
 *                       (R-Tuning, RFT, DPO); 0 keeps none
 */
public record ProbeSettings(int samples, int perCall, double temperature, double topP, int maxTokens, long seed,
                            boolean retrieval, String queryTime, int questionsAtOnce, int keep) {

    public ProbeSettings {
        if (samples < 1 || perCall < 1 || maxTokens < 1 || questionsAtOnce < 1 || keep < 0) {
            throw new IllegalArgumentException("samples, samples per call, max tokens and questions at once must be >= 1");
        }
        if (!(temperature > 0)) {
            throw new IllegalArgumentException("a probe samples: the temperature must be > 0, was " + temperature);
        }
    }

    /** The paper's probe: 256 samples; 64 per request, temperature 1.0, top-p 0.9, 2,048 tokens, closed book. */
    public static ProbeSettings paper() {
        return new ProbeSettings(256, 64, 1.0, 0.9, 2048, 0, false, "N/A", 8, 4);
    }

    /** Requests per question. */
    public int requestsPerQuestion() {
        return (samples + perCall - 1) / perCall;
    }
}
