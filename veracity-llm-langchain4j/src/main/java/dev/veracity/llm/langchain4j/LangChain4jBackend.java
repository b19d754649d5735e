package dev.veracity.llm.langchain4j;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.exception.AuthenticationException;
import dev.langchain4j.exception.ContentFilteredException;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.InternalServerException;
import dev.langchain4j.exception.InvalidRequestException;
import dev.langchain4j.exception.ModelNotFoundException;
import dev.langchain4j.exception.RateLimitException;
import dev.langchain4j.exception.TimeoutException;
import dev.langchain4j.exception.UnsupportedFeatureException;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ChatRequestParameters;
import dev.langchain4j.model.chat.request.DefaultChatRequestParameters;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.TokenUsage;
import dev.veracity.llm.BackendCapabilities;
import dev.veracity.llm.ChatMessage;
import dev.veracity.llm.Completion;
import dev.veracity.llm.ErrorKind;
import dev.veracity.llm.FinishReason;
import dev.veracity.llm.LlmBackend;
import dev.veracity.llm.LlmException;
import dev.veracity.llm.LlmRequest;
import dev.veracity.llm.LlmResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Any LangChain4j {@link ChatModel} as a backend, so every provider LangChain4j supports works.
 *
 * <p>The generic {@code ChatModel} API has one answer per request, no seed, no logprobs and no raw prompt. So
 * this backend reports {@code nativeN = false} (the client asks for n samples as n concurrent calls), refuses
 * logprobs and raw prompts with {@link ErrorKind#UNSUPPORTED} instead of dropping them, and cannot pass a seed:
 * configure one on the provider's model builder if it has one (the cache still keys samples by seed and index,
 * so reruns are reproducible either way). The per-attempt timeout is enforced here, around the model's call,
 * since the API has none per request.
 */
public final class LangChain4jBackend implements LlmBackend {

    private final ChatModel model;
    private final String id;
    private final String defaultModel;
    private final ExecutorService calls = Executors.newVirtualThreadPerTaskExecutor();

    private LangChain4jBackend(ChatModel model, String id) {
        this.model = Objects.requireNonNull(model, "model");
        String name = model.defaultRequestParameters() == null ? null : model.defaultRequestParameters().modelName();
        this.defaultModel = name == null || name.isBlank() ? "langchain4j-default" : name;
        this.id = id != null ? id : "langchain4j:" + model.provider().name().toLowerCase(java.util.Locale.ROOT);
    }

    /** Wraps a chat model; the id names the provider (for traces and the cache key). */
    public static LangChain4jBackend of(ChatModel model) {
        return new LangChain4jBackend(model, null);
    }

