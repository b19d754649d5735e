package dev.veracity.langchain4j;

import dev.langchain4j.model.chat.response.ChatResponseMetadata;
import dev.veracity.method.MethodAnswer;
import dev.veracity.method.Truncation;
import dev.veracity.methods.march.MarchDetail;
import dev.veracity.methods.march.Verification;
import dev.veracity.trace.CallStats;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a {@link VeracityChatModel} answer's method did, beyond its text: the metadata of its {@code ChatResponse}
 * ({@code (VeracityResponseMetadata) response.metadata()}, or {@code Result.finalResponse().metadata()} in
 * {@code AiServices}). The same facts as the {@code veracity} field of {@code veracity serve}'s answers: the method, its
 * answers, whether it abstained, MARCH's verdict and claims where it verified, the documents it was given and what
 * the answer cost. {@link #tokenUsage()} counts every model call of the method (a MARCH composition's Proposer and
 * Checker calls included), not one.
 */
public final class VeracityResponseMetadata extends ChatResponseMetadata {

    private final String method;
    private final String upstreamModel;
    private final MethodAnswer answer;
    private final List<String> documentIds;
    private final CallStats calls;
    private final Map<String, Object> options;
    private final Truncation truncation;
    private final List<String> ignored;

    private VeracityResponseMetadata(Builder b) {
        super(b);
        this.method = Objects.requireNonNull(b.method, "method");
        this.upstreamModel = b.upstreamModel;
        this.answer = Objects.requireNonNull(b.answer, "answer");
        this.documentIds = b.documentIds == null ? List.of() : List.copyOf(b.documentIds);
        this.calls = Objects.requireNonNull(b.calls, "calls");
        this.options = b.options == null ? Map.of() : Map.copyOf(b.options);
        this.truncation = b.truncation == null ? new Truncation(0, Map.of(), false, "", null) : b.truncation;
        this.ignored = b.ignored == null ? List.of() : List.copyOf(b.ignored);
    }

    /** The method that answered, e.g. {@code standard-rag+march+abstain}. */
    public String method() {
        return method;
    }

    /** The upstream model the method's calls went to. */
    public String upstreamModel() {
        return upstreamModel;
    }

    /** The answers the method parsed from its output (empty when it parses none). */
    public List<String> answers() {
        return answer.answers();
    }

    /** Whether the answer is an abstention: the method's own signal or its text ({@link MethodAnswer#abstained()}). */
    public boolean abstained() {
        return answer.abstained();
    }

    /**
     * MARCH's verdict on the answer: {@code passed}, {@code failed}, {@code no_claims} or {@code unparseable}; empty
     * when the method did not verify (not {@code march} or a {@code METHOD+march} composition).
     */
    public Optional<String> verdict() {
        return Verification.Status.ofSignals(answer.signals()).map(Verification.Status::label);
    }

    /** Whether a verifying composition's policy replaced a rejected answer by an abstention ({@code +abstain}). */
    public boolean abstainedByPolicy() {
        return answer.signals().getOrDefault("abstained_by_policy", 0.0) > 0;
    }

    /** What MARCH decided, claim by claim (each with the Checker samples' answers), where the method verified. */
    public Optional<MarchDetail> march() {
        return answer.detail(MarchDetail.KEY);
    }

    /** MARCH's claims, in the Proposer's order; empty when the method did not verify or found none. */
    public List<MarchDetail.ClaimDetail> claims() {
        return march().map(MarchDetail::claims).orElse(List.of());
    }

    /** The numbers the method reports per question (MARCH: {@code consistent}, {@code claims}, ...). */
    public Map<String, Double> signals() {
        return answer.signals();
    }

    /** Model outputs the method could not parse, each described (recorded, never fatal). */
    public List<String> parseFailures() {
        return answer.parseFailures();
    }

    /** The whole answer as the method returned it, details included (MADAM-RAG's rounds, the Court's candidates). */
    public MethodAnswer methodAnswer() {
        return answer;
    }

