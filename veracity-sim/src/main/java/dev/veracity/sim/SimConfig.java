package dev.veracity.sim;

import dev.veracity.sim.reader.ExtractiveReader;
import dev.veracity.sim.reader.PromptReader;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Everything a {@link SimServer} needs. Build with {@link #builder()}; every field has a default.
 *
 * @param port               TCP port on 127.0.0.1; 0 (default) picks a free one
 * @param rules              how prompts are answered (default: no rules: the built-in reader, else "I don't know.")
 * @param latency            service time of a generation (default: none)
 * @param capacity           server-wide concurrent generation slots (default 1024)
 * @param maxQueue           most requests allowed to wait for a slot; beyond it, {@code queueFullStatus}
 *                           (default: unbounded)
 * @param queueFullStatus    what a request finding the queue full gets: 429 (default, as vLLM's and OpenAI's rate
 *                           limits answer) or 503 (as an overloaded proxy or load balancer answers); either with
 *                           {@code Retry-After}
 * @param faults             fault injection (default: none)
 * @param seed               seed of all deterministic choices when a request has no {@code seed} (default 0)
 * @param models             model ids listed by {@code /v1/models}; the first answers requests naming no model
 * @param anyModel           answer generation requests naming any model (under that name) instead of 404
 *                           ({@code model_not_found}) for one not in {@code models}; true unless a model list is set
 * @param refuseN            reject {@code n > 1} with 400, as some servers do (default false)
 * @param requiredApiKey     if present, requests need {@code Authorization: Bearer <key>} or get 401
 * @param retryAfter         what 429 answers advertise: {@code Retry-After} (whole seconds, rounded up)
 *                           and {@code retry-after-ms} (default 1 s)
 * @param recentRequestLimit how many requests {@link SimServer#recentRequests()} keeps (default 256; 0 = none)
 * @param reader             answer prompts no rule matches with the built-in extractive reader
 *                           ({@link dev.veracity.sim.reader.ExtractiveReader}; plumbing, not model quality) when the
 *                           rule set has no default of its own (default true)
 * @param readers            the built-in reader's pieces, in the order they are tried (default: the
 *                           {@link PromptReader}s on veracity-sim's class path, {@link ExtractiveReader#classPath()})
 * @param maxRequestBytes    the largest request body read; a larger one gets 413 (default 32 MiB)
 * @param arealAdminKey      when set, AReaL's online-mode gateway is served too ({@code /rl/start_session} with
 *                           this admin key, {@code /chat/completions}, {@code /rl/set_reward}, {@code /rl/end_session};
 *                           {@link SimServer#arealSessions()}); default: not served
 * @param clock              the time latency, hangs and stream pacing pass on (default {@link SimClock#SYSTEM}; a
 *                           {@link ManualClock} lets a test move it on by hand)
 */
public record SimConfig(
        int port,
        RuleSet rules,
        LatencyModel latency,
        int capacity,
        OptionalInt maxQueue,
        int queueFullStatus,
        FaultPlan faults,
        long seed,
        List<String> models,
        boolean anyModel,
        boolean refuseN,
        Optional<String> requiredApiKey,
        Duration retryAfter,
        int recentRequestLimit,
        boolean reader,
        List<PromptReader> readers,
        long maxRequestBytes,
        Optional<String> arealAdminKey,
        SimClock clock) {

    public static final int DEFAULT_CAPACITY = 1024;
    public static final String DEFAULT_MODEL = "sim-model";
    public static final int DEFAULT_RECENT_REQUEST_LIMIT = 256;
    public static final long DEFAULT_MAX_REQUEST_BYTES = 32L << 20;

    public SimConfig {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be in [0, 65535], got " + port);
        }
        Objects.requireNonNull(rules, "rules");
        Objects.requireNonNull(latency, "latency");
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, got " + capacity);
        }
        Objects.requireNonNull(maxQueue, "maxQueue");
        if (maxQueue.isPresent() && maxQueue.getAsInt() < 0) {
            throw new IllegalArgumentException("maxQueue must not be negative, got " + maxQueue.getAsInt());
        }
        if (queueFullStatus != 429 && queueFullStatus != 503) {
            throw new IllegalArgumentException("queueFullStatus must be 429 or 503, got " + queueFullStatus);
        }
        Objects.requireNonNull(faults, "faults");
        models = List.copyOf(models);
        if (models.isEmpty() || models.stream().anyMatch(String::isBlank)) {
            throw new IllegalArgumentException("models must be a non-empty list of non-blank ids, got " + models);
        }
        Objects.requireNonNull(requiredApiKey, "requiredApiKey");
        Objects.requireNonNull(retryAfter, "retryAfter");
        if (retryAfter.isNegative()) {
            throw new IllegalArgumentException("retryAfter must not be negative");
        }
        if (recentRequestLimit < 0) {
            throw new IllegalArgumentException("recentRequestLimit must not be negative");
        }
        readers = new ExtractiveReader(readers).readers(); // sorted; two of one name are an error
        if (maxRequestBytes < 1) {
            throw new IllegalArgumentException("maxRequestBytes must be at least 1, got " + maxRequestBytes);
        }
        Objects.requireNonNull(arealAdminKey, "arealAdminKey");
        Objects.requireNonNull(clock, "clock");
    }

    /** All defaults: an ephemeral port, no rules, no latency, no faults. */
    public static SimConfig defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder(this);
    }

    /** The model that answers requests naming none. */
    public String defaultModel() {
        return models.getFirst();
    }

    public static final class Builder {
        private int port;
        private RuleSet rules = RuleSet.empty();
        private LatencyModel latency = LatencyModel.NONE;
        private int capacity = DEFAULT_CAPACITY;
        private OptionalInt maxQueue = OptionalInt.empty();
        private int queueFullStatus = 429;
        private FaultPlan faults = FaultPlan.none();
        private long seed;
        private List<String> models = List.of(DEFAULT_MODEL);
        private Boolean anyModel; // null: true unless a model list was set
        private boolean modelsSet;
        private boolean refuseN;
        private Optional<String> requiredApiKey = Optional.empty();
        private Duration retryAfter = Duration.ofSeconds(1);
        private int recentRequestLimit = DEFAULT_RECENT_REQUEST_LIMIT;
        private boolean reader = true;
        private List<PromptReader> readers; // null: the class path's
        private long maxRequestBytes = DEFAULT_MAX_REQUEST_BYTES;
        private Optional<String> arealAdminKey = Optional.empty();
        private SimClock clock = SimClock.SYSTEM;

        private Builder() {
        }

        private Builder(SimConfig c) {
            port = c.port;
            rules = c.rules;
            latency = c.latency;
            capacity = c.capacity;
            maxQueue = c.maxQueue;
            queueFullStatus = c.queueFullStatus;
            faults = c.faults;
            seed = c.seed;
            models = c.models;
            anyModel = c.anyModel;
            refuseN = c.refuseN;
            requiredApiKey = c.requiredApiKey;
            retryAfter = c.retryAfter;
            recentRequestLimit = c.recentRequestLimit;
            reader = c.reader;
            readers = c.readers;
            maxRequestBytes = c.maxRequestBytes;
            arealAdminKey = c.arealAdminKey;
            clock = c.clock;
        }

        public Builder port(int port) {
            this.port = port;
            return this;
        }

        public Builder rules(RuleSet rules) {
            this.rules = rules;
            return this;
        }

        /** Shorthand for {@code rules(RuleSet.of(rules))}: these rules and the default fallback. */
        public Builder rules(Rule... rules) {
            this.rules = RuleSet.of(rules);
            return this;
        }

        public Builder latency(LatencyModel latency) {
            this.latency = latency;
            return this;
        }

        public Builder latency(Duration timeToFirstToken, Duration perOutputToken) {
            this.latency = new LatencyModel(timeToFirstToken, perOutputToken);
            return this;
        }

        public Builder capacity(int capacity) {
            this.capacity = capacity;
            return this;
        }

        /** At most this many requests wait for a slot; more get 429 ({@link #queueFullStatus}). 0 = never wait. */
        public Builder maxQueue(int maxQueue) {
            this.maxQueue = OptionalInt.of(maxQueue);
            return this;
        }

        /** What a request finding the queue full gets: 429 (default) or 503, either with Retry-After. */
        public Builder queueFullStatus(int status) {
            this.queueFullStatus = status;
            return this;
        }

        public Builder unboundedQueue() {
            this.maxQueue = OptionalInt.empty();
            return this;
        }

        public Builder faults(FaultPlan faults) {
            this.faults = faults;
            return this;
        }

        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        /**
         * The models served. Setting a list makes requests naming another model a 404, as on a real server, unless
         * {@link #anyModel(boolean) anyModel(true)}; without a list, {@value #DEFAULT_MODEL} is listed and any name is
         * answered.
         */
        public Builder models(List<String> models) {
            this.models = models;
            this.modelsSet = true;
            return this;
        }

        public Builder models(String... models) {
            return models(List.of(models));
        }

        /** Whether generation requests may name any model; by default only when no model list was set. */
        public Builder anyModel(boolean anyModel) {
            this.anyModel = anyModel;
            return this;
        }

        public Builder refuseN(boolean refuseN) {
            this.refuseN = refuseN;
            return this;
        }

        /** Requires {@code Authorization: Bearer <key>}; {@code null} or blank requires nothing. */
        public Builder requiredApiKey(String key) {
            this.requiredApiKey = key == null || key.isBlank() ? Optional.empty() : Optional.of(key);
            return this;
        }

        public Builder retryAfter(Duration retryAfter) {
            this.retryAfter = retryAfter;
            return this;
        }

        public Builder recentRequestLimit(int limit) {
            this.recentRequestLimit = limit;
            return this;
        }

        /**
         * Whether prompts no rule matches go to the built-in extractive reader (default true) before the rule set's
         * built-in default answer; a default set with {@link RuleSet#withDefault} always wins over the reader.
         */
        public Builder reader(boolean reader) {
            this.reader = reader;
            return this;
        }

        /**
         * The readers that make up the built-in reader (default: those on veracity-sim's class path); the CLI gives
         * those of its plug-ins too.
         */
        public Builder readers(List<? extends PromptReader> readers) {
            this.readers = List.copyOf(readers);
            return this;
        }

        /** The largest request body read (default 32 MiB); a larger one gets 413 and is not read further. */
        public Builder maxRequestBytes(long maxRequestBytes) {
            this.maxRequestBytes = maxRequestBytes;
            return this;
        }

        /** Serves AReaL's online-mode gateway too, its start_session guarded by this admin key (null or blank: not). */
        public Builder areal(String adminKey) {
            this.arealAdminKey = adminKey == null || adminKey.isBlank() ? Optional.empty() : Optional.of(adminKey);
            return this;
        }

        /** The time latency, hangs and stream pacing pass on: a {@link ManualClock} in a test. */
        public Builder clock(SimClock clock) {
            this.clock = clock;
            return this;
        }

        public SimConfig build() {
            boolean any = anyModel != null ? anyModel : !modelsSet;
            return new SimConfig(port, rules, latency, capacity, maxQueue, queueFullStatus, faults, seed, models, any, refuseN,
                    requiredApiKey, retryAfter, recentRequestLimit, reader,
                    readers != null ? readers : ExtractiveReader.classPath().readers(), maxRequestBytes, arealAdminKey, clock);
        }
    }
}
