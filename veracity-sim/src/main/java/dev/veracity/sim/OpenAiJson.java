package dev.veracity.sim;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Writes responses in OpenAI's exact shapes, streaming straight to bytes with a {@link JsonGenerator}
 * (no intermediate tree: this is the hot path).
 */
final class OpenAiJson {
    private OpenAiJson() {
    }

    static final String FINGERPRINT = "sim";

    /** Candidates for the alternatives in {@code top_logprobs}: common tokens, none of them special. */
    private static final String[] ALTERNATIVES = {
            " the", " a", " and", " of", ",", ".", " to", " is", " in", " it", " that", " not", " yes", " no",
            "\n", " I", " The", " was", " for", " on", " with", " as", " be", " this", " or"};

    @FunctionalInterface
    private interface Body {
        void write(JsonGenerator g) throws IOException;
    }

    private static byte[] write(Body body) {
        try (ByteArrayBuilder out = new ByteArrayBuilder(512)) {
            try (JsonGenerator g = Json.FACTORY.createGenerator(out)) {
                body.write(g);
            }
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // cannot happen writing to memory
        }
    }

    static byte[] chat(String id, long created, GenerationRequest req, Generator.Generation gen) {
        return response(id, created, "chat.completion", req, gen, (g, c) -> {
            g.writeObjectFieldStart("message");
            g.writeStringField("role", "assistant");
            g.writeStringField("content", c.text());
            g.writeNullField("refusal");
            g.writeEndObject();
        }, (g, c) -> chatLogprobs(g, c, req.topLogprobs()));
    }

    static byte[] completion(String id, long created, GenerationRequest req, Generator.Generation gen) {
        return response(id, created, "text_completion", req, gen, (g, c) -> g.writeStringField("text", c.text()),
                (g, c) -> completionLogprobs(g, c, req.topLogprobs()));
    }

    /** Writes one part of a choice: its text (as a chat message or a completion text) or its logprobs. */
    private interface ChoicePart {
        void write(JsonGenerator g, Generator.Choice c) throws IOException;
    }

    /** The response both endpoints share; only the object name, a choice's text and its logprobs differ. */
    private static byte[] response(String id, long created, String object, GenerationRequest req,
                                   Generator.Generation gen, ChoicePart text, ChoicePart logprobs) {
        return write(g -> {
            g.writeStartObject();
            g.writeStringField("id", id);
            g.writeStringField("object", object);
            g.writeNumberField("created", created);
            g.writeStringField("model", req.model());
            g.writeArrayFieldStart("choices");
            for (Generator.Choice c : gen.choices()) {
                g.writeStartObject();
                g.writeNumberField("index", c.index());
                text.write(g, c);
                if (req.logprobs()) {
                    g.writeFieldName("logprobs");
                    logprobs.write(g, c);
                } else {
                    g.writeNullField("logprobs");
                }
                g.writeStringField("finish_reason", c.finishReason());
                g.writeEndObject();
            }
            g.writeEndArray();
            usage(g, gen);
            g.writeStringField("system_fingerprint", FINGERPRINT);
            g.writeEndObject();
        });
    }

    private static void usage(JsonGenerator g, Generator.Generation gen) throws IOException {
        g.writeObjectFieldStart("usage");
        g.writeNumberField("prompt_tokens", gen.promptTokens());
        g.writeNumberField("completion_tokens", gen.completionTokens());
        g.writeNumberField("total_tokens", gen.promptTokens() + gen.completionTokens());
        g.writeEndObject();
    }

