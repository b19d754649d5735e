package dev.veracity.llm.openai;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.concurrent.JsonBuffers;
import dev.veracity.llm.ChatMessage;
import dev.veracity.llm.LlmRequest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;

/**
 * The request bodies of {@code POST /chat/completions} and {@code POST /completions}, as openai-java writes them for
 * the same settings (a test compares the two): unset settings are not sent, {@code n} only above 1, {@code max_tokens}
 * rather than {@code max_completion_tokens} (every compatible server understands the older name), stop sequences as a
 * list. Vendor extras ({@code top_k}, {@code min_p}, ...) follow as body fields; an extra named like a standard field
 * replaces it (sent once, the caller's value), so a request never carries a key twice.
 */
final class WireRequests {

    private static final ObjectMapper JSON = JsonBuffers.mapper();

    private WireRequests() {
    }

    /**
     * A chat request. {@code logprobs} asks for the chosen tokens' logprobs (and {@code r.logprobs()} alternatives when
     * above 0); {@code tokenIds} adds vLLM's {@code return_token_ids} (vLLM &gt;= 0.10.2).
     */
    static byte[] chat(LlmRequest r, String model, boolean logprobs, boolean tokenIds) {
        Map<String, Object> extras = extras(r);
        return write(g -> {
            field(g, extras, "model", model);
            g.writeArrayFieldStart("messages");
            for (ChatMessage m : r.messages()) {
                g.writeStartObject();
                g.writeStringField("role", m.role().wireName());
                g.writeStringField("content", m.content());
                g.writeEndObject();
            }
            g.writeEndArray();
            sampling(g, r, extras);
            if (logprobs) {
                field(g, extras, "logprobs", true);
                if (r.logprobs() != null && r.logprobs() > 0) {
                    field(g, extras, "top_logprobs", r.logprobs());
                }
            }
            if (tokenIds) {
                field(g, extras, "return_token_ids", true);
            }
            for (Map.Entry<String, Object> e : extras.entrySet()) {
                g.writeFieldName(e.getKey());
                g.writeObject(e.getValue());
            }
        });
    }

    /** A raw-prompt (completions) request; {@code logprobs} is the count of alternatives, as that endpoint takes it. */
    static byte[] completion(LlmRequest r, String model) {
        Map<String, Object> extras = extras(r);
        return write(g -> {
            field(g, extras, "model", model);
            field(g, extras, "prompt", r.prompt());
            sampling(g, r, extras);
            if (r.logprobs() != null) {
                field(g, extras, "logprobs", r.logprobs());
            }
            for (Map.Entry<String, Object> e : extras.entrySet()) {
                g.writeFieldName(e.getKey());
                g.writeObject(e.getValue());
            }
        });
    }

    /** An embeddings request: the texts as a list, vectors asked for as floats (base64 is not universal). */
    static byte[] embeddings(String model, java.util.List<String> texts) {
        return write(g -> {
            g.writeStringField("model", model);
            g.writeArrayFieldStart("input");
            for (String t : texts) {
                g.writeString(t);
            }
            g.writeEndArray();
            g.writeStringField("encoding_format", "float");
        });
    }

    /** The sampling fields both endpoints share. */
    private static void sampling(JsonGenerator g, LlmRequest r, Map<String, Object> extras) throws IOException {
        if (r.n() > 1) {
            field(g, extras, "n", r.n());
        }
        if (r.temperature() != null) {
            field(g, extras, "temperature", r.temperature());
        }
        if (r.topP() != null) {
            field(g, extras, "top_p", r.topP());
        }
        if (r.maxTokens() != null) {
            field(g, extras, "max_tokens", r.maxTokens());
        }
        if (r.seed() != null) {
            field(g, extras, "seed", r.seed());
        }
        if (!r.stop().isEmpty()) {
            if (!extras.containsKey("stop")) {
                g.writeArrayFieldStart("stop");
                for (String s : r.stop()) {
                    g.writeString(s);
                }
                g.writeEndArray();
            }
        }
    }

    /** A standard field, unless an extra of the same name replaces it. */
    private static void field(JsonGenerator g, Map<String, Object> extras, String name, Object value) throws IOException {
        if (!extras.containsKey(name)) {
            g.writeFieldName(name);
            g.writeObject(value);
        }
    }

    /** {@code top_k} (not an OpenAI field, but vLLM's, SGLang's and llama.cpp's) and the request's extras, by name. */
    private static Map<String, Object> extras(LlmRequest r) {
        if (r.topK() == null && r.extras().isEmpty()) {
            return Map.of();
        }
        Map<String, Object> out = new TreeMap<>();
        if (r.topK() != null) {
            out.put("top_k", r.topK());
        }
        out.putAll(r.extras());
        return out;
    }

    private interface Body {
        void write(JsonGenerator g) throws IOException;
    }

    private static byte[] write(Body body) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(512);
        try (JsonGenerator g = JSON.createGenerator(bytes)) {
            g.writeStartObject();
            body.write(g);
            g.writeEndObject();
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            // writing to memory fails only on a value Jackson cannot serialise (an extra of an odd type)
            throw new IllegalArgumentException("a request extra cannot be sent as JSON: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e); // a ByteArrayOutputStream does not fail
        }
        return bytes.toByteArray();
    }
}
