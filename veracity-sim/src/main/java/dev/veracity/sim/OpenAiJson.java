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
        }, (g, c) -> chatLogprobs(g, Tokenizer.tokens(c.text()), 0, c.logprobHash(), req.topLogprobs()));
    }

    static byte[] completion(String id, long created, GenerationRequest req, Generator.Generation gen) {
        return response(id, created, "text_completion", req, gen, (g, c) -> g.writeStringField("text", c.text()),
                (g, c) -> completionLogprobs(g, Tokenizer.tokens(c.text()), 0, c.logprobHash(), req.topLogprobs(),
                        c.promptLength())); // as OpenAI: text offsets into prompt + completion
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
                if (req.returnTokenIds()) { // vLLM's ChatCompletionResponseChoice.token_ids
                    ids(g, "token_ids", c.text());
                }
                g.writeEndObject();
            }
            g.writeEndArray();
            usage(g, gen);
            g.writeStringField("system_fingerprint", FINGERPRINT);
            if (req.returnTokenIds()) { // vLLM's ChatCompletionResponse.prompt_token_ids, top level
                ids(g, "prompt_token_ids", req.prompts().getFirst());
            }
            g.writeEndObject();
        });
    }

    /** The fake token ids of {@code text} ({@link Tokenizer#ids}), one per token of its logprobs. */
    private static void ids(JsonGenerator g, String field, String text) throws IOException {
        g.writeArrayFieldStart(field);
        for (int id : Tokenizer.ids(text)) {
            g.writeNumber(id);
        }
        g.writeEndArray();
    }

    private static void usage(JsonGenerator g, Generator.Generation gen) throws IOException {
        g.writeObjectFieldStart("usage");
        g.writeNumberField("prompt_tokens", gen.promptTokens());
        g.writeNumberField("completion_tokens", gen.completionTokens());
        g.writeNumberField("total_tokens", gen.promptTokens() + gen.completionTokens());
        g.writeEndObject();
    }

    /**
     * {@code {"content":[{"token","logprob","bytes","top_logprobs":[...]}],"refusal":null}} for {@code tokens}, which
     * stand at positions {@code first, first + 1, ...} of their choice (a streamed event carries one).
     */
    private static void chatLogprobs(JsonGenerator g, List<String> tokens, int first, long hash, int top) throws IOException {
        g.writeStartObject();
        g.writeArrayFieldStart("content");
        for (int j = 0; j < tokens.size(); j++) {
            Logprobs lp = new Logprobs(tokens.get(j), Mix.mix(hash, first + j), top);
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

    /**
     * {@code {"tokens":[],"token_logprobs":[],"top_logprobs":[{token: logprob}],"text_offset":[]}} for {@code tokens},
     * which stand at positions {@code first, first + 1, ...} of their choice, the first at text offset {@code offset}.
     */
    private static void completionLogprobs(JsonGenerator g, List<String> tokens, int first, long hash, int top, int offset)
            throws IOException {
        Logprobs[] lps = new Logprobs[tokens.size()];
        for (int j = 0; j < lps.length; j++) {
            lps[j] = new Logprobs(tokens.get(j), Mix.mix(hash, first + j), top);
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

    // --- streamed events: "chat.completion.chunk" / "text_completion" objects carrying one choice each ---

    /** A chat choice's first event: the role, and empty content, as OpenAI sends before the first token. */
    static byte[] roleChunk(String id, long created, GenerationRequest req, int index) {
        return chunk(id, created, req, g -> {
            g.writeNumberField("index", index);
            g.writeObjectFieldStart("delta");
            g.writeStringField("role", "assistant");
            g.writeStringField("content", "");
            g.writeNullField("refusal");
            g.writeEndObject();
            g.writeNullField("logprobs");
            g.writeNullField("finish_reason");
        }, null);
    }

    /**
     * One token's event: {@code piece} is the text it adds (the token, with the trailing whitespace of the text
     * when it is the last), {@code token} the token itself, or {@code null} for whitespace with no token.
     *
     * @param position the token's position in its choice (seeds its logprobs)
     * @param offset   where the piece starts in the choice's text
     */
    static byte[] tokenChunk(String id, long created, GenerationRequest req, Generator.Choice c, String piece,
                             String token, int position, int offset) {
        List<String> tokens = token == null ? List.of() : List.of(token);
        boolean chat = req.endpoint() == Endpoint.CHAT_COMPLETIONS;
        return chunk(id, created, req, g -> {
            g.writeNumberField("index", c.index());
            if (chat) {
                g.writeObjectFieldStart("delta");
                g.writeStringField("content", piece);
                g.writeEndObject();
            } else {
                g.writeStringField("text", piece);
            }
            if (!req.logprobs()) {
                g.writeNullField("logprobs");
            } else if (chat) {
                g.writeFieldName("logprobs");
                chatLogprobs(g, tokens, position, c.logprobHash(), req.topLogprobs());
            } else {
                g.writeFieldName("logprobs");
                completionLogprobs(g, tokens, position, c.logprobHash(), req.topLogprobs(), c.promptLength() + offset);
            }
            g.writeNullField("finish_reason");
        }, null);
    }

    /** A choice's last event: nothing more to add, and why it ended. */
    static byte[] finishChunk(String id, long created, GenerationRequest req, Generator.Choice c) {
        boolean chat = req.endpoint() == Endpoint.CHAT_COMPLETIONS;
        return chunk(id, created, req, g -> {
            g.writeNumberField("index", c.index());
            if (chat) {
                g.writeObjectFieldStart("delta");
                g.writeEndObject();
            } else {
                g.writeStringField("text", "");
            }
            g.writeNullField("logprobs");
            g.writeStringField("finish_reason", c.finishReason());
        }, null);
    }

    /** The event {@code stream_options.include_usage} asks for after the last choice event: no choices, the usage. */
    static byte[] usageChunk(String id, long created, GenerationRequest req, Generator.Generation gen) {
        return chunk(id, created, req, null, gen);
    }

    /** An event's envelope: the same id, created and model in every event; {@code "usage": null} until the last. */
    private static byte[] chunk(String id, long created, GenerationRequest req, Body choice, Generator.Generation usage) {
        return write(g -> {
            g.writeStartObject();
            g.writeStringField("id", id);
            g.writeStringField("object", req.endpoint() == Endpoint.CHAT_COMPLETIONS ? "chat.completion.chunk" : "text_completion");
            g.writeNumberField("created", created);
            g.writeStringField("model", req.model());
            g.writeStringField("system_fingerprint", FINGERPRINT);
            g.writeArrayFieldStart("choices");
            if (choice != null) {
                g.writeStartObject();
                choice.write(g);
                g.writeEndObject();
            }
            g.writeEndArray();
            if (usage != null) {
                usage(g, usage);
            } else if (req.includeUsage()) {
                g.writeNullField("usage");
            }
            g.writeEndObject();
        });
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