    /**
     * Wraps a chat model under an explicit id: give one per distinct endpoint when two models of the same provider
     * must not share cache entries.
     */
    public static LangChain4jBackend of(ChatModel model, String id) {
        return new LangChain4jBackend(model, id);
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public String defaultModel() {
        return defaultModel;
    }

    @Override
    public BackendCapabilities capabilities() {
        return new BackendCapabilities(true, false, false, false, false, false);
    }

    @Override
    public LlmResponse generate(LlmRequest request, Duration timeout) {
        if (!request.isChat()) {
            throw new LlmException(ErrorKind.UNSUPPORTED, "a LangChain4j ChatModel takes chat messages, not a raw prompt;"
                    + " send the prompt as a user message or use an OpenAI-compatible or llama.cpp backend");
        }
        if (request.logprobs() != null) {
            throw new LlmException(ErrorKind.UNSUPPORTED, "the LangChain4j ChatModel API returns no logprobs;"
                    + " use the OpenAI-compatible backend for logprobs");
        }
        ChatRequest chat = ChatRequest.builder().messages(messages(request)).parameters(parameters(request)).build();
        List<Completion> out = new ArrayList<>();
        int prompt = 0;
        int completion = 0;
        boolean exact = true;
        String served = request.model() != null ? request.model() : defaultModel;
        for (int i = 0; i < request.n(); i++) {
            ChatResponse r = chatWithin(chat, timeout);
            String text = r.aiMessage() == null || r.aiMessage().text() == null ? "" : r.aiMessage().text();
            TokenUsage u = r.tokenUsage();
            dev.veracity.llm.TokenUsage usage = u == null || u.inputTokenCount() == null
                    ? new dev.veracity.llm.TokenUsage(Math.max(1, request.promptText().length() / 4), (text.length() + 3) / 4, false)
                    : dev.veracity.llm.TokenUsage.of(u.inputTokenCount(), u.outputTokenCount() == null ? 0 : u.outputTokenCount());
            prompt += usage.promptTokens();
            completion += usage.completionTokens();
            exact &= usage.exact();
            out.add(Completion.of(request.firstSampleIndex() + i, text, finishReason(r.finishReason()), usage));
            if (r.modelName() != null) {
                served = r.modelName();
            }
        }
        return new LlmResponse(served, out, new dev.veracity.llm.TokenUsage(prompt, completion, exact));
    }

    private ChatResponse chatWithin(ChatRequest chat, Duration timeout) {
        Future<ChatResponse> f = calls.submit(() -> model.chat(chat));
        try {
            return f.get(timeout.toNanos(), java.util.concurrent.TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            f.cancel(true);
            throw new LlmException(ErrorKind.TIMEOUT, "no answer from " + id + " within " + timeout.toMillis() + " ms", e);
        } catch (InterruptedException e) {
            f.cancel(true);
            Thread.currentThread().interrupt();
            throw new LlmException(ErrorKind.CANCELLED, "interrupted while waiting for " + id, e);
        } catch (ExecutionException e) {
            throw translate(e.getCause());
        }
    }

    /** Maps LangChain4j's exception types onto ours, so that retries see the same kinds as for other backends. */
    LlmException translate(Throwable t) {
        String msg = id + ": " + t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
        ErrorKind kind;
        Integer status = null;
        if (t instanceof RateLimitException) {
            kind = ErrorKind.RATE_LIMITED;
        } else if (t instanceof TimeoutException) {
            kind = ErrorKind.TIMEOUT;
        } else if (t instanceof AuthenticationException) {
            kind = ErrorKind.AUTHENTICATION;
        } else if (t instanceof InvalidRequestException || t instanceof ModelNotFoundException
                || t instanceof ContentFilteredException) {
            kind = ErrorKind.BAD_REQUEST;
        } else if (t instanceof UnsupportedFeatureException) {
            kind = ErrorKind.UNSUPPORTED;
        } else if (t instanceof InternalServerException) {
            kind = ErrorKind.SERVER_ERROR;
        } else if (httpCause(t) != null) {
            status = httpCause(t).statusCode();
            kind = ErrorKind.forHttpStatus(status);
        } else if (hasCause(t, java.net.http.HttpTimeoutException.class) || hasCause(t, java.net.SocketTimeoutException.class)) {
            kind = ErrorKind.TIMEOUT;
        } else if (hasCause(t, IOException.class)) {
            kind = ErrorKind.CONNECTION;
        } else if (hasCause(t, com.fasterxml.jackson.core.JsonProcessingException.class)
                || t instanceof dev.langchain4j.exception.JsonException) {
            kind = ErrorKind.MALFORMED_RESPONSE;
        } else {
            kind = ErrorKind.INTERNAL;
        }
        return new LlmException(kind, msg, status, null, t);
    }

    private static HttpException httpCause(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof HttpException h) {
                return h;
            }
        }
        return null;
    }

    private static boolean hasCause(Throwable t, Class<? extends Throwable> type) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (type.isInstance(c)) {
                return true;
            }
        }
        return false;
    }

    private static List<dev.langchain4j.data.message.ChatMessage> messages(LlmRequest r) {
        List<dev.langchain4j.data.message.ChatMessage> out = new ArrayList<>();
        for (ChatMessage m : r.messages()) {
            out.add(switch (m.role()) {
                case SYSTEM -> SystemMessage.from(m.content());
                case USER -> UserMessage.from(m.content());
                case ASSISTANT -> AiMessage.from(m.content());
            });
        }
        return out;
    }

    private static ChatRequestParameters parameters(LlmRequest r) {
        DefaultChatRequestParameters.Builder<?> p = DefaultChatRequestParameters.builder();
        if (r.model() != null) {
            p.modelName(r.model());
        }
        p.temperature(r.temperature());
        p.topP(r.topP());
        p.topK(r.topK());
        p.maxOutputTokens(r.maxTokens());
        if (!r.stop().isEmpty()) {
            p.stopSequences(r.stop());
        }
        return p.build();
    }

    private static FinishReason finishReason(dev.langchain4j.model.output.FinishReason r) {
        if (r == null) {
            return FinishReason.UNKNOWN;
        }
        return switch (r) {
            case STOP -> FinishReason.STOP;
            case LENGTH -> FinishReason.LENGTH;
            case CONTENT_FILTER -> FinishReason.CONTENT_FILTER;
            case TOOL_EXECUTION -> FinishReason.TOOL_CALLS;
            default -> FinishReason.UNKNOWN;
        };
    }

    @Override
    public void close() {
        calls.shutdownNow();
    }
}
