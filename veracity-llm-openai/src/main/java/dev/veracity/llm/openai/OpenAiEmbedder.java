package dev.veracity.llm.openai;

import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeException;
import dev.failsafe.RetryPolicy;
import dev.veracity.config.ApiKey;
import dev.veracity.llm.LlmException;
import dev.veracity.llm.client.RetrySettings;
import dev.veracity.retrieval.Embedder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * An {@link Embedder} on an OpenAI-compatible {@code POST /v1/embeddings} server (vLLM, TEI, Ollama, OpenAI), on the
 * backend's protocol code ({@link JsonPost}, {@link WireRequests}, {@link WireResponses}): texts in batches of
 * {@code batchSize} per request, at most {@code concurrency} requests in flight (however many threads call
 * {@link #embed}), each retried (429, 5xx, timeouts, dropped connections and malformed answers, with the client's
 * exponential back-off and jitter and the server's Retry-After). This is how an index outgrows one machine's CPU:
 * point it at a GPU server.
 *
 * <p>Vectors are asked for as floats (every compatible server speaks that; base64 is not universal), put back in the
 * order of the texts by their {@code index}, and L2-normalised (not every server normalises). The dimension is learnt
 * from a first request when the embedder is built, so that a wrong URL or model fails there, before any indexing.
 *
 * <p>The retries are the embedder's own, unlike {@link OpenAiCompatibleBackend}'s: no retrying client sits above an
 * embedder.
 */
public final class OpenAiEmbedder implements Embedder, AutoCloseable {

    private final JsonPost post;
    private final RetryPolicy<List<float[]>> retries;
    private final Duration timeout;
    private final String baseUrl;
    private final String model;
    private final String queryPrefix;
    private final int batchSize;
    private final ExecutorService requests;
    private final int dimension;

    private OpenAiEmbedder(Builder b) {
        this.baseUrl = b.baseUrl.endsWith("/") ? b.baseUrl.substring(0, b.baseUrl.length() - 1) : b.baseUrl;
        this.model = Objects.requireNonNull(b.model, "model");
        this.queryPrefix = b.queryPrefix;
        this.batchSize = b.batchSize;
        this.timeout = b.timeout;
        this.post = new JsonPost(baseUrl, b.apiKey == null ? null : ApiKey.of(b.apiKey), java.util.Map.of(), b.timeout);
        this.retries = RetrySettings.DEFAULT.withMaxAttempts(b.maxRetries + 1).policy();
        // A fixed pool bounds the requests in flight for all callers together.
        this.requests = Executors.newFixedThreadPool(b.concurrency, Thread.ofVirtual().name("veracity-embedder-", 0).factory());
        try {
            this.dimension = request(List.of("dimension")).getFirst().length;
        } catch (RuntimeException e) {
            close(); // a failed probe leaves no HTTP client or pool behind
            throw e;
        }
    }

    public static Builder builder(String baseUrl, String model) {
        return new Builder(baseUrl, model);
    }

    /** The settings of an {@link OpenAiEmbedder}. */
    public static final class Builder {
        private final String baseUrl;
        private final String model;
        private String apiKey;
        private String queryPrefix = "";
        private int batchSize = 64;
        private int concurrency = 4;
        private int maxRetries = 5;
        private Duration timeout = Duration.ofSeconds(120);

        private Builder(String baseUrl, String model) {
            this.baseUrl = Objects.requireNonNull(baseUrl, "baseUrl");
            this.model = model;
        }

        public Builder apiKey(String apiKey) {
            this.apiKey = apiKey;
            return this;
        }

        /** Put before every query (e.g. bge's instruction); passages are sent as they are. */
        public Builder queryPrefix(String prefix) {
            this.queryPrefix = prefix == null ? "" : prefix;
            return this;
        }

        public Builder batchSize(int n) {
            this.batchSize = positive(n, "batch size");
            return this;
        }

        public Builder concurrency(int n) {
            this.concurrency = positive(n, "concurrency");
            return this;
        }

        public Builder maxRetries(int n) {
            this.maxRetries = Math.max(0, n);
            return this;
        }

        public Builder timeout(Duration timeout) {
            this.timeout = timeout;
            return this;
        }

        /** Connects: embeds one probe text to learn the dimension (a wrong URL or model fails here). */
        public OpenAiEmbedder build() {
            return new OpenAiEmbedder(this);
        }

        private static int positive(int n, String what) {
            if (n < 1) {
                throw new IllegalArgumentException(what + " must be >= 1, was " + n);
            }
            return n;
        }
    }

    @Override
    public String name() {
        return model;
    }

    @Override
    public int dimension() {
        return dimension;
    }

    @Override
    public float[] embedQuery(String query) {
        return request(List.of(queryPrefix + query)).getFirst();
    }

    @Override
    public List<float[]> embed(List<String> texts) {
        List<Future<List<float[]>>> batches = new ArrayList<>();
        for (int i = 0; i < texts.size(); i += batchSize) {
            List<String> batch = texts.subList(i, Math.min(texts.size(), i + batchSize));
            batches.add(requests.submit(() -> request(batch)));
        }
        List<float[]> out = new ArrayList<>(texts.size());
        try {
            for (Future<List<float[]>> f : batches) {
                out.addAll(f.get());
            }
        } catch (InterruptedException e) {
            batches.forEach(f -> f.cancel(true));
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while embedding", e);
        } catch (ExecutionException e) {
            batches.forEach(f -> f.cancel(true));
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        }
        return out;
    }

    /** One request, retried; the vectors in the texts' order, normalised. */
    private List<float[]> request(List<String> texts) {
        try {
            return Failsafe.with(retries).get(() -> attempt(texts));
        } catch (LlmException e) {
            if (e.httpStatus().isPresent()) {
                int status = e.httpStatus().getAsInt();
                String said = e.getMessage().replace("HTTP " + status + " from " + baseUrl + ": ", "");
                throw new IllegalStateException("the embedding server " + baseUrl + " answered HTTP " + status
                        + " for model " + model + ": " + said, e);
            }
            throw new IllegalStateException("the embedding server " + baseUrl + " failed: " + e.getMessage(), e);
        } catch (FailsafeException e) {
            if (e.getCause() instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException("interrupted while embedding", e);
        }
    }

    private List<float[]> attempt(List<String> texts) {
        // an empty text is refused by some servers: a space embeds as nothing
        byte[] answer = post.post("/embeddings", WireRequests.embeddings(model,
                texts.stream().map(t -> t.isEmpty() ? " " : t).toList()), timeout);
        List<WireResponses.Vector> data;
        try {
            data = WireResponses.embeddings(answer);
        } catch (WireResponses.Malformed e) {
            throw new LlmException(dev.veracity.llm.ErrorKind.MALFORMED_RESPONSE, "its answer is not an embeddings "
                    + "answer: " + e.getMessage());
        }
        if (data.size() != texts.size()) {
            throw new IllegalStateException("the embedding server " + baseUrl + " returned " + data.size()
                    + " vectors for " + texts.size() + " texts");
        }
        float[][] out = new float[texts.size()][];
        for (WireResponses.Vector e : data) {
            int i = e.index();
            if (i < 0 || i >= out.length || out[i] != null) {
                throw new IllegalStateException("the embedding server " + baseUrl + " returned a bad index " + i);
            }
            out[i] = normalise(e.values());
            if (dimension != 0 && out[i].length != dimension) {
                throw new IllegalStateException("the embedding server " + baseUrl + " returned a vector of "
                        + out[i].length + " dimensions, not " + dimension);
            }
        }
        return List.of(out);
    }

    private static float[] normalise(float[] out) {
        double norm = 0;
        for (float x : out) {
            norm += x * x;
        }
        norm = Math.sqrt(norm);
        if (norm > 0) {
            for (int i = 0; i < out.length; i++) {
                out[i] = (float) (out[i] / norm);
            }
        }
        return out;
    }

    @Override
    public void close() {
        requests.shutdownNow();
        post.close();
    }
}
