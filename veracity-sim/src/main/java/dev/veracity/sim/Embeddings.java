package dev.veracity.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

/**
 * {@code POST /v1/embeddings}: deterministic vectors shaped like OpenAI's answer (also vLLM's, TEI's and Ollama's
 * OpenAI-compatible routes), so embedding clients and dense indexing can be tested on loopback. A text's vector is a
 * hashed bag of its lower-cased words (each word adds +1 or -1 to one of {@code dimensions} coordinates, both chosen
 * by a hash of the word), L2-normalised: texts that share words are near, as with a real model, and the same text
 * always gets the same vector. {@code encoding_format} {@code float} (default) or {@code base64} (little-endian
 * float32, as OpenAI sends it); {@code dimensions} defaults to {@value #DIMENSIONS}.
 */
final class Embeddings {

    static final int DIMENSIONS = 384;

    private Embeddings() {
    }

    static byte[] respond(JsonNode body, SimConfig config) {
        JsonNode input = body.get("input");
        List<String> texts = new ArrayList<>();
        if (input != null && input.isTextual()) {
            texts.add(input.textValue());
        } else if (input != null && input.isArray() && !input.isEmpty()) {
            for (JsonNode t : input) {
                if (!t.isTextual()) {
                    throw ApiError.invalid("'input' must be a string or an array of strings (token arrays are not"
                            + " simulated).", "input", "invalid_type");
                }
                texts.add(t.textValue());
            }
        } else {
            throw input == null ? ApiError.missing("input")
                    : ApiError.invalid("'input' must be a non-empty string or array of strings.", "input", "invalid_type");
        }
        String model = body.path("model").asText(config.defaultModel());
        String format = body.path("encoding_format").asText("float");
        if (!format.equals("float") && !format.equals("base64")) {
            throw ApiError.invalid("'encoding_format' must be 'float' or 'base64'.", "encoding_format", "invalid_value");
        }
        int dimensions = body.path("dimensions").asInt(DIMENSIONS);
        if (dimensions < 1 || dimensions > 8192) {
            throw ApiError.invalid("'dimensions' must be between 1 and 8192.", "dimensions", "invalid_value");
        }
        if (!config.anyModel() && !config.models().contains(model)) {
            throw ApiError.modelNotFound(model);
        }
        ObjectNode out = Json.MAPPER.createObjectNode().put("object", "list");
        ArrayNode data = out.putArray("data");
        int tokens = 0;
        for (int i = 0; i < texts.size(); i++) {
            float[] v = vector(texts.get(i), dimensions);
            ObjectNode e = data.addObject().put("object", "embedding").put("index", i);
            if (format.equals("base64")) {
                ByteBuffer b = ByteBuffer.allocate(4 * v.length).order(ByteOrder.LITTLE_ENDIAN);
                b.asFloatBuffer().put(v);
                e.put("embedding", Base64.getEncoder().encodeToString(b.array()));
            } else {
                ArrayNode a = e.putArray("embedding");
                for (float x : v) {
                    a.add(x);
                }
            }
            tokens += Tokenizer.count(texts.get(i));
        }
        out.put("model", model);
        out.putObject("usage").put("prompt_tokens", tokens).put("total_tokens", tokens);
        try {
            return Json.MAPPER.writeValueAsBytes(out);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e); // cannot happen for a tree of plain nodes
        }
    }

    /** The hashed bag of words of the text, L2-normalised; the first axis for a text without words. */
    static float[] vector(String text, int dimensions) {
        float[] v = new float[dimensions];
        for (String w : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
            if (!w.isEmpty()) {
                long h = Mix.mix(w.hashCode());
                v[Mix.index(h, dimensions)] += (h >>> 63) == 0 ? 1 : -1;
            }
        }
        double norm = 0;
        for (float x : v) {
            norm += x * x;
        }
        if (norm == 0) {
            v[0] = 1;
            return v;
        }
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) (v[i] / Math.sqrt(norm));
        }
        return v;
    }
}
