package dev.veracity.llm.openai;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.concurrent.JsonBuffers;
import dev.veracity.llm.FinishReason;
import dev.veracity.llm.TokenIds;
import dev.veracity.llm.TokenLogprob;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the answers of {@code /chat/completions} and {@code /completions}: total over any bytes, each giving an
 * {@link Answer} or a {@link Malformed} that says what is wrong (never another exception, never a silent guess).
 * Jackson's read constraints bound nesting and value sizes, so a hostile answer cannot hang or exhaust the reader.
 *
 * <p>Read as openai-java reads them (a test compares the two on a corpus of servers' answers): {@code choices} must
 * be a list; a missing message or a {@code null} content is empty text; a missing {@code model} is the model asked
 * for; no {@code usage} block means an estimate. Where the SDK would fail on a shape real servers send, this reader
 * accepts it and says so here: content as a list of text parts (joined), top logprobs left out, a {@code null}
 * logprob (read as minus infinity).
 */
final class WireResponses {

    private static final ObjectMapper JSON = JsonBuffers.mapper();

    private WireResponses() {
    }

    /** A parsed answer: its choices in the server's order. */
    record Answer(String model, String id, List<Choice> choices, Optional<Usage> usage) {

        List<String> texts() {
            return choices.stream().map(Choice::text).toList();
        }

        List<FinishReason> reasons() {
            return choices.stream().map(Choice::reason).toList();
        }

        List<Optional<List<TokenLogprob>>> logprobs() {
            return choices.stream().map(Choice::logprobs).toList();
        }

        List<Optional<TokenIds>> tokenIds() {
            return choices.stream().map(Choice::tokenIds).toList();
        }
    }

    /** One choice: its text, why it ended, and its logprobs and token ids when asked for and sent. */
    record Choice(String text, FinishReason reason, Optional<List<TokenLogprob>> logprobs, Optional<TokenIds> tokenIds) {
    }

    /** The server's token counts. */
    record Usage(int prompt, int completion) {
    }

    /** An answer that is not the protocol's: not JSON ({@code unreadable}) or the wrong shape. */
    static final class Malformed extends Exception {
        private final boolean unreadable;

        Malformed(String message, boolean unreadable) {
            super(message, null, false, false);
            this.unreadable = unreadable;
        }

        boolean unreadable() {
            return unreadable;
        }
    }

    /**
     * A chat completion. {@code logprobs}: read each choice's {@code logprobs.content}; {@code tokenIds}: read vLLM's
     * {@code prompt_token_ids} and each choice's {@code token_ids} (anything but lists of non-negative integers is
     * none: a server that ignores the flag costs the record its ids, not the call).
     */
    static Answer chat(byte[] body, boolean logprobs, boolean tokenIds) throws Malformed {
        JsonNode root = root(body);
        Optional<List<Integer>> promptIds = tokenIds ? ids(root.get("prompt_token_ids")) : Optional.empty();
        return answer(root, c -> new Choice(content(c.get("message")), finishReason(c),
                logprobs ? chatLogprobs(c.get("logprobs")) : Optional.empty(),
                promptIds.flatMap(prompt -> ids(c.get("token_ids")).map(response -> new TokenIds(prompt, response)))));
    }

    /** A completion (raw prompt); {@code logprobs}: read each choice's token logprobs and alternatives. */
    static Answer completion(byte[] body, boolean logprobs) throws Malformed {
        return answer(root(body), c -> {
            JsonNode t = c.get("text");
            return new Choice(t == null || t.isNull() ? "" : string(t, "a choice's text"), finishReason(c),
                    logprobs ? textLogprobs(c.get("logprobs")) : Optional.empty(), Optional.empty());
        });
    }

    /** Reads one choice object of an endpoint's answer. */
    private interface ChoiceReader {
        Choice read(JsonNode choice) throws Malformed;
    }

    /** What both endpoints share: the choices, each an object, then the answer's model, id and usage. */
    private static Answer answer(JsonNode root, ChoiceReader reader) throws Malformed {
        List<Choice> choices = new ArrayList<>();
        for (JsonNode c : choices(root)) {
            object(c, "a choice");
            choices.add(reader.read(c));
        }
        return new Answer(text(root.get("model")), text(root.get("id")), choices, usage(root));
    }

    /** One vector of an embeddings answer, at the place {@code index} says. */
    record Vector(int index, float[] values) {
    }

    /** An embeddings answer: {@code {"data": [{"index": i, "embedding": [floats]}]}}, in the server's order. */
    static List<Vector> embeddings(byte[] body) throws Malformed {
        JsonNode root = root(body);
        JsonNode data = root.get("data");
        if (data == null || !data.isArray()) {
            throw new Malformed(data == null ? "no 'data'" : "'data' is not a list", false);
        }
        List<Vector> out = new ArrayList<>(data.size());
        for (JsonNode d : data) {
            object(d, "an embedding");
            JsonNode index = d.get("index");
            JsonNode embedding = d.get("embedding");
            if (index == null || !index.canConvertToInt() || !index.isIntegralNumber()) {
                throw new Malformed("an embedding without a whole 'index'", false);
            }
            if (embedding == null || !embedding.isArray()) {
                throw new Malformed("an embedding whose 'embedding' is not a list of numbers (base64?)", false);
            }
            float[] values = new float[embedding.size()];
            for (int i = 0; i < values.length; i++) {
                JsonNode v = embedding.get(i);
                if (!v.isNumber()) {
                    throw new Malformed("an embedding value that is not a number: " + preview(v), false);
                }
                values[i] = v.floatValue();
            }
            out.add(new Vector(index.intValue(), values));
        }
        return out;
    }

    private static JsonNode root(byte[] body) throws Malformed {
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (JacksonException e) {
            throw new Malformed(e.getOriginalMessage().strip().lines().findFirst().orElse("not JSON"), true);
        } catch (IOException e) {
            throw new Malformed(e.getMessage(), true);
        }
        if (root == null || root.isMissingNode()) {
            throw new Malformed("an empty body", true);
        }
        if (!root.isObject()) {
            throw new Malformed("a JSON " + root.getNodeType().name().toLowerCase(java.util.Locale.ROOT)
                    + ", not an object", false);
        }
        return root;
    }

    private static JsonNode choices(JsonNode root) throws Malformed {
        JsonNode choices = root.get("choices");
        if (choices == null || !choices.isArray()) {
            JsonNode error = root.get("error");
            if (error != null && !error.isNull()) {
                // a gateway's error sent with status 200
                throw new Malformed("an error instead of choices: " + JsonPost.serverMessage(root), false);
            }
            throw new Malformed(choices == null ? "no 'choices'" : "'choices' is not a list", false);
        }
        return choices;
    }

    /** A message's text: a string, {@code null} or absent (empty), or a list of text parts (joined). */
    private static String content(JsonNode message) throws Malformed {
        if (message == null || !message.isObject()) {
            return ""; // as the SDK reads it: no message (or not an object) is no text, which the client retries
        }
        JsonNode content = message.get("content");
        if (content == null || content.isNull()) {
            return "";
        }
        if (content.isArray()) {
            StringBuilder out = new StringBuilder();
            for (JsonNode part : content) {
                JsonNode text = part.isObject() ? part.get("text") : part;
                if (text != null && text.isTextual()) {
                    out.append(text.asText());
                }
            }
            return out.toString();
        }
        return string(content, "a message's content");
    }

    private static FinishReason finishReason(JsonNode choice) throws Malformed {
        JsonNode f = choice.get("finish_reason");
        return FinishReason.fromWire(f == null || f.isNull() ? null : string(f, "a finish_reason"));
    }

    /** Chat logprobs: {@code {"content": [{"token", "logprob", "top_logprobs": [{"token", "logprob"}]}]}}. */
    private static Optional<List<TokenLogprob>> chatLogprobs(JsonNode logprobs) throws Malformed {
        if (logprobs == null || logprobs.isNull()) {
            return Optional.empty();
        }
        object(logprobs, "a choice's logprobs");
        JsonNode content = logprobs.get("content");
        if (content == null || content.isNull()) {
            return Optional.empty();
        }
        list(content, "logprobs.content");
        List<TokenLogprob> out = new ArrayList<>(content.size());
        for (JsonNode t : content) {
            object(t, "a token's logprob");
            List<TokenLogprob.Alternative> top = new ArrayList<>();
            JsonNode alternatives = t.get("top_logprobs");
            if (alternatives != null && !alternatives.isNull()) {
                list(alternatives, "top_logprobs");
                for (JsonNode a : alternatives) {
                    object(a, "a top logprob");
                    top.add(new TokenLogprob.Alternative(string(a.get("token"), "a top logprob's token"),
                            logprob(a.get("logprob"))));
                }
            }
            out.add(new TokenLogprob(string(t.get("token"), "a token"), logprob(t.get("logprob")), top));
        }
        return Optional.of(out);
    }

    /** Completions logprobs: parallel lists {@code tokens}, {@code token_logprobs}, {@code top_logprobs} (maps). */
    private static Optional<List<TokenLogprob>> textLogprobs(JsonNode logprobs) throws Malformed {
        if (logprobs == null || logprobs.isNull()) {
            return Optional.empty();
        }
        object(logprobs, "a choice's logprobs");
        JsonNode tokens = logprobs.path("tokens");
        JsonNode values = logprobs.path("token_logprobs");
        JsonNode tops = logprobs.path("top_logprobs");
        List<TokenLogprob> out = new ArrayList<>();
        if (!tokens.isArray()) {
            return Optional.of(out);
        }
        for (int i = 0; i < tokens.size(); i++) {
            List<TokenLogprob.Alternative> alternatives = new ArrayList<>();
            JsonNode top = tops.path(i);
            if (top.isObject()) {
                for (Map.Entry<String, JsonNode> a : top.properties()) {
                    if (a.getValue().isNumber()) {
                        alternatives.add(new TokenLogprob.Alternative(a.getKey(), a.getValue().doubleValue()));
                    }
                }
            }
            out.add(new TokenLogprob(string(tokens.get(i), "a token"), logprob(values.get(i)), alternatives));
        }
        return Optional.of(out);
    }

    /** A logprob: a number, or {@code null} / absent (minus infinity: the engine did not say). */
    private static double logprob(JsonNode v) throws Malformed {
        if (v == null || v.isNull()) {
            return Double.NEGATIVE_INFINITY;
        }
        if (!v.isNumber()) {
            throw new Malformed("a logprob that is not a number: " + preview(v), false);
        }
        return v.doubleValue();
    }

    private static Optional<Usage> usage(JsonNode root) throws Malformed {
        JsonNode u = root.get("usage");
        if (u == null || u.isNull()) {
            return Optional.empty();
        }
        object(u, "'usage'");
        JsonNode prompt = u.get("prompt_tokens");
        JsonNode completion = u.get("completion_tokens");
        if (!count(prompt) || !count(completion)) {
            throw new Malformed("'usage' without whole, non-negative prompt_tokens and completion_tokens: "
                    + preview(u), false);
        }
        return Optional.of(new Usage(prompt.intValue(), completion.intValue()));
    }

    private static boolean count(JsonNode v) {
        return v != null && v.isIntegralNumber() && v.canConvertToInt() && v.intValue() >= 0;
    }

    /**
     * Token ids as vLLM sends them: a list of non-negative integers; anything else (absent, null, a server's own
     * shape) is none.
     */
    static Optional<List<Integer>> ids(JsonNode a) {
        if (a == null || !a.isArray()) {
            return Optional.empty();
        }
        List<Integer> out = new ArrayList<>(a.size());
        for (JsonNode e : a) {
            if (!e.isIntegralNumber() || !e.canConvertToInt() || e.intValue() < 0) {
                return Optional.empty();
            }
            out.add(e.intValue());
        }
        return Optional.of(out);
    }

    /** An optional string field: its text, or null when absent, null or not a string. */
    private static String text(JsonNode v) {
        return v != null && v.isTextual() ? v.asText() : null;
    }

    private static String string(JsonNode v, String what) throws Malformed {
        if (v == null || !v.isTextual()) {
            throw new Malformed(what + " is " + (v == null ? "missing" : "not a string: " + preview(v)), false);
        }
        return v.asText();
    }

    private static void object(JsonNode v, String what) throws Malformed {
        if (!v.isObject()) {
            throw new Malformed(what + " is not an object: " + preview(v), false);
        }
    }

    private static void list(JsonNode v, String what) throws Malformed {
        if (!v.isArray()) {
            throw new Malformed(what + " is not a list: " + preview(v), false);
        }
    }

    private static String preview(JsonNode v) {
        String s = v.toString();
        return s.length() > 80 ? s.substring(0, 80) + "..." : s;
    }
}
