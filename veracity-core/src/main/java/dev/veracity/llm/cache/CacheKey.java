package dev.veracity.llm.cache;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.llm.ChatMessage;
import dev.veracity.llm.LlmRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The cache key of one sample: a SHA-256 over a canonical JSON of everything that shapes the output — backend,
 * model, messages or prompt, every sampling setting, the seed, the extras, and the sample index. The number of
 * samples n is deliberately left out: sample 3 is the same sample whether it was asked for alone or with others.
 */
public final class CacheKey {

    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);

    private CacheKey() {
    }

    /** The canonical JSON the key hashes (exposed for debugging and tests). */
    public static String canonical(String backendId, String model, LlmRequest r, int sampleIndex) {
        ObjectNode o = JSON.createObjectNode();
        o.put("v", 1);
        o.put("backend", backendId);
        o.put("model", model);
        if (r.isChat()) {
            for (ChatMessage m : r.messages()) {
                o.withArray("messages").addObject().put("role", m.role().wireName()).put("content", m.content());
            }
        } else {
            o.put("prompt", r.prompt());
        }
        putIfSet(o, "temperature", r.temperature());
        putIfSet(o, "top_p", r.topP());
        putIfSet(o, "top_k", r.topK());
        putIfSet(o, "max_tokens", r.maxTokens());
        putIfSet(o, "seed", r.seed());
        putIfSet(o, "logprobs", r.logprobs());
        r.stop().forEach(s -> o.withArray("stop").add(s));
        if (!r.extras().isEmpty()) {
            o.set("extras", JSON.valueToTree(r.extras()));
        }
        o.put("sample", sampleIndex);
        try {
            return JSON.writeValueAsString(o);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("request extras cannot be written as JSON: " + e.getMessage(), e);
        }
    }

    /** The key of one sample. */
    public static String of(String backendId, String model, LlmRequest request, int sampleIndex) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            byte[] hash = sha.digest(canonical(backendId, model, request, sampleIndex).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    private static void putIfSet(ObjectNode o, String name, Object value) {
        if (value != null) {
            o.set(name, JSON.valueToTree(value));
        }
    }
}
