package dev.veracity.llm.llamacpp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.veracity.llm.ChatMessage;
import dev.veracity.llm.Completion;
import dev.veracity.llm.ErrorKind;
import dev.veracity.llm.FinishReason;
import dev.veracity.llm.LlmException;
import dev.veracity.llm.LlmRequest;
import dev.veracity.llm.LlmResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What this module adds beyond the shared contract: loading, tokenising, prompt rendering, stop sequences,
 * n samples, timeouts and errors, on a real llama.cpp with a tiny random-weight GGUF. Assertions are about the
 * protocol, never about what the text says.
 */
class LlamaCppBackendModuleTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final String TEMPLATE = "{% for m in messages %}[{{ m.role }}] {{ m.content }}\n{% endfor %}"
            + "{% if add_generation_prompt %}[assistant] {% endif %}";

    @TempDir
    static Path dir;

    private static Path file;
    private static LlamaCppBackend llm;

    @BeforeAll
    static void load() {
        file = TinyGguf.write(dir, 42);
        llm = LlamaCppBackend.builder(file).threads(2).build();
    }

    @AfterAll
    static void close() {
        llm.close();
    }

    /**
     * A greedy raw-prompt request. End-of-sequence is banned so that output lengths do not depend on where a
     * random model happens to stop; the end-of-sequence path has its own test.
     */
    private static LlmRequest.Builder completion(int maxTokens) {
        return LlmRequest.completion("Apples and pears are").temperature(0.0).maxTokens(maxTokens)
                .extra("ignore_eos", true);
    }

    private static LlmResponse generate(LlmRequest request) {
        return llm.generate(request, TIMEOUT);
    }

    private static LlmException llmError(ThrowingCallable call) {
        Throwable t = org.assertj.core.api.Assertions.catchThrowable(call);
        assertThat(t).isInstanceOf(LlmException.class);
        return (LlmException) t;
    }

    @Test
    void loadsTheFileAndDescribesIt() {
        assertThat(llm.id()).isEqualTo("llamacpp:tiny-42.gguf");
        assertThat(llm.defaultModel()).isEqualTo("tiny-42");
        assertThat(llm.contextSize()).isEqualTo(2048);
        assertThat(llm.usesChatTemplate()).isFalse();
        assertThat(llm.capabilities().logprobs()).isFalse();
        assertThat(llm.capabilities().seed()).isTrue();
        assertThat(llm.capabilities().nativeN()).isTrue();

        try (LlamaCppBackend named = LlamaCppBackend.builder(file).modelId("tiny").contextSize(256).build()) {
            assertThat(named.defaultModel()).isEqualTo("tiny");
            assertThat(named.contextSize()).isEqualTo(256);
            assertThat(named.generate(completion(4).build(), TIMEOUT).model()).isEqualTo("tiny");
        }
    }

    @Test
    void promptTokensAreTheTokenizersCountPlusBos() {
        LlmRequest raw = completion(4).build();
        int[] tokens = llm.tokenize(raw.prompt());

        assertThat(tokens).isNotEmpty();
        assertThat(generate(raw).usage().promptTokens()).isEqualTo(tokens.length + 1).isEqualTo(llm.promptTokens(raw));

        LlmRequest chat = LlmRequest.user("Write three sentences about apples and pears.").maxTokens(4).build();
        assertThat(generate(chat).first().usage().promptTokens())
                .isEqualTo(llm.tokenize(llm.render(chat)).length + 1);
    }

    @Test
    void tokenizerCoversAnyTextThroughByteFallback() {
        // Word pieces for known words, byte tokens for the rest: every text tokenises without unknown tokens.
        assertThat(llm.tokenize("apples and pears")).hasSizeLessThan("apples and pears".length());
        assertThat(llm.tokenize("é ✓ 日本")).isNotEmpty().doesNotContain(0);
    }

    @Test
    void rawPromptsAreUsedAsTheyAreAndChatFallsBackToChatMl() {
        assertThat(llm.render(completion(4).build())).isEqualTo("Apples and pears are");

        LlmRequest chat = LlmRequest.chat(ChatMessage.system("Be brief."), ChatMessage.user("Hi"),
                ChatMessage.assistant("Hello"), ChatMessage.user("Name a fruit.")).build();
        assertThat(llm.render(chat)).isEqualTo("<|im_start|>system\nBe brief.<|im_end|>\n"
                + "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\nHello<|im_end|>\n"
                + "<|im_start|>user\nName a fruit.<|im_end|>\n<|im_start|>assistant\n");
    }

    @Test
    void chatUsesTheTemplateTheGgufCarries() {
        Path templated = TinyGguf.write(dir.resolve("templated.gguf"), TinyGguf.Spec.tiny(42).withChatTemplate(TEMPLATE));
        try (LlamaCppBackend t = LlamaCppBackend.builder(templated).threads(2).build()) {
            LlmRequest chat = LlmRequest.chat(ChatMessage.system("S \"quoted\"\nline"), ChatMessage.user("Hello ✓"))
                    .maxTokens(8).temperature(0.0).build();

            assertThat(t.usesChatTemplate()).isTrue();
            assertThat(t.render(chat)).isEqualTo("[system] S \"quoted\"\nline\n[user] Hello ✓\n[assistant] ");
            LlmResponse r = t.generate(chat, TIMEOUT);
            assertThat(r.usage().promptTokens()).isEqualTo(t.tokenize(t.render(chat)).length + 1);
            assertThat(r.usage().completionTokens()).isBetween(1, 8);
        }
        // The builder's template wins over the file's.
        try (LlamaCppBackend t = LlamaCppBackend.builder(templated).chatTemplate("chatml").build()) {
            assertThat(t.render(LlmRequest.user("Hi").build())).contains("<|im_start|>user\nHi<|im_end|>");
        }
    }

    @Test
    void generatesWithinTheTokenLimitAndCountsTokensExactly() {
        LlmResponse r = generate(completion(5).build());

        Completion c = r.first();
        assertThat(c.finishReason()).isEqualTo(FinishReason.LENGTH);
        assertThat(c.truncated()).isTrue();
        // The tiny model writes ASCII word pieces, so every streamed piece is one token and the count is exact.
        assertThat(c.usage().completionTokens()).isEqualTo(5);
        assertThat(c.usage().exact()).isTrue();
        assertThat(c.text()).isNotEmpty();
        assertThat(r.usage()).isEqualTo(c.usage());
    }

    @Test
    void theEndOfSequenceTokenEndsWithStop() {
        // A large bias on EOS makes it the first token: the model stops by itself, with nothing written.
        LlmResponse r = generate(LlmRequest.completion("Apples and pears are").temperature(0.0).maxTokens(8)
                .extra("logit_bias", java.util.Map.of(String.valueOf(TinyGguf.EOS), 100)).build());

        assertThat(r.first().finishReason()).isEqualTo(FinishReason.STOP);
        assertThat(r.text()).isEmpty();
        assertThat(r.usage().completionTokens()).isEqualTo(1);
    }

    @Test
    void tokensEndingInsideAUtf8CharacterAreStillCounted() {
        // Biasing byte token <0xC3> (a UTF-8 lead byte) makes every token an unfinished character, which llama.cpp
        // never streams: the count comes from the limit it enforces, and says it is not a direct count.
        LlmResponse r = generate(completion(6).extra("logit_bias", java.util.Map.of("198", 100)).build());

        assertThat(r.first().finishReason()).isEqualTo(FinishReason.LENGTH);
        assertThat(r.usage().completionTokens()).isEqualTo(6);
        assertThat(r.usage().exact()).isFalse();
    }

    @Test
    void aLongerLimitExtendsTheSameGreedyText() {
        String shorter = generate(completion(6).build()).text();
        String longer = generate(completion(24).build()).text();

        assertThat(longer).startsWith(shorter);
        assertThat(longer.length()).isGreaterThan(shorter.length());
    }

    @Test
    void stopSequencesCutTheTextExactlyBeforeTheFirstMatch() {
        LlmResponse full = generate(completion(40).build());
        String text = full.text();
        assertThat(text.length()).isGreaterThan(20);
        String stop = text.substring(text.length() / 2, text.length() / 2 + 2);
        int first = text.indexOf(stop);

        LlmResponse stopped = generate(completion(40).stop(stop, "a stop that never occurs").build());

        assertThat(stopped.text()).isEqualTo(text.substring(0, first)).doesNotContain(stop);
        assertThat(stopped.first().finishReason()).isEqualTo(FinishReason.STOP);
        assertThat(stopped.usage().completionTokens()).isPositive()
                .isLessThan(full.usage().completionTokens());

        // Of several stop sequences, the one that occurs first ends the text.
        String early = text.substring(3, 5);
        int earliest = Math.min(text.indexOf(early), first);
        assertThat(generate(completion(40).stop(stop, early).build()).text()).isEqualTo(text.substring(0, earliest));

        // A stop sequence that never occurs changes nothing.
        LlmResponse unaffected = generate(completion(40).stop("\u0000never").build());
        assertThat(unaffected.text()).isEqualTo(text);
        assertThat(unaffected.first().finishReason()).isEqualTo(FinishReason.LENGTH);
    }

    @Test
    void nSamplesAreNumberedDistinctAndReproducibleWhenSeeded() {
        LlmRequest req = completion(24).temperature(1.0).seed(7L).n(3).firstSampleIndex(2).build();

        LlmResponse r = generate(req);

        assertThat(r.completions()).hasSize(3).extracting(Completion::sampleIndex).containsExactly(2, 3, 4);
        assertThat(new HashSet<>(r.texts())).as("seed + sample index gives each sample its own seed").hasSizeGreaterThan(1);
        assertThat(generate(req).texts()).isEqualTo(r.texts());
        // A sample is the same whether asked for within n = 3 or alone at its index.
        assertThat(generate(req.withSamples(3, 1)).text()).isEqualTo(r.texts().get(1));
        assertThat(r.usage().completionTokens())
                .isEqualTo(r.completions().stream().mapToInt(c -> c.usage().completionTokens()).sum());
        assertThat(r.usage().promptTokens()).isEqualTo(3 * r.first().usage().promptTokens());
    }

    @Test
    void unseededSamplesStillComeBackInFull() {
        LlmResponse r = generate(completion(8).temperature(1.0).n(3).build());

        assertThat(r.completions()).hasSize(3).allSatisfy(c -> {
            assertThat(c.usage().completionTokens()).isBetween(1, 8);
            assertThat(c.finishReason()).isIn(FinishReason.STOP, FinishReason.LENGTH);
        });
    }

    @Test
    void samplingExtrasAreAppliedAndUnknownOnesIgnored() {
        LlmRequest req = completion(12).temperature(0.8).seed(3L).topK(20).topP(0.9)
                .extra("min_p", 0.1).extra("repeat_penalty", "1.3").extra("best_of", 4).build();

        LlmResponse r = generate(req);

        assertThat(r.usage().completionTokens()).isBetween(1, 12);
        assertThat(generate(req).text()).isEqualTo(r.text());
        assertThat(llmError(() -> generate(completion(4).extra("min_p", "lots").build())).kind())
                .isEqualTo(ErrorKind.BAD_REQUEST);
    }

    @Test
    void aGrammarConstrainsTheOutput() {
        LlmResponse r = generate(completion(8).temperature(1.0).seed(5L).n(4).extra("ignore_eos", false)
                .extra("grammar", "root ::= (\"yes\" | \"no\")").build());

        assertThat(r.texts()).allSatisfy(t -> assertThat(t).isIn("yes", "no"));
        assertThat(r.completions()).allSatisfy(c -> assertThat(c.finishReason()).isEqualTo(FinishReason.STOP));
    }

    @Test
    void theRequestsModelNameDoesNotSelectWeights() {
        LlmResponse r = generate(completion(4).model("some-other-model").build());

        assertThat(r.model()).isEqualTo(llm.defaultModel());
    }

    /**
     * The deadline on a clock the test moves: it reads 0 for its first {@code PASS_AT} reads (the call's start, the
     * wait for the model, one check per token), then an hour; the loop checks it before each token, so the call must
     * stop at the first check past the deadline, with no token generated after it.
     */
    @Test
    void aCallPastItsDeadlineIsCancelledWithATimeoutAndTheModelStaysUsable() {
        final int passAt = 8;
        java.util.concurrent.atomic.AtomicInteger reads = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger readsPast = new java.util.concurrent.atomic.AtomicInteger();
        java.util.function.LongSupplier clock = () -> {
            if (reads.incrementAndGet() <= passAt) {
                return 0L;
            }
            readsPast.incrementAndGet();
            return Duration.ofHours(1).toNanos();
        };
        try (LlamaCppBackend timed = LlamaCppBackend.builder(file).threads(2).clock(clock).build()) {
            LlmException e = llmError(() -> timed.generate(completion(1500).build(), Duration.ofSeconds(30)));

            assertThat(e.kind()).isEqualTo(ErrorKind.TIMEOUT);
            assertThat(e.retryable()).isTrue();
            // two reads before generation (the deadline, the wait for the model), then one per token
            assertThat(e.getMessage()).as("stopped at the first check past the deadline, not after 1500 tokens")
                    .contains("passed its deadline after " + (passAt - 2) + " tokens");
            assertThat(readsPast).as("no token was generated (nor the clock read) after the deadline").hasValue(1);
            assertThat(timed.generate(completion(5).build(), Duration.ofSeconds(30)).usage().completionTokens())
                    .as("the model stays usable").isEqualTo(5);
        }
    }

    /**
     * A call that finds the model busy waits for it only for what is left of its timeout. The first call holds the
     * model on a latch (its clock blocks at the first token check, inside the lock) until the second call has timed
     * out; the second call's clock stands still, so its whole timeout is spent waiting for the model.
     */
    @Test
    void waitingForABusyModelCountsAgainstTheTimeout() throws Exception {
        java.util.concurrent.CountDownLatch holding = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.atomic.AtomicReference<Thread> holder = new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.atomic.AtomicInteger holderReads = new java.util.concurrent.atomic.AtomicInteger();
        java.util.function.LongSupplier clock = () -> {
            // the holder reads the clock for its deadline, its wait for the model, then before each token
            if (Thread.currentThread() == holder.get() && holderReads.incrementAndGet() == 3) {
                holding.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return 0L;
        };
        try (LlamaCppBackend busy = LlamaCppBackend.builder(file).threads(2).clock(clock).build();
                ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<LlmResponse> longCall = pool.submit(() -> {
                holder.set(Thread.currentThread());
                return busy.generate(completion(8).build(), Duration.ofSeconds(30));
            });
            LlmException e;
            try {
                holding.await();
                e = llmError(() -> busy.generate(completion(4).build(), Duration.ofMillis(20)));
            } finally {
                release.countDown(); // before the pool waits for the first call
            }

            assertThat(e.kind()).isEqualTo(ErrorKind.TIMEOUT);
            assertThat(e.getMessage()).contains("busy");
            assertThat(longCall.get().usage().completionTokens()).isPositive();
        }
    }

    @Test
    void aPromptLongerThanTheContextIsABadRequest() {
        try (LlamaCppBackend small = LlamaCppBackend.builder(file).contextSize(32).build()) {
            String prompt = "apples and pears ".repeat(40);
            assertThat(llmError(() -> small.generate(LlmRequest.completion(prompt).build(), TIMEOUT)).kind())
                    .isEqualTo(ErrorKind.BAD_REQUEST);
            // Without max_tokens a sample may fill the rest of the context, and no more.
            LlmResponse r = small.generate(LlmRequest.completion("apples").temperature(0.0).build(), TIMEOUT);
            assertThat(r.usage().totalTokens()).isLessThanOrEqualTo(32);
        }
    }

    @Test
    void logprobsAreRefusedAsUnsupported() {
        LlmException e = llmError(() -> generate(completion(4).logprobs(0).build()));

        assertThat(e.kind()).isEqualTo(ErrorKind.UNSUPPORTED);
        assertThat(e.getMessage()).contains("logprobs");
    }

    @Test
    void aMissingFileFailsWithAClearMessage() {
        LlmException e = llmError(() -> LlamaCppBackend.load(dir.resolve("absent.gguf")));

        assertThat(e.kind()).isEqualTo(ErrorKind.BAD_REQUEST);
        assertThat(e.getMessage()).contains("could not load GGUF file").contains("absent.gguf").contains("no such file");
    }

    @Test
    void aFileThatIsNotGgufFailsWithAClearMessage() throws Exception {
        Path text = Files.writeString(dir.resolve("notes.gguf"), "these are not the weights you are looking for");

        LlmException e = llmError(() -> LlamaCppBackend.load(text));

        assertThat(e.kind()).isEqualTo(ErrorKind.BAD_REQUEST);
        assertThat(e.getMessage()).contains("notes.gguf").contains("not a GGUF model");
    }

    @Test
    void aTruncatedFileFailsWithAClearMessage() throws Exception {
        byte[] whole = Files.readAllBytes(file);
        Path cut = Files.write(dir.resolve("cut.gguf"), Arrays.copyOf(whole, whole.length - 1000));
        Path headerOnly = Files.write(dir.resolve("header.gguf"), Arrays.copyOf(whole, 100));

        assertThat(llmError(() -> LlamaCppBackend.load(cut)).getMessage()).contains("truncated");
        assertThat(llmError(() -> LlamaCppBackend.load(headerOnly)).getMessage()).contains("truncated");
    }

    @Test
    void aGgufLlamaCppRefusesFailsWithAClearMessage() {
        Path alien = TinyGguf.write(dir.resolve("alien.gguf"), TinyGguf.Spec.tiny(1).withArchitecture("no-such-arch"));

        LlmException e = llmError(() -> LlamaCppBackend.load(alien));

        assertThat(e.kind()).isEqualTo(ErrorKind.BAD_REQUEST);
        assertThat(e.getMessage()).contains("could not load GGUF file").contains("alien.gguf").contains("GGUF v3");
    }

    @Test
    void aClosedBackendRefusesCallsAndClosesOnce() {
        LlamaCppBackend b = LlamaCppBackend.load(file);
        b.close();
        b.close();

        assertThatThrownBy(() -> b.generate(completion(4).build(), TIMEOUT)).isInstanceOf(LlmException.class)
                .hasMessageContaining("closed");
        assertThatThrownBy(() -> b.tokenize("apples")).isInstanceOf(LlmException.class);
    }
}
