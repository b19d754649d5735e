package dev.veracity.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The contract every {@link LlmBackend} passes: one abstract test, extended once per backend module (in the
 * LangChain4j style of abstract {@code *IT} classes). It asserts protocol behaviour, never what the text says,
 * so it holds for a scripted simulator and for a tiny random-weight model alike.
 */
public abstract class LlmBackendContractTest {

    protected static final Duration TIMEOUT = Duration.ofSeconds(60);

    /** The backend under test; the subclass owns its life cycle. */
    protected abstract LlmBackend backend();

    /** A chat request that makes the model write at least a dozen tokens. */
    protected LlmRequest.Builder chatRequest() {
        return LlmRequest.user("Write three sentences about apples and pears.").maxTokens(32);
    }

    /** A raw prompt that makes the model write at least a dozen tokens. */
    protected LlmRequest.Builder completionRequest() {
        return LlmRequest.completion("Apples and pears are").maxTokens(32);
    }

    protected LlmResponse generate(LlmRequest request) {
        return backend().generate(request, TIMEOUT);
    }

    @Test
    void answersAChatRequestWithOneCompletionAndUsage() {
        LlmResponse r = generate(chatRequest().temperature(0.0).build());

        assertThat(r.completions()).hasSize(1);
        Completion c = r.first();
        assertThat(c.sampleIndex()).isZero();
        assertThat(c.text()).isNotNull();
        assertThat(c.finishReason()).isIn(FinishReason.STOP, FinishReason.LENGTH);
        assertThat(r.usage().promptTokens()).isPositive();
        assertThat(r.usage().completionTokens()).isPositive();
        assertThat(r.usage().completionTokens()).isLessThanOrEqualTo(32);
    }

    @Test
    void returnsNSamplesNumberedFromTheFirstSampleIndex() {
        LlmResponse r = generate(chatRequest().n(3).firstSampleIndex(5).temperature(0.9).seed(7L).build());

        assertThat(r.completions()).extracting(Completion::sampleIndex).containsExactly(5, 6, 7);
        assertThat(r.completions()).allSatisfy(c -> assertThat(c.finishReason())
                .isIn(FinishReason.STOP, FinishReason.LENGTH));
        assertThat(r.usage().completionTokens()).isPositive();
    }

    @Test
    void greedyDecodingIsRepeatable() {
        LlmRequest req = chatRequest().temperature(0.0).build();
        assertThat(generate(req).text()).isEqualTo(generate(req).text());
    }

    @Test
    void theSameSeedGivesTheSameSample() {
        assumeTrue(backend().capabilities().seed(), "backend does not honour seeds");
        LlmRequest req = chatRequest().temperature(1.0).seed(1234L).build();
        assertThat(generate(req).text()).isEqualTo(generate(req).text());
    }

    @Test
    void maxTokensCutsTheOutputAndSaysSo() {
        LlmResponse r = generate(chatRequest().temperature(0.0).maxTokens(3).build());

        assertThat(r.usage().completionTokens()).isBetween(1, 3);
        // The greedy output of the same request without the limit is longer, so the limit is what stopped it.
        String full = generate(chatRequest().temperature(0.0).build()).text();
        if (full.length() > r.text().length()) {
            assertThat(r.first().finishReason()).isEqualTo(FinishReason.LENGTH);
            assertThat(full).startsWith(r.text().stripTrailing());
        }
    }

    @Test
    void aStopSequenceEndsTheOutputBeforeIt() {
        String full = generate(chatRequest().temperature(0.0).build()).text();
        String stop = stopSequenceFrom(full);
        assumeTrue(stop != null, "greedy output too short to pick a stop sequence: '" + full + "'");

        LlmResponse stopped = generate(chatRequest().temperature(0.0).stop(stop).build());

        assertThat(stopped.text()).doesNotContain(stop);
        assertThat(full).startsWith(stopped.text());
        assertThat(stopped.text().length()).isLessThan(full.length());
        assertThat(stopped.first().finishReason()).isEqualTo(FinishReason.STOP);
    }

    /** A stop sequence taken from the middle of a text, at least 2 characters, not at its very start. */
    static String stopSequenceFrom(String full) {
        String trimmed = full.strip();
        if (trimmed.length() < 8) {
            return null;
        }
        int from = full.indexOf(trimmed) + trimmed.length() / 2;
        String stop = full.substring(from, Math.min(full.length(), from + 3));
        // The stop must first occur at or after 'from', else the expected prefix is ambiguous: move it later.
        while (full.indexOf(stop) < from && from + 3 < full.length()) {
            from++;
            stop = full.substring(from, from + 3);
        }
        return full.indexOf(stop) >= 1 && !stop.isBlank() ? stop : null;
    }

    @Test
    void rawPromptWorksOrIsRefusedWithATypedError() {
        LlmRequest req = completionRequest().temperature(0.0).build();
        if (backend().capabilities().rawPrompt()) {
            LlmResponse r = generate(req);
            assertThat(r.completions()).hasSize(1);
            assertThat(r.usage().promptTokens()).isPositive();
        } else {
            assertThatThrownBy(() -> generate(req)).isInstanceOf(LlmException.class)
                    .extracting(e -> ((LlmException) e).kind()).isEqualTo(ErrorKind.UNSUPPORTED);
        }
    }

    @Test
    void logprobsAreReturnedOrRefusedNeverSilentlyDropped() {
        LlmRequest req = chatRequest().temperature(0.0).maxTokens(5).logprobs(2).build();
        if (backend().capabilities().logprobs()) {
            Completion c = generate(req).first();
            assertThat(c.logprobs()).isPresent();
            assertThat(c.logprobs().get()).isNotEmpty().allSatisfy(t -> assertThat(t.logprob()).isLessThanOrEqualTo(0.0));
        } else {
            assertThatThrownBy(() -> generate(req)).isInstanceOf(LlmException.class)
                    .extracting(e -> ((LlmException) e).kind()).isEqualTo(ErrorKind.UNSUPPORTED);
        }
    }

    @Test
    void servesConcurrentCallers() throws Exception {
        List<Future<LlmResponse>> futures = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 8; i++) {
                LlmRequest req = chatRequest().temperature(0.0).maxTokens(8).build();
                futures.add(pool.submit(() -> generate(req)));
            }
        }
        String firstText = futures.getFirst().get().text();
        for (Future<LlmResponse> f : futures) {
            assertThat(f.get().completions()).hasSize(1);
            assertThat(f.get().text()).isEqualTo(firstText);
        }
    }

    @Test
    void hasAnIdWithoutSecretsAndADefaultModel() {
        assertThat(backend().id()).isNotBlank().doesNotContainIgnoringCase("key=").doesNotContain("sk-");
        assertThat(backend().defaultModel()).isNotBlank();
    }
}