    /** {@code {"content":[{"token","logprob","bytes","top_logprobs":[...]}],"refusal":null}}. */
    private static void chatLogprobs(JsonGenerator g, Generator.Choice c, int top) throws IOException {
        List<String> tokens = Tokenizer.tokens(c.text());
        g.writeStartObject();
        g.writeArrayFieldStart("content");
        for (int j = 0; j < tokens.size(); j++) {
            Logprobs lp = new Logprobs(tokens.get(j), Mix.mix(c.logprobHash(), j), top);
            g.writeStartObject();
            tokenLogprob(g, lp.token(0), lp.logprob(0));
            g.writeArrayFieldStart("top_logprobs");
            for (int k = 0; k < top; k++) {
                g.writeStartObject();
                tokenLogprob(g, lp.token(k), lp.logprob(k));
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeNullField("refusal");
        g.writeEndObject();
    }

    private static void tokenLogprob(JsonGenerator g, String token, double logprob) throws IOException {
        g.writeStringField("token", token);
        g.writeNumberField("logprob", logprob);
        g.writeArrayFieldStart("bytes");
        for (byte b : token.getBytes(StandardCharsets.UTF_8)) {
            g.writeNumber(b & 0xff);
        }
        g.writeEndArray();
    }

    /** {@code {"tokens":[],"token_logprobs":[],"top_logprobs":[{token: logprob}],"text_offset":[]}}. */
    private static void completionLogprobs(JsonGenerator g, Generator.Choice c, int top) throws IOException {
        List<String> tokens = Tokenizer.tokens(c.text());
        Logprobs[] lps = new Logprobs[tokens.size()];
        for (int j = 0; j < lps.length; j++) {
            lps[j] = new Logprobs(tokens.get(j), Mix.mix(c.logprobHash(), j), top);
        }
        g.writeStartObject();
        g.writeArrayFieldStart("tokens");
        for (String t : tokens) {
            g.writeString(t);
        }
        g.writeEndArray();
        g.writeArrayFieldStart("token_logprobs");
        for (Logprobs lp : lps) {
            g.writeNumber(lp.logprob(0));
        }
        g.writeEndArray();
        g.writeArrayFieldStart("top_logprobs");
        for (Logprobs lp : lps) {
            g.writeStartObject();
            for (int k = 0; k < top; k++) {
                g.writeNumberField(lp.token(k), lp.logprob(k));
            }
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeArrayFieldStart("text_offset");
        int offset = c.promptLength(); // as OpenAI: offsets into prompt + completion
        for (String t : tokens) {
            g.writeNumber(offset);
            offset += t.length();
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    /**
     * Deterministic logprobs for one position: the sampled token is the most likely, with a logprob
     * in (-0.7, 0]; the alternatives share what probability is left, halving each time, so the
     * probabilities stay ordered and sum below 1. Entry 0 is the sampled token, so the first
     * {@code top} entries are what {@code top_logprobs} lists.
     */
    private static final class Logprobs {
        private final String[] tokens;
        private final double[] logprobs;

        Logprobs(String token, long hash, int top) {
            int size = Math.max(top, 1);
            tokens = new String[size];
            logprobs = new double[size];
            tokens[0] = token;
            double p0 = Math.exp(-(0.0005 + 0.7 * Mix.unit(hash)));
            logprobs[0] = round(Math.log(p0));
            double rest = 1 - p0;
            int next = Mix.index(Mix.mix(hash), ALTERNATIVES.length);
            for (int k = 1; k < size; k++) {
                if (ALTERNATIVES[next].equals(token)) {
                    next = (next + 1) % ALTERNATIVES.length;
                }
                tokens[k] = ALTERNATIVES[next];
                next = (next + 1) % ALTERNATIVES.length;
                rest /= 2;
                logprobs[k] = round(Math.log(rest));
            }
        }

        String token(int k) {
            return tokens[k];
        }

        double logprob(int k) {
            return logprobs[k];
        }

        private static double round(double x) {
            return Math.round(x * 1e6) / 1e6;
        }
    }

    static byte[] models(List<String> ids, long created) {
        return write(g -> {
            g.writeStartObject();
            g.writeStringField("object", "list");
            g.writeArrayFieldStart("data");
            for (String id : ids) {
                model(g, id, created);
            }
            g.writeEndArray();
            g.writeEndObject();
        });
    }

    static byte[] model(String id, long created) {
        return write(g -> model(g, id, created));
    }

    private static void model(JsonGenerator g, String id, long created) throws IOException {
        g.writeStartObject();
        g.writeStringField("id", id);
        g.writeStringField("object", "model");
        g.writeNumberField("created", created);
        g.writeStringField("owned_by", "veracity-sim");
        g.writeEndObject();
    }

    static byte[] error(ApiError e) {
        return write(g -> {
            g.writeStartObject();
            g.writeObjectFieldStart("error");
            g.writeStringField("message", e.getMessage());
            g.writeStringField("type", e.type);
            g.writeStringField("param", e.param);
            g.writeStringField("code", e.code);
            g.writeEndObject();
            g.writeEndObject();
        });
    }
}
