package dev.veracity.llm.openai;

import com.openai.client.OpenAIClient;
import com.openai.client.OpenAIClientImpl;
import com.openai.core.ClientOptions;
import com.openai.core.JsonValue;
import com.openai.core.RequestOptions;
import com.openai.core.http.Headers;
import com.openai.core.http.HttpClient;
import com.openai.core.http.HttpRequest;
import com.openai.core.http.HttpResponse;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.completions.CompletionCreateParams;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;

/**
 * One chat completion and one completion through the SDK against canned responses, with no network: the SDK's
 * first call spends most of a second in class loading and Kotlin reflection (jackson-module-kotlin building its
 * model of the response classes). Done on a background thread while a command reads its data and opens its
 * stores, that cost leaves the first real call, where every concurrent question would wait for it.
 */
final class SdkWarmUp {

    private static final String CHAT = """
            {"id":"warm-up","object":"chat.completion","created":0,"model":"warm-up","choices":[{"index":0,\
            "message":{"role":"assistant","content":"ok"},"logprobs":null,"finish_reason":"stop"}],\
            "usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}""";
    private static final String COMPLETION = """
            {"id":"warm-up","object":"text_completion","created":0,"model":"warm-up","choices":[{"index":0,\
            "text":"ok","logprobs":null,"finish_reason":"stop"}],\
            "usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}""";

    private SdkWarmUp() {
    }

    static void run() {
        try {
            OpenAIClient client = new OpenAIClientImpl(ClientOptions.builder().httpClient(new Canned())
                    .baseUrl("http://warm-up.invalid/v1").apiKey("warm-up").maxRetries(0).build());
            ChatCompletion chat = client.chat().completions().create(ChatCompletionCreateParams.builder()
                    .model("warm-up").addSystemMessage("s").addUserMessage("u").n(1).temperature(0.0).maxTokens(1)
                    .stop(ChatCompletionCreateParams.Stop.ofStrings(java.util.List.of("\n")))
                    .putAdditionalBodyProperty("top_k", JsonValue.from(1)).build());
            chat.choices().forEach(c -> c._message().asKnown().flatMap(m -> m.content()));
            client.completions().create(CompletionCreateParams.builder().model("warm-up").prompt("p").maxTokens(1)
                    .build()).choices().forEach(c -> c.text());
        } catch (RuntimeException | LinkageError e) {
            // a warm-up that fails only costs its time: the first real call pays as before and reports its own errors
        }
    }

    /** Answers every request with the canned body of its endpoint. */
    private static final class Canned implements HttpClient {
        @Override
        public HttpResponse execute(HttpRequest request, RequestOptions options) {
            String body = request.pathSegments().contains("chat") ? CHAT : COMPLETION;
            return new HttpResponse() {
                @Override
                public int statusCode() {
                    return 200;
                }

                @Override
                public Headers headers() {
                    return Headers.builder().put("content-type", "application/json").build();
                }

                @Override
                public InputStream body() {
                    return new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8));
                }

                @Override
                public void close() {
                }
            };
        }

        @Override
        public CompletableFuture<HttpResponse> executeAsync(HttpRequest request, RequestOptions options) {
            return CompletableFuture.completedFuture(execute(request, options));
        }

        @Override
        public void close() {
        }
    }
}
