package dev.veracity.llm.llamacpp;

import de.kherud.llama.LlamaModel;
import de.kherud.llama.ModelParameters;
import dev.veracity.llm.BackendCapabilities;
import dev.veracity.llm.Completion;
import dev.veracity.llm.ErrorKind;
import dev.veracity.llm.LlmBackend;
import dev.veracity.llm.LlmException;
import dev.veracity.llm.LlmRequest;
import dev.veracity.llm.LlmResponse;
import dev.veracity.llm.TokenUsage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A GGUF model run in-process by llama.cpp through the de.kherud:llama JNI binding (CPU by default).
 *
 * <pre>{@code
 * try (LlamaCppBackend llm = LlamaCppBackend.builder(Path.of("models/qwen2.5-0.5b-instruct-q4_k_m.gguf"))
 *         .contextSize(4096).threads(4).build()) {
 *     LlmResponse r = llm.generate(LlmRequest.user("Hello").maxTokens(64).build(), Duration.ofSeconds(30));
 * }
 * }</pre>
 *
 * <p><b>Prompts.</b> Chat requests are rendered with the model's chat template (the GGUF's
 * {@code tokenizer.chat_template}, or {@link Builder#chatTemplate} when given) by llama.cpp's Jinja engine; a GGUF
 * without a template gets ChatML (see {@link ChatPrompts}). Raw prompts are completed as they are. llama.cpp adds
 * the BOS token when the vocabulary asks for it.
 *
 * <p><b>Sampling.</b> temperature (0 = greedy), top_p, top_k, max_tokens, stop, seed and some extras (see
 * {@link SamplingSettings}). {@code n} samples are generated one after another; sample {@code i} (its absolute
 * index, {@code firstSampleIndex + position}) uses seed {@code seed + i} when the request is seeded, so samples
 * differ yet each is reproducible. Without max_tokens a sample may fill the rest of the context.
 *
 * <p><b>Not supported:</b> logprobs. The binding (4.2.0) has no usable token-probability API: asking llama.cpp
 * for {@code n_probs} makes the binding abort the whole JVM while it parses the result, so a request with logprobs
 * fails with {@link ErrorKind#UNSUPPORTED} and {@link #capabilities()} says so.
 *
 * <p><b>Threads.</b> One llama.cpp context generates one sequence at a time, so calls are serialised by a fair
 * lock: concurrent callers queue, and the time spent queueing counts against their timeout. Serial generation
 * also keeps greedy and seeded outputs independent of what else runs.
 *
 * <p><b>Timeout.</b> The deadline is checked before every token; past it generation is cancelled and the call
 * fails with {@link ErrorKind#TIMEOUT}. One token step (or the prompt evaluation before the first token) cannot
 * be interrupted, so a call may overrun its deadline by that much.
 *
 * <p><b>Usage.</b> Prompt tokens come from the model's tokenizer ({@code encode}, plus the BOS/EOS tokens
 * llama.cpp adds); completion tokens are counted as llama.cpp streams them ({@link GenerationLoop} says when
 * the count is inferred from the limit or only a lower bound, which {@link TokenUsage#exact()} then reports). Each sample evaluates the prompt again, so each completion's usage
 * includes the prompt, and the response's usage is their sum.
 */
public final class LlamaCppBackend implements LlmBackend {

    private static final BackendCapabilities CAPABILITIES =
            new BackendCapabilities(true, true, true, true, false, true);

    private final Path file;
    private final String id;
    private final String modelId;
    private final int contextSize;
    private final boolean useTemplate;
    private final boolean addsBos;
    private final boolean addsEos;
    private final LlamaModel model;
    private final ReentrantLock lock = new ReentrantLock(true);
    /** What deadlines are measured on: {@link System#nanoTime} unless a test gives its own. */
    private final java.util.function.LongSupplier clock;
    private volatile boolean closed;

    private LlamaCppBackend(Builder b, GgufMetadata meta, LlamaModel model, int contextSize) {
        this.file = b.file;
        this.id = "llamacpp:" + b.file.getFileName();
        this.clock = b.clock;
        this.modelId = b.modelId != null ? b.modelId : defaultModelId(b.file);
        this.contextSize = contextSize;
        this.useTemplate = b.chatTemplate != null || meta.chatTemplate().isPresent();
        this.addsBos = meta.addsBos();
        this.addsEos = meta.addsEos();
        this.model = model;
    }

    public static Builder builder(Path ggufFile) {
        return new Builder(ggufFile);
    }

    /** Loads a GGUF file with the default settings. */
    public static LlamaCppBackend load(Path ggufFile) {
        return builder(ggufFile).build();
    }

    @Override
    public String id() {
        return id;
    }

    /**
     * The model id used in traces and cache keys: the builder's, else the file name without {@code .gguf}. This
     * backend serves one file, so a request's model name does not select weights.
     */
    @Override
    public String defaultModel() {
        return modelId;
    }

    @Override
    public BackendCapabilities capabilities() {
        return CAPABILITIES;
    }

    /** The context window in tokens, shared by prompt and output. */
    public int contextSize() {
        return contextSize;
    }

    /** Whether chat requests are rendered with a chat template (else ChatML). */
    public boolean usesChatTemplate() {
        return useTemplate;
    }

    /**
     * The prompt text llama.cpp completes for a request: the raw prompt, or the chat messages rendered with the
     * model's template or ChatML.
     */
    public String render(LlmRequest request) {
        return locked(() -> renderLocked(request));
    }

    /** The prompt tokens llama.cpp evaluates for a request (as reported in its usage). */
    public int promptTokens(LlmRequest request) {
        return locked(() -> countPromptTokens(renderLocked(request)));
    }

    /** The model's tokenizer, without the BOS/EOS tokens llama.cpp adds to a prompt. */
    public int[] tokenize(String text) {
        return locked(() -> model.encode(text));
    }

    private String renderLocked(LlmRequest request) {
        if (!request.isChat()) {
            return request.prompt();
        }
        if (!useTemplate) {
            return ChatPrompts.chatMl(request.messages());
        }
        try {
            return model.applyTemplate(ChatPrompts.templateInput(request.messages()));
        } catch (RuntimeException e) {
            throw new LlmException(ErrorKind.BAD_REQUEST, "the chat template of " + file.getFileName()
                    + " failed to render the messages: " + e.getMessage()
                    + "; give the builder another template (chatTemplate(\"chatml\"), say)", e);
        }
    }

    /** Tokens llama.cpp evaluates for this prompt text: its tokenizer's tokens plus the special tokens it adds. */
    private int countPromptTokens(String prompt) {
        return model.encode(prompt).length + (addsBos ? 1 : 0) + (addsEos ? 1 : 0);
    }

    @Override
    public LlmResponse generate(LlmRequest request, Duration timeout) {
        Objects.requireNonNull(request, "request");
        long deadline = clock.getAsLong() + Math.max(0, timeout.toNanos());
        if (request.logprobs() != null) {
            throw new LlmException(ErrorKind.UNSUPPORTED, id + " cannot return logprobs: de.kherud:llama 4.2.0 "
                    + "exposes no usable token probabilities (requesting them aborts the JVM)");
        }
        acquire(deadline, timeout);
        try {
            ensureOpen();
            return generateLocked(request, deadline, timeout);
        } finally {
            lock.unlock();
        }
    }

    private LlmResponse generateLocked(LlmRequest request, long deadline, Duration timeout) {
        String prompt = renderLocked(request);
        int promptTokens = countPromptTokens(prompt);
        int room = contextSize - promptTokens;
        if (room < 1) {
            throw new LlmException(ErrorKind.BAD_REQUEST, "the prompt has " + promptTokens + " tokens but the "
                    + "context of " + id + " holds " + contextSize + "; shorten it or raise the context size");
        }
        // The token limit: max_tokens, never past the end of the context (context shifting is off).
        int nPredict = request.maxTokens() == null ? room : Math.min(request.maxTokens(), room);
        List<Completion> completions = new ArrayList<>();
        TokenUsage total = TokenUsage.ZERO;
        for (int i = 0; i < request.n(); i++) {
            int index = request.firstSampleIndex() + i;
            Integer seed = SamplingSettings.seedFor(request.seed(), index);
            GenerationLoop loop = new GenerationLoop(request.stop(), nPredict, deadline, clock);
            String what = "sample " + index + " of a call to " + id + " (timeout " + timeout.toMillis() + " ms)";
            GenerationLoop.Result r;
            try {
                r = loop.run(TokenStream.of(model.generate(
                        SamplingSettings.forSample(prompt, request, seed, nPredict)).iterator()), what);
            } catch (LlmException e) {
                throw e;
            } catch (RuntimeException e) {
                // LlamaException (package-private in the binding): llama.cpp refused the request, e.g. a bad grammar.
                throw new LlmException(ErrorKind.BAD_REQUEST, "llama.cpp rejected " + what + ": " + e.getMessage(), e);
            }
            TokenUsage usage = new TokenUsage(promptTokens, r.tokens(), r.exact());
            completions.add(new Completion(index, r.text(), r.finish(), usage, Optional.empty()));
            total = total.plus(usage);
        }
        return new LlmResponse(modelId, completions, total);
    }

    /** Runs a quick native call under the lock, on an open model. */
    private <T> T locked(java.util.function.Supplier<T> call) {
        lock.lock();
        try {
            ensureOpen();
            return call.get();
        } finally {
            lock.unlock();
        }
    }

    private void acquire(long deadline, Duration timeout) {
        try {
            if (!lock.tryLock(Math.max(0, deadline - clock.getAsLong()), TimeUnit.NANOSECONDS)) {
                throw new LlmException(ErrorKind.TIMEOUT, id + " was busy with other calls for the whole timeout of "
                        + timeout.toMillis() + " ms (it generates one call at a time)");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LlmException(ErrorKind.CANCELLED, "interrupted while waiting for " + id, e);
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new LlmException(ErrorKind.INTERNAL, id + " is closed");
        }
    }

    /** Frees the model and its context; waits for a call in progress to end. Idempotent. */
    @Override
    public void close() {
        lock.lock();
        try {
            if (!closed) {
                closed = true;
                model.close();
            }
        } finally {
            lock.unlock();
        }
    }

    private static String defaultModelId(Path file) {
        String name = file.getFileName().toString();
        return name.toLowerCase(java.util.Locale.ROOT).endsWith(".gguf") ? name.substring(0, name.length() - 5) : name;
    }

    /** Settings for loading a GGUF file; {@link #build()} loads it. */
    public static final class Builder {
        private final Path file;
        private Integer contextSize;
        private int threads = Runtime.getRuntime().availableProcessors();
        private int gpuLayers;
        private String modelId;
        private String chatTemplate;
        private boolean nativeLog;
        private java.util.function.LongSupplier clock = System::nanoTime;

        private Builder(Path file) {
            this.file = Objects.requireNonNull(file, "file");
        }

        /**
         * The context window in tokens (prompt and output). Default: the model's training context, at most 4096,
         * because the KV cache of a 128k-context model would take gigabytes.
         */
        public Builder contextSize(int tokens) {
            if (tokens < 16) {
                throw new IllegalArgumentException("context size must be >= 16, was " + tokens);
            }
            this.contextSize = tokens;
            return this;
        }

        /** CPU threads for decoding. Default: all available processors. */
        public Builder threads(int threads) {
            if (threads < 1) {
                throw new IllegalArgumentException("threads must be >= 1, was " + threads);
            }
            this.threads = threads;
            return this;
        }

        /** Layers to offload to a GPU. Default 0: the bundled natives are CPU builds. */
        public Builder gpuLayers(int layers) {
            if (layers < 0) {
                throw new IllegalArgumentException("gpu layers must be >= 0, was " + layers);
            }
            this.gpuLayers = layers;
            return this;
        }

        /** The model id for traces and cache keys. Default: the file name without {@code .gguf}. */
        public Builder modelId(String modelId) {
            this.modelId = modelId == null || modelId.isBlank() ? null : modelId;
            return this;
        }

        /**
         * A chat template to use instead of the GGUF's: a llama.cpp template name ("chatml", "llama3", ...) or
         * Jinja source. Default: the GGUF's template, else ChatML.
         */
        public Builder chatTemplate(String template) {
            this.chatTemplate = template == null || template.isBlank() ? null : template;
            return this;
        }

        /** Let llama.cpp log to stderr (loading details, per-call timings). Default off: it is very chatty. */
        public Builder nativeLog(boolean on) {
            this.nativeLog = on;
            return this;
        }

        /** The clock deadlines are measured on, in nanoseconds ({@link System#nanoTime}): a test's own. */
        Builder clock(java.util.function.LongSupplier nanoClock) {
            this.clock = Objects.requireNonNull(nanoClock, "nanoClock");
            return this;
        }

        /**
         * Checks the file and loads it.
         *
         * @throws LlmException ({@link ErrorKind#BAD_REQUEST}) naming the problem when the file is missing, not a
         *                      GGUF model, truncated, or refused by llama.cpp
         */
        public LlamaCppBackend build() {
            GgufMetadata meta = check();
            int ctx = contextSize != null ? contextSize
                    : (int) Math.max(16, Math.min(4096, meta.contextLength().orElse(4096)));
            ModelParameters params = new ModelParameters()
                    .setModel(file.toString())
                    .setCtxSize(ctx)
                    .setThreads(threads)
                    .setParallel(1)
                    // Stop at the end of the context instead of silently dropping the prompt's start.
                    .disableContextShift()
                    // Jinja renders any template a GGUF carries; without it llama.cpp knows only a fixed list.
                    .enableJinja();
            if (gpuLayers > 0) {
                params.setGpuLayers(gpuLayers); // only when asked: llama.cpp warns about the flag on a CPU build
            }
            if (chatTemplate != null) {
                params.setChatTemplate(chatTemplate);
            }
            if (!nativeLog) {
                params.disableLog();
            }
            LlamaModel model;
            try {
                model = new LlamaModel(params);
            } catch (RuntimeException | UnsatisfiedLinkError e) {
                throw new LlmException(ErrorKind.BAD_REQUEST, "could not load GGUF file " + file + ": llama.cpp "
                        + "refused it (" + e.getMessage() + "); check the file is a GGUF v3 model of an architecture "
                        + "this llama.cpp supports" + (nativeLog ? "" : ", and build with nativeLog(true) to see why"), e);
            }
            return new LlamaCppBackend(this, meta, model, ctx);
        }

        private GgufMetadata check() {
            if (!Files.isRegularFile(file)) {
                throw new LlmException(ErrorKind.BAD_REQUEST, "could not load GGUF file " + file + ": "
                        + (Files.exists(file) ? "it is not a regular file" : "no such file") + "; check the path");
            }
            try {
                return GgufMetadata.read(file);
            } catch (IOException e) {
                throw new LlmException(ErrorKind.BAD_REQUEST, "could not load GGUF file " + file + ": "
                        + e.getMessage() + "; check the file is a complete GGUF v3 model", e);
            }
        }
    }
}