    /** The ids of the documents the method was given, in order (empty for a closed-book method). */
    public List<String> documentIds() {
        return documentIds;
    }

    /** The method's options as it ran with them (its defaults and the builder's), typed as the method declares them. */
    public Map<String, Object> options() {
        return options;
    }

    /** Model calls the method made (a request for n samples counts once; see {@link #samples()}). */
    public int calls() {
        return calls.calls();
    }

    /** Samples the calls asked for: n per call, as the papers count model calls. */
    public int samples() {
        return calls.samples();
    }

    /** Prompt tokens of every call, whether the model or the response cache answered. */
    public long promptTokens() {
        return calls.usedPromptTokens();
    }

    /** Completion tokens of every call. */
    public long completionTokens() {
        return calls.usedCompletionTokens();
    }

    /** The longest chain of calls that had to wait on each other: the answer's latency at unbounded concurrency. */
    public Duration criticalPath() {
        return calls.criticalPath();
    }

    /**
     * The outputs a token limit cut (finish reason length): {@link Truncation#answer()} when the answer itself was
     * read from one, which the response's finish reason then says ({@code LENGTH}), as {@code serve}'s
     * {@code truncated} does.
     */
    public Truncation truncation() {
        return truncation;
    }

    /**
     * What of the request the method did not use, each with the reason: the other messages of a chat (a method answers
     * the last user message alone: a chat memory's history, a system message), sampling parameters (each method samples
     * as its paper says). Empty when it used all of it.
     */
    public List<String> ignored() {
        return ignored;
    }

    /** All the call statistics. */
    public CallStats callStats() {
        return calls;
    }

    @Override
    public Builder toBuilder() {
        return ((Builder) super.toBuilder(new Builder())).method(method).upstreamModel(upstreamModel).answer(answer)
                .documentIds(documentIds).calls(calls).options(options).truncation(truncation).ignored(ignored);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof VeracityResponseMetadata v && super.equals(o) && method.equals(v.method)
                && Objects.equals(upstreamModel, v.upstreamModel) && answer.equals(v.answer)
                && documentIds.equals(v.documentIds) && calls.equals(v.calls) && options.equals(v.options)
                && truncation.equals(v.truncation) && ignored.equals(v.ignored);
    }

    @Override
    public int hashCode() {
        return Objects.hash(super.hashCode(), method, upstreamModel, answer, documentIds, calls, options, truncation,
                ignored);
    }

    @Override
    public String toString() {
        return "VeracityResponseMetadata{method=" + method + ", upstreamModel=" + upstreamModel + ", abstained="
                + abstained() + ", verdict=" + verdict().orElse("-") + ", claims=" + claims().size() + ", calls="
                + calls() + ", tokenUsage=" + tokenUsage() + ", documents=" + documentIds + "}";
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builds the metadata (the model does; public for tests and listeners that copy it). */
    public static final class Builder extends ChatResponseMetadata.Builder<Builder> {
        private String method;
        private String upstreamModel;
        private MethodAnswer answer;
        private List<String> documentIds;
        private CallStats calls;
        private Map<String, Object> options;
        private Truncation truncation;
        private List<String> ignored;

        public Builder method(String method) {
            this.method = method;
            return this;
        }

        public Builder upstreamModel(String upstreamModel) {
            this.upstreamModel = upstreamModel;
            return this;
        }

        public Builder answer(MethodAnswer answer) {
            this.answer = answer;
            return this;
        }

        public Builder documentIds(List<String> documentIds) {
            this.documentIds = documentIds;
            return this;
        }

        public Builder calls(CallStats calls) {
            this.calls = calls;
            return this;
        }

        public Builder options(Map<String, Object> options) {
            this.options = options;
            return this;
        }

        public Builder truncation(Truncation truncation) {
            this.truncation = truncation;
            return this;
        }

        public Builder ignored(List<String> ignored) {
            this.ignored = ignored;
            return this;
        }

        @Override
        public VeracityResponseMetadata build() {
            return new VeracityResponseMetadata(this);
        }
    }
}
