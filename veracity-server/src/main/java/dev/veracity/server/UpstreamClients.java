package dev.veracity.server;

import dev.veracity.http.HttpProblem;
import dev.veracity.llm.BackendCapabilities;
import dev.veracity.llm.LlmBackend;
import dev.veracity.llm.LlmRequest;
import dev.veracity.llm.LlmResponse;
import dev.veracity.llm.client.LlmClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * The upstream models a request may name ({@code method@model}): the default, and those the operator allowed. Each has
 * its own {@link LlmClient} (its concurrency limit, retries, cache and traces) over the one shared backend, pinned to
 * that model, so methods, which never name a model, run on the one the request chose. The set is fixed at start:
 * a client naming any other model gets 404, and cannot make the server open clients without end.
 */
public final class UpstreamClients implements AutoCloseable {

    private final String defaultModel;
    private final Map<String, LlmClient> clients = new LinkedHashMap<>();

    /**
     * @param backend    the upstream server (shared; closed by its owner, not here)
     * @param models     the default model first, then the others a request may name
     * @param clientFor  builds the client of one pinned backend (limits, retries, cache, traces)
     */
    public UpstreamClients(LlmBackend backend, List<String> models, Function<LlmBackend, LlmClient> clientFor) {
        Objects.requireNonNull(backend, "backend");
        if (models.isEmpty()) {
            throw new IllegalArgumentException("name at least the default upstream model");
        }
        this.defaultModel = models.getFirst();
        for (String m : models) {
            if (m.isBlank() || m.length() > ModelName.MAX_LENGTH) {
                throw new IllegalArgumentException("an upstream model name is 1 to " + ModelName.MAX_LENGTH
                        + " characters, was '" + m + "'");
            }
            clients.computeIfAbsent(m, name -> clientFor.apply(new PinnedModel(backend, name)));
        }
    }

    public String defaultModel() {
        return defaultModel;
    }

    public List<String> models() {
        return new ArrayList<>(clients.keySet());
    }

    /** The client of the named model (null: the default); 404 {@code model_not_found} for a model not allowed. */
    LlmClient client(String model) {
        LlmClient c = clients.get(model == null ? defaultModel : model);
        if (c == null) {
            throw new HttpProblem(404, "model_not_found", "The upstream model `" + ClientText.quote(model) + "` is not"
                    + " served here; this server runs its methods on: " + String.join(", ", clients.keySet()))
                    .withParam("model");
        }
        return c;
    }

    /** Closes the clients (not the shared backend). */
    @Override
    public void close() {
        clients.values().forEach(LlmClient::close);
    }

    /**
     * {@code backend} asking {@code model} when a request names none; its owner closes the backend (for a client over
     * several upstream servers, each pinned alike).
     */
    public static LlmBackend pinned(LlmBackend backend, String model) {
        return new PinnedModel(Objects.requireNonNull(backend, "backend"), Objects.requireNonNull(model, "model"));
    }

    /** The shared backend with another default model: what a request without a model name is sent to. */
    private record PinnedModel(LlmBackend backend, String model) implements LlmBackend {

        @Override
        public String id() {
            return backend.id();
        }

        @Override
        public String defaultModel() {
            return model;
        }

        @Override
        public BackendCapabilities capabilities() {
            return backend.capabilities();
        }

        @Override
        public LlmResponse generate(LlmRequest request, Duration timeout) {
            return backend.generate(request.model() == null ? request.toBuilder().model(model).build() : request, timeout);
        }

        @Override
        public void close() {
            // shared: its owner closes it
        }
    }
}
