package dev.veracity.llm.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeException;
import dev.failsafe.RetryPolicy;
import dev.veracity.concurrent.JsonBuffers;
import dev.veracity.llm.ChatMessage;
import dev.veracity.llm.Completion;
import dev.veracity.llm.ErrorKind;
import dev.veracity.llm.FinishReason;
import dev.veracity.llm.LlmBackend;
import dev.veracity.llm.LlmCallFailedException;
import dev.veracity.llm.LlmException;
import dev.veracity.llm.LlmRequest;
import dev.veracity.llm.LlmResponse;
import dev.veracity.llm.TokenUsage;
import dev.veracity.llm.cache.CacheKey;
import dev.veracity.llm.cache.CacheMode;
import dev.veracity.llm.cache.ResponseCache;
import dev.veracity.trace.CallContext;
import dev.veracity.trace.CallRecord;
import dev.veracity.trace.TraceSink;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The way every agent calls a model: one backend with a concurrency limit, a per-attempt timeout, retries,
 * the response cache and tracing around it. Blocking calls made for virtual threads: run independent calls on
 * their own virtual threads ({@link dev.veracity.concurrent.Parallel}) and the limit keeps the backend's load
 * bounded. Use one client per backend, so that the limit is the backend's. The limit is fixed, or adaptive
 * ({@link ConcurrencyLimit#AUTO}): {@link CallLimiter} grows it while the server's round trips stay flat and cuts it
 * when they grow or the server refuses attempts for load (429, 503, timeouts), which are retried as usual.
 *
 * <p>A call of n samples first takes what the cache holds, then asks the backend for the rest: in one request
 * when the backend returns n samples natively, else as single-sample requests run concurrently. Each attempt
 * holds a permit only while it runs, not while it backs off. A freed permit goes to the waiting call of the earliest
 * question ({@link CallContext#order()}; {@link OrderedPermits}), so a run that admits more questions than permits
 * finishes its questions in order.
 *
 * <p>The cache keeps only good responses. An attempt whose completions include an empty or whitespace-only text
 * (other than a tool call or a content filter's empty answer) fails with the retryable {@link ErrorKind#EMPTY_RESPONSE}, so it is retried and never
 * stored, unless the request says an empty text is an answer ({@link LlmRequest#acceptEmpty()}: a ReAct step that
 * stopped at once); then it is returned as it came, without retries, and still never stored. A body that does not
 * parse fails the attempt the same way ({@link ErrorKind#MALFORMED_RESPONSE}). A
 * completion that did not finish is returned to the caller but not stored: finish reason
 * {@link FinishReason#UNKNOWN} (a stream cut before its finish reason, or none given), or
 * {@link FinishReason#LENGTH} with fewer completion tokens than the request's {@code max_tokens} by an estimate (the
 * server cut it short, or the count cannot tell). A sample the server cut short by its own exact count fails the
 * attempt with the retryable {@link ErrorKind#TRUNCATED}: it is asked again with the same request, so the caller gets
 * an output that ends where the request's limit or the model put its end, or a typed failure. A {@code LENGTH}
 * completion that used the whole {@code max_tokens} budget, or whose request set none, is complete and stored (the
 * caller's limit cut it: {@link Completion#truncated()} tells). A sample a method could not parse is flagged with {@link #markUnparseable}; a flagged entry
 * counts as a miss (the model is asked again and the new sample replaces it) unless the client was built with
 * {@link Builder#replayUnparseable(boolean) replayUnparseable(true)}.
 *
 * <p>A client may run over several servers of the same model ({@link #builder(List)}): each has its own concurrency
 * limit, each attempt goes to the one with the fewest attempts outstanding ({@code EndpointPool}), a retry goes to
 * another when one is in, and a server that fails repeatedly is taken out and probed back in ({@link Ejection}). The
 * cache keys and the traces' backend name the set of servers, not the one that answered; the traces' endpoint
 * field names that one.
 *
 * <p>Each stored sample keeps the latency of the request that produced it; a call's trace record counts the samples
 * the cache served with the tokens and latency their requests had ({@link CallRecord}), so a rerun from the cache
 * costs what the first run cost, apart from what it billed.
 */
public final class LlmClient implements AutoCloseable {

    private static final ObjectMapper JSON = JsonBuffers.mapper();

    /** The first server: its default model and capabilities are the client's. */
    private final LlmBackend backend;
    private final EndpointPool pool;
    private final Duration timeout;
    private final RetrySettings retry;
    private final ResponseCache cache;
    private final CacheMode cacheMode;
    private final TraceSink traces;
    private final boolean closeBackend;
    private final boolean replayUnparseable;
    private final ClientCounters counters;
    private final RetryPolicy<LlmResponse> retryPolicy;
    /** What a view does to each request before the call (identity for a client built by its builder). */
    private final UnaryOperator<LlmRequest> rewrite;
    /** Runs that rank their own calls ({@link #rankRun}), by run id; shared with this client's views. */
    private final Map<String, CallRanking> rankings;

    private LlmClient(Builder b) {
        this.backend = b.backends.getFirst();
        this.pool = new EndpointPool(b.backends, b.concurrency, b.ejection);
        this.timeout = b.timeout;
        this.retry = b.retry;
        this.cache = b.cacheMode == CacheMode.OFF ? ResponseCache.NONE : b.cache;
        this.cacheMode = b.cache == ResponseCache.NONE ? CacheMode.OFF : b.cacheMode;
        this.traces = b.traces;
        this.closeBackend = b.closeBackend;
        this.replayUnparseable = b.replayUnparseable;
        this.counters = new ClientCounters(pool);
        this.rewrite = UnaryOperator.identity();
        this.retryPolicy = retry.policy();
        this.rankings = new ConcurrentHashMap<>();
    }

    /** A view of {@code base}: the same backend, limits, cache, traces and counters, each request rewritten first. */
    private LlmClient(LlmClient base, UnaryOperator<LlmRequest> rewrite) {
        this.backend = base.backend;
        this.pool = base.pool;
        this.timeout = base.timeout;
        this.retry = base.retry;
        this.cache = base.cache;
        this.cacheMode = base.cacheMode;
        this.traces = base.traces;
        this.closeBackend = false;
        this.replayUnparseable = base.replayUnparseable;
        this.counters = base.counters;
        this.retryPolicy = base.retryPolicy;
        this.rankings = base.rankings;
        UnaryOperator<LlmRequest> first = base.rewrite;
        this.rewrite = r -> rewrite.apply(first.apply(r));
    }

    public static Builder builder(LlmBackend backend) {
        return new Builder(List.of(Objects.requireNonNull(backend, "backend")));
    }

    /**
     * A client over several servers of the same model, each with the builder's concurrency limit; one backend gives the
     * same client as {@link #builder(LlmBackend)}. The first backend's default model and capabilities are the client's.
     */
    public static Builder builder(List<? extends LlmBackend> backends) {
        if (backends.isEmpty()) {
            throw new IllegalArgumentException("a client needs at least one backend");
        }
        return new Builder(List.copyOf(backends));
    }

    /**
     * This client asking for other samples: every request's samples are numbered from {@code offset} further on, and
     * a greedy request (temperature unset or 0) is sampled at {@code temperature}. So a method run again through the
     * view gives a fresh answer, while the run through this client, its cache entries and its traces stay as they
     * were (a composition regenerating an answer its verifier rejected). The view shares this client's concurrency
     * limit, cache, traces and counters; closing it closes nothing. Completions come back numbered as asked of the
     * model (their index includes the offset).
     */
    public LlmClient resampled(int offset, double temperature) {
        if (offset < 0 || !(temperature > 0)) {
            throw new IllegalArgumentException("a resampled view needs an offset >= 0 and a temperature > 0, got "
                    + offset + " and " + temperature);
        }
        return new LlmClient(this, r -> {
            LlmRequest.Builder b = r.toBuilder().firstSampleIndex(r.firstSampleIndex() + offset);
            if (r.temperature() == null || r.temperature() == 0) {
                b.temperature(temperature);
            }
            return b.build();
        });
    }

    /** The (first) server's backend. */
    public LlmBackend backend() {
        return backend;
    }

    /** Every server's backend, in the order given. */
    public List<LlmBackend> backends() {
        return pool.endpoints().stream().map(e -> e.backend).toList();
    }

    /** What each server did (one entry per server; see {@link EndpointStats}). */
    public List<EndpointStats> endpoints() {
        return pool.stats();
    }

    /**
     * The concurrency setting of each server: fixed, or {@code auto} (then {@link ClientCounters#limit()} tells the
     * limit now).
     */
    public ConcurrencyLimit concurrency() {
        return pool.endpoints().getFirst().limiter.setting();
    }

    public ClientCounters counters() {
        return counters;
    }

    /** Whether cache entries marked unparseable are served (true) or asked of the model again (false). */
    public boolean replayUnparseable() {
        return replayUnparseable;
    }

    /**
     * Ranks the waiting calls of run {@code runId} by {@code ranking} ({@link CallRanking}: the lowest rank takes a
     * freed slot first) until the returned handle is closed; other calls keep their question's place. One ranking per
     * run; this client's views share it (the same ranking given again through a view is a handle that does nothing).
     */
    public Ranked rankRun(String runId, CallRanking ranking) {
        Objects.requireNonNull(ranking, "ranking");
        CallRanking before = rankings.putIfAbsent(Objects.requireNonNull(runId, "runId"), ranking);
        if (before == ranking) {
            return () -> { }; // through another view of this client: the first handle takes it away
        }
        if (before != null) {
            throw new IllegalStateException("run " + runId + " already ranks its calls on this client");
        }
        return () -> rankings.remove(runId, ranking);
    }

    /** A run's ranking in place: closing it gives the run's calls back their question's place. */
    public interface Ranked extends AutoCloseable {
        @Override
        void close();
    }

    /** The rank a call waits at: its run's ranking's, else its question's place. */
    private long rank(CallContext context) {
        CallRanking r = rankings.isEmpty() ? null : rankings.get(context.runId());
        return r == null ? context.order() : r.rank(context);
    }

    /** Calls the model outside any run (traced with an empty context). */
    public LlmResponse call(LlmRequest request) {
        return call(CallContext.NONE, request);
    }

    /**
     * Calls the model and returns {@code request.n()} completions numbered from
     * {@code request.firstSampleIndex()}.
     *
     * @throws LlmCallFailedException when every attempt failed or the error cannot be retried
     */
    public LlmResponse call(CallContext context, LlmRequest asked) {
        Objects.requireNonNull(context, "context");
        LlmRequest request = rewrite.apply(Objects.requireNonNull(asked, "request"));
        long submitted = Clock.micros();
        String model = request.model() != null ? request.model() : backend.defaultModel();
        counters.calls.incrementAndGet();

        Completion[] samples = new Completion[request.n()];
        String[] keys = new String[request.n()];
        Cached cached = new Cached();
        List<Integer> missing = new ArrayList<>();
        for (int i = 0; i < request.n(); i++) {
            int index = request.firstSampleIndex() + i;
            if (cacheMode.reads()) {
                keys[i] = CacheKey.of(pool.cacheId(), model, request, index);
                ResponseCache.Entry entry = cache.get(keys[i]).orElse(null);
                Completion hit = entry == null ? null : entry.completion();
                if (entry != null && entry.markedUnparseable() && !replayUnparseable) {
                    counters.unparseableSkipped.incrementAndGet();
                    hit = null;
                }
                if (hit != null) {
                    samples[i] = hit.withSampleIndex(index);
                    cached.add(hit, entry.latencyMicros());
                    continue;
                }
            } else if (cacheMode.writes()) {
                keys[i] = CacheKey.of(pool.cacheId(), model, request, index);
            }
            missing.add(i);
        }
        counters.cachedSamples.addAndGet(request.n() - missing.size());
        cached.settle(missing.isEmpty());

        Attempts attempts = new Attempts(rank(context));
        long started = submitted;
        TokenUsage fresh = TokenUsage.ZERO;
        try {
            if (missing.isEmpty()) {
                counters.cacheHits.incrementAndGet();
            } else {
                FetchResult result = fetch(request, model, missing, attempts);
                started = result.startedMicros;
                fresh = result.usage;
                // stored with each sample: a later call the cache answers still counts the model time it took
                OptionalLong latency = OptionalLong.of(Math.max(0, Clock.micros() - started));
                for (int j = 0; j < missing.size(); j++) {
                    int i = missing.get(j);
                    samples[i] = result.completions.get(j).withSampleIndex(request.firstSampleIndex() + i);
                    if (!result.complete.get(j)) {
                        counters.uncachedIncomplete.incrementAndGet();
                    } else if (cacheMode.writes() && !empty(samples[i])) { // an accepted empty answer is never stored
                        cache.put(keys[i], samples[i], latency);
                    }
                }
            }
        } catch (LlmException e) {
            counters.failures.incrementAndGet();
            long ended = Clock.micros();
            traces.record(record(context, model, request, List.of(), fresh, cached, submitted,
                    attempts.firstStartMicros.get() == 0 ? ended : attempts.firstStartMicros.get(), ended, false,
                    attempts, e.getMessage()));
            throw e;
        }
        counters.promptTokens.addAndGet(fresh.promptTokens());
        counters.completionTokens.addAndGet(fresh.completionTokens());
        LlmResponse response = new LlmResponse(model, List.of(samples), fresh);
        traces.record(record(context, model, request, List.of(samples), fresh, cached, submitted, started,
                Clock.micros(), missing.isEmpty(), attempts, null));
        return response;
    }

    /**
     * Flags the cache entry of one sample as one the caller could not parse: the next call for it asks the model
     * again (and the new sample replaces the entry, clearing the flag), unless this client replays such entries
     * ({@link Builder#replayUnparseable}). The key is the call's: backend, model ({@code request.model()} or the
     * backend's default), the request, and {@code completion.sampleIndex()}. Does nothing when the cache is off or
     * read-only, or holds no entry for the sample (an incomplete sample was never stored).
     *
     * @param request    the request as it was passed to {@link #call}
     * @param completion the sample, as the call returned it (its sample index picks the entry)
     * @param reason     why it could not be parsed (kept in the cache for inspection)
     */
    public void markUnparseable(LlmRequest asked, Completion completion, String reason) {
        LlmRequest request = rewrite.apply(Objects.requireNonNull(asked, "request"));
        Objects.requireNonNull(completion, "completion");
        if (!cacheMode.writes()) {
            return;
        }
        String model = request.model() != null ? request.model() : backend.defaultModel();
        cache.markUnparseable(CacheKey.of(pool.cacheId(), model, request, completion.sampleIndex()),
                reason == null ? "" : reason);
        counters.unparseableMarks.incrementAndGet();
    }

    /**
     * Whether a returned completion is complete enough to cache: not cut before its finish reason, and not cut by
     * the server below the request's token budget. With {@code n > 1} a server reports one usage total, which the
     * backend apportions as an estimate ({@link TokenUsage#exact()} false); then a {@code LENGTH} sample counts as
     * complete only when the response's total reaches {@code max_tokens} for each of its {@code LENGTH} samples
     * (else at least one of them was cut short, and which is unknown).
     */
    static boolean complete(LlmRequest ask, LlmResponse response, Completion c) {
        return switch (c.finishReason()) {
            case UNKNOWN -> false;
            case LENGTH -> {
                Integer max = ask.maxTokens();
                if (max == null) {
                    yield true;
                }
                if (c.usage().exact()) {
                    yield c.usage().completionTokens() >= max;
                }
                long cut = response.completions().stream().filter(x -> x.finishReason() == FinishReason.LENGTH).count();
                yield response.usage().completionTokens() >= cut * max;
            }
            default -> true;
        };
    }

    /**
     * Whether the server cut a sample below the request's token budget: finish reason {@code LENGTH} with fewer
     * completion tokens than {@code max_tokens}, by the server's own count. Only an exact count decides: an
     * estimate (a server without a usage block) or one sample's share of an n &gt; 1 total cannot tell a cut sample
     * from a complete one, so such a sample is returned (and, by {@link #complete}, not cached).
     */
    static boolean cutShort(LlmRequest ask, Completion c) {
        Integer max = ask.maxTokens();
        return c.finishReason() == FinishReason.LENGTH && max != null && c.usage().exact()
                && c.usage().completionTokens() < max;
    }

    private record FetchResult(List<Completion> completions, List<Boolean> complete, TokenUsage usage,
                               long startedMicros) {
    }

    /** Gets the missing samples from the backend, in the order of {@code missing}. */
    private FetchResult fetch(LlmRequest request, String model, List<Integer> missing, Attempts attempts) {
        int first = request.firstSampleIndex();
        if (missing.size() == 1 || backend.capabilities().nativeN()) {
            LlmRequest ask = request.toBuilder().model(model).firstSampleIndex(first + missing.getFirst())
                    .n(missing.size()).build();
            LlmResponse r = withRetries(ask, attempts);
            return new FetchResult(r.completions(), r.completions().stream().map(c -> complete(ask, r, c)).toList(),
                    r.usage(), attempts.firstStartMicros.get());
        }
        // No native n: one single-sample request per missing sample, concurrently, each at its own index so
        // that seeded backends give distinct, reproducible samples.
        List<LlmRequest> asks = missing.stream()
                .map(i -> request.toBuilder().model(model).firstSampleIndex(first + i).n(1).build()).toList();
        List<LlmResponse> responses = dev.veracity.concurrent.Parallel.map(asks, a -> withRetries(a, attempts));
        List<Completion> completions = new ArrayList<>();
        List<Boolean> complete = new ArrayList<>();
        TokenUsage usage = TokenUsage.ZERO;
        for (int k = 0; k < responses.size(); k++) {
            LlmResponse r = responses.get(k);
            completions.add(r.first());
            complete.add(complete(asks.get(k), r, r.first()));
            usage = usage.plus(r.usage());
        }
        return new FetchResult(completions, complete, usage, attempts.firstStartMicros.get());
    }

    /** Attempt count and first start of one logical call (several threads update it when the call is split). */
    private static final class Attempts {
        final AtomicLong count = new AtomicLong();
        final AtomicLong firstStartMicros = new AtomicLong();
        /** The servers that answered, when the client has several (a split call may have more than one). */
        final Set<String> answeredBy = ConcurrentHashMap.newKeySet();
        /** The call's rank ({@link CallRanking}): a slot goes to the lowest's first. */
        final long order;

        Attempts(long order) {
            this.order = order;
        }
    }

    /** One request with its retries; its own attempts' errors make the failure's story. */
    private LlmResponse withRetries(LlmRequest request, Attempts attempts) {
        long t0 = System.nanoTime();
        List<LlmException> errors = new ArrayList<>();
        Set<Endpoint> failedOn = ConcurrentHashMap.newKeySet();
        try {
            return Failsafe.with(retryPolicy).get(() -> attempt(request, attempts, errors, failedOn));
        } catch (LlmException e) {
            throw new LlmCallFailedException(describeTarget(request), errors.isEmpty() ? List.of(e) : errors,
                    Duration.ofNanos(System.nanoTime() - t0));
        } catch (FailsafeException e) {
            if (e.getCause() instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new LlmException(ErrorKind.CANCELLED, "interrupted while waiting to retry a call to "
                    + describeTarget(request), e);
        }
    }

    private LlmResponse attempt(LlmRequest request, Attempts attempts, List<LlmException> errors,
                                Set<Endpoint> failedOn) {
        Endpoint endpoint;
        CallLimiter.Permit permit;
        while (true) {
            try {
                endpoint = pool.choose(failedOn);
            } catch (LlmException e) { // every server is out: retried like a refused connection
                errors.add(e);
                throw e;
            }
            try {
                permit = endpoint.limiter.acquire(attempts.order);
            } catch (InterruptedException e) {
                endpoint.abandoned();
                endpoint.left();
                Thread.currentThread().interrupt();
                throw new LlmException(ErrorKind.CANCELLED, "interrupted while waiting for a concurrency permit", e);
            }
            if (!endpoint.ejected()) {
                break;
            }
            // taken out while this attempt waited for its limit: choose again rather than send it there
            permit.ignored();
            endpoint.left();
        }
        CallLimiter.Permit held = permit;
        LlmBackend target = endpoint.backend;
        attempts.firstStartMicros.compareAndSet(0, Clock.micros());
        long n = attempts.count.incrementAndGet();
        counters.attempts.incrementAndGet();
        if (n > 1) {
            counters.retries.incrementAndGet();
        }
        counters.enter();
        // what the attempt tells the limit: an answer is a round-trip sample, a refusal for load cuts it
        Runnable outcome = held::ignored;
        boolean reached = false;
        try {
            LlmResponse r = target.generate(request, timeout);
            reached = true;
            endpoint.answered(); // the server is up, whatever its answer's faults below
            outcome = () -> held.succeeded(longestAnswer(r));
            if (r == null || r.completions().size() != request.n()) {
                throw new LlmException(ErrorKind.MALFORMED_RESPONSE, "asked " + target.id() + " for " + request.n()
                        + " samples, got " + (r == null ? "no response" : r.completions().size()));
            }
            for (Completion c : r.completions()) {
                if (empty(c) && !request.acceptEmpty()) {
                    counters.emptyResponses.incrementAndGet();
                    throw new LlmException(ErrorKind.EMPTY_RESPONSE, target.id() + " answered sample "
                            + c.sampleIndex() + " with " + (c.text().isEmpty() ? "an empty" : "a whitespace-only")
                            + " text (finish reason " + c.finishReason().name().toLowerCase(java.util.Locale.ROOT)
                            + ")");
                }
                if (cutShort(request, c)) {
                    counters.cutShort.incrementAndGet();
                    throw new LlmException(ErrorKind.TRUNCATED, target.id() + " cut sample " + c.sampleIndex()
                            + " at " + c.usage().completionTokens() + " tokens, below the " + request.maxTokens()
                            + " asked (finish reason length)");
                }
            }
            if (!pool.single()) {
                attempts.answeredBy.add(endpoint.id());
            }
            return r;
        } catch (LlmException e) {
            if (CallLimiter.overload(e)) {
                outcome = held::dropped;
            }
            if (!reached) {
                endpoint.failed(e);
            }
            failedOn.add(endpoint); // a retry goes to another server when one is in
            errors.add(e);
            throw e;
        } catch (RuntimeException e) {
            LlmException wrapped = new LlmException(ErrorKind.INTERNAL, "backend " + target.id() + " failed with "
                    + e.getClass().getSimpleName() + ": " + e.getMessage(), e);
            if (!reached) {
                endpoint.failed(wrapped);
            }
            errors.add(wrapped);
            throw wrapped;
        } finally {
            counters.exit();
            outcome.run();
            endpoint.left();
        }
    }

    /** The longest sample's completion tokens, which the round trip grew with; -1 when the response has none. */
    private static long longestAnswer(LlmResponse r) {
        return r == null ? -1 : r.completions().stream().mapToLong(c -> c.usage().completionTokens()).max().orElse(-1);
    }

    /**
     * An empty or whitespace-only text that is not a tool call or a content filter's empty answer (a filtered answer
     * is final, not a glitch): a fault to retry, or an answer when the request accepts one, and never cached.
     */
    static boolean empty(Completion c) {
        return c.text().isBlank() && c.finishReason() != FinishReason.TOOL_CALLS
                && c.finishReason() != FinishReason.CONTENT_FILTER;
    }

    private String describeTarget(LlmRequest request) {
        return pool.cacheId() + " (model " + request.model() + ")";
    }

    private CallRecord record(CallContext ctx, String model, LlmRequest request, List<Completion> samples,
                              TokenUsage fresh, Cached cached, long submitted, long started, long ended,
                              boolean cacheHit, Attempts attempts, String error) {
        int made = (int) attempts.count.get();
        return new CallRecord(UUID.randomUUID().toString(), ctx, pool.cacheId(), model, promptOf(request),
                settingsOf(request), samples.stream().map(Completion::text).toList(),
                samples.stream().map(c -> c.finishReason().name()).toList(), fresh.promptTokens(),
                fresh.completionTokens(), request.n(), cached.samples, cached.promptTokens(),
                cached.completionTokens, cached.latencyMicros(), submitted, started, ended, cacheHit, made,
                Math.max(0, made - 1), error,
                attempts.answeredBy.isEmpty() ? null : String.join(",", new java.util.TreeSet<>(attempts.answeredBy)));
    }

    /**
     * What the cache served of one call, counted at what it cost when it was made: the cached samples, their
     * completion tokens, their prompt tokens as their requests were billed, and the longest latency of the requests
     * that produced them.
     *
     * <p>How a sample was made is in its stored usage, not in what the backend does today (a process served wholly
     * from the cache never learns whether the server takes n &gt; 1): a sample with an exact count came from a request
     * of its own (n = 1, or a request split into single samples) and paid its prompt; the samples of one n-sample
     * request carry apportioned, inexact shares and paid the prompt once between them.
     */
    private static final class Cached {
        int samples;
        int completionTokens;
        int sharedPromptMax;
        int ownPromptSum;
        long latencyMax;
        boolean latencyKnown = true;
        private int prompt;

        void add(Completion hit, OptionalLong latency) {
            samples++;
            completionTokens += hit.usage().completionTokens();
            // each sample carries its request's whole prompt (the backends' share of an n-sample response)
            if (hit.usage().exact()) {
                ownPromptSum += hit.usage().promptTokens();
            } else {
                sharedPromptMax = Math.max(sharedPromptMax, hit.usage().promptTokens());
            }
            latencyKnown &= latency.isPresent();
            latencyMax = Math.max(latencyMax, latency.orElse(0));
        }

        /**
         * Fixes the prompt tokens: each sample of its own request pays its prompt; the samples of one n-sample request
         * pay it once, and nothing when the model is asked for the missing samples now (that request pays it).
         */
        void settle(boolean allCached) {
            prompt = ownPromptSum + (allCached ? sharedPromptMax : 0);
        }

        int promptTokens() {
            return samples == 0 ? 0 : prompt;
        }

        long latencyMicros() {
            return samples == 0 ? 0 : latencyKnown ? latencyMax : -1;
        }
    }

    /**
     * The node as compact JSON, written by our pooled mapper: {@code JsonNode.toString()} gives the same text but
     * through Jackson's internal mapper, whose buffers are allocated afresh on every virtual thread (9% of all
     * allocation under {@code bench serve}).
     */
    private static String compact(com.fasterxml.jackson.databind.JsonNode node) {
        try {
            return JSON.writeValueAsString(node);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree could not be written", e); // a tree of plain values always can
        }
    }

    static String promptOf(LlmRequest r) {
        if (!r.isChat()) {
            return r.prompt();
        }
        ArrayNode a = JSON.createArrayNode();
        for (ChatMessage m : r.messages()) {
            a.addObject().put("role", m.role().wireName()).put("content", m.content());
        }
        return compact(a);
    }

    static String settingsOf(LlmRequest r) {
        ObjectNode o = JSON.createObjectNode();
        o.put("n", r.n());
        o.put("first_sample", r.firstSampleIndex());
        if (r.temperature() != null) {
            o.put("temperature", r.temperature());
        }
        if (r.topP() != null) {
            o.put("top_p", r.topP());
        }
        if (r.topK() != null) {
            o.put("top_k", r.topK());
        }
        if (r.maxTokens() != null) {
            o.put("max_tokens", r.maxTokens());
        }
        if (r.seed() != null) {
            o.put("seed", r.seed());
        }
        if (r.logprobs() != null) {
            o.put("logprobs", r.logprobs());
        }
        r.stop().forEach(s -> o.withArray("stop").add(s));
        if (!r.extras().isEmpty()) {
            o.set("extras", JSON.valueToTree(r.extras()));
        }
        return compact(o);
    }

    /** Closes the backends if the builder was told the client owns them. Traces and cache belong to the caller. */
    @Override
    public void close() {
        if (closeBackend) {
            pool.endpoints().forEach(e -> e.backend.close());
        }
    }

    /** Builds a client; defaults: 16 concurrent attempts, 120 s per attempt, {@link RetrySettings#DEFAULT}, no cache, no traces. */
    public static final class Builder {
        private final List<LlmBackend> backends;
        private Ejection ejection = Ejection.DEFAULT;
        private ConcurrencyLimit concurrency = ConcurrencyLimit.fixed(16);
        private Duration timeout = Duration.ofSeconds(120);
        private RetrySettings retry = RetrySettings.DEFAULT;
        private ResponseCache cache = ResponseCache.NONE;
        private CacheMode cacheMode = CacheMode.OFF;
        private TraceSink traces = TraceSink.NONE;
        private boolean closeBackend;
        private boolean replayUnparseable;

        private Builder(List<LlmBackend> backends) {
            backends.forEach(b -> Objects.requireNonNull(b, "backend"));
            this.backends = backends;
        }

        /** When a client of several servers takes one out and probes it back in (unused with one server). */
        public Builder ejection(Ejection ejection) {
            this.ejection = Objects.requireNonNull(ejection, "ejection");
            return this;
        }

        /** Most attempts in flight at once against each backend. */
        public Builder concurrency(int concurrency) {
            this.concurrency = ConcurrencyLimit.fixed(concurrency);
            return this;
        }

        /** Most attempts in flight at once against each backend: fixed, or adaptive ({@link CallLimiter}). */
        public Builder concurrency(ConcurrencyLimit concurrency) {
            this.concurrency = Objects.requireNonNull(concurrency, "concurrency");
            return this;
        }

        /** The longest one attempt may take. */
        public Builder timeout(Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("timeout must be positive, was " + timeout);
            }
            this.timeout = timeout;
            return this;
        }

        public Builder retry(RetrySettings retry) {
            this.retry = Objects.requireNonNull(retry, "retry");
            return this;
        }

        public Builder cache(ResponseCache cache, CacheMode mode) {
            this.cache = Objects.requireNonNull(cache, "cache");
            this.cacheMode = Objects.requireNonNull(mode, "mode");
            return this;
        }

        public Builder traces(TraceSink traces) {
            this.traces = Objects.requireNonNull(traces, "traces");
            return this;
        }

        /**
         * Serve cache entries marked unparseable ({@link LlmClient#markUnparseable}) like any other; by default
         * (false) a marked entry is a miss and the model is asked again. For replaying a run exactly as it went.
         */
        public Builder replayUnparseable(boolean replay) {
            this.replayUnparseable = replay;
            return this;
        }

        /** Close the backend with the client. */
        public Builder closeBackend(boolean close) {
            this.closeBackend = close;
            return this;
        }

        public LlmClient build() {
            return new LlmClient(this);
        }
    }
}
