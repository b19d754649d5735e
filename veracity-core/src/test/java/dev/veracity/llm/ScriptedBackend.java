package dev.veracity.llm;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * A backend whose behaviour a test scripts: a function from request and sample index to text, optional latency,
 * and a queue of failures to throw on the next attempts. It records every request and the peak number of
 * concurrent attempts, so tests check the client's behaviour, not canned results.
 */
public final class ScriptedBackend implements LlmBackend {

    private final String id;
    private final BackendCapabilities capabilities;
    private final BiFunction<LlmRequest, Integer, Completion> responder;
    private volatile Duration latency = Duration.ZERO;
    private final ConcurrentLinkedQueue<LlmException> failures = new ConcurrentLinkedQueue<>();
    private final List<LlmRequest> requests = new ArrayList<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger peak = new AtomicInteger();

    /** Answers {@code responder(request) + "#" + sampleIndex}, so every sample is distinct and traceable. */
    public ScriptedBackend(String id, boolean nativeN, Function<LlmRequest, String> responder) {
        this(id, nativeN, (r, i) -> responder.apply(r) + "#" + i, true);
    }

    private ScriptedBackend(String id, boolean nativeN, BiFunction<LlmRequest, Integer, String> responder, boolean ignored) {
        this(id, nativeN, (r, i) -> {
            String text = responder.apply(r, i);
            // as an OpenAI-compatible server's n > 1 answer reads: each sample's share carries the request's prompt and
            // is marked apportioned (inexact); a single-sample request's count is exact
            return Completion.of(i, text, FinishReason.STOP,
                    new TokenUsage(tokens(r.promptText()), tokens(text), r.n() == 1));
        });
    }

    private ScriptedBackend(String id, boolean nativeN, BiFunction<LlmRequest, Integer, Completion> responder) {
        this.id = id;
        this.capabilities = new BackendCapabilities(true, true, nativeN, true, false, true);
        this.responder = responder;
    }

    /**
     * Answers exactly the completion {@code responder(request, sampleIndex)} builds: for scripting finish reasons
     * and token counts as well as texts. The response's usage sums the completions'.
     */
    public static ScriptedBackend completions(BiFunction<LlmRequest, Integer, Completion> responder) {
        return new ScriptedBackend("scripted", true, responder);
    }

    /** Answers exactly {@code responder(request, sampleIndex)}: for scripting what a model says per sample. */
    public static ScriptedBackend perSample(BiFunction<LlmRequest, Integer, String> responder) {
        return new ScriptedBackend("scripted", true, responder, true);
    }

    /** Answers "echo:&lt;prompt&gt;#&lt;sample index&gt;", which makes every sample distinct and traceable. */
    public static ScriptedBackend echo() {
        return new ScriptedBackend("scripted", true, r -> "echo:" + r.promptText());
    }

    public ScriptedBackend latency(Duration latency) {
        this.latency = latency;
        return this;
    }

    /** The next attempts throw these, in order. */
    public ScriptedBackend failNext(LlmException... errors) {
        failures.addAll(List.of(errors));
        return this;
    }

    public synchronized List<LlmRequest> requests() {
        return List.copyOf(requests);
    }

    private volatile boolean closed;

    /** Records the close, for tests of who owns the backend. */
    @Override
    public void close() {
        closed = true;
    }

    public boolean closed() {
        return closed;
    }

    public int peakConcurrency() {
        return peak.get();
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public String defaultModel() {
        return "scripted-model";
    }

    @Override
    public BackendCapabilities capabilities() {
        return capabilities;
    }

    @Override
    public LlmResponse generate(LlmRequest request, Duration timeout) {
        synchronized (this) {
            requests.add(request);
        }
        int now = inFlight.incrementAndGet();
        peak.accumulateAndGet(now, Math::max);
        try {
            LlmException failure = failures.poll();
            if (failure != null) {
                throw failure;
            }
            if (!latency.isZero()) {
                if (latency.compareTo(timeout) > 0) {
                    sleep(timeout);
                    throw new LlmException(ErrorKind.TIMEOUT, "no answer within " + timeout.toMillis() + " ms");
                }
                sleep(latency);
            }
            List<Completion> out = new ArrayList<>();
            for (int i = 0; i < request.n(); i++) {
                int index = request.firstSampleIndex() + i;
                out.add(responder.apply(request, index).withSampleIndex(index));
            }
            int completion = out.stream().mapToInt(c -> c.usage().completionTokens()).sum();
            boolean exact = out.stream().allMatch(c -> c.usage().exact());
            return new LlmResponse(request.model(), out, new TokenUsage(tokens(request.promptText()), completion, exact));
        } finally {
            inFlight.decrementAndGet();
        }
    }

    public static int tokens(String s) {
        return Math.max(1, s.split("\\s+").length);
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LlmException(ErrorKind.CANCELLED, "interrupted", e);
        }
    }
}
