package dev.veracity.server;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.trace.CallStats;
import java.util.ArrayList;
import java.util.List;

/**
 * A method's answer in OpenAI's shapes: a {@code chat.completion}, or the {@code chat.completion.chunk}s of a stream
 * (the role, the answer's pieces, the finish with {@code veracity}, the usage when asked). Every field the official
 * clients read is present, null where OpenAI sends null. {@code usage} counts every upstream token of the pipeline
 * (a call answered from the response cache cost none).
 */
final class CompletionJson {

    static final String FINGERPRINT = "veracity-0.1.0";

    private final String id;
    private final long created;
    private final String model;

    /**
     * @param id      the completion's id (also the request's: its calls are traced under it)
     * @param created epoch seconds
     * @param model   the model as the client named it
     */
    CompletionJson(String id, long created, String model) {
        this.id = id;
        this.created = created;
        this.model = model;
    }

    ObjectNode completion(String content, CallStats stats, ObjectNode veracity) {
        ObjectNode c = head("chat.completion");
        ObjectNode choice = c.putArray("choices").addObject();
        choice.put("index", 0);
        ObjectNode message = choice.putObject("message");
        message.put("role", "assistant");
        message.put("content", content);
        message.putNull("refusal");
        message.putArray("annotations");
        choice.putNull("logprobs");
        choice.put("finish_reason", "stop");
        c.set("usage", usage(stats));
        c.set("veracity", veracity);
        return c;
    }

    /** The first chunk: the assistant's role, empty content. */
    ObjectNode roleChunk(boolean withUsage) {
        ObjectNode delta = JsonNodeFactory.instance.objectNode();
        delta.put("role", "assistant");
        delta.put("content", "");
        delta.putNull("refusal");
        return chunk(delta, null, withUsage);
    }

    ObjectNode contentChunk(String piece, boolean withUsage) {
        ObjectNode delta = JsonNodeFactory.instance.objectNode();
        delta.put("content", piece);
        return chunk(delta, null, withUsage);
    }

    /** The last chunk of the choice: empty delta, {@code finish_reason: stop}, and the {@code veracity} field. */
    ObjectNode finishChunk(ObjectNode veracity, boolean withUsage) {
        ObjectNode c = chunk(JsonNodeFactory.instance.objectNode(), "stop", withUsage);
        c.set("veracity", veracity);
        return c;
    }

    /** The chunk of {@code stream_options.include_usage}: no choices, the usage. */
    ObjectNode usageChunk(CallStats stats) {
        ObjectNode c = head("chat.completion.chunk");
        c.putArray("choices");
        c.set("usage", usage(stats));
        return c;
    }

    private ObjectNode chunk(ObjectNode delta, String finishReason, boolean withUsage) {
        ObjectNode c = head("chat.completion.chunk");
        ObjectNode choice = c.putArray("choices").addObject();
        choice.put("index", 0);
        choice.set("delta", delta);
        choice.putNull("logprobs");
        if (finishReason == null) {
            choice.putNull("finish_reason");
        } else {
            choice.put("finish_reason", finishReason);
        }
        if (withUsage) {
            c.putNull("usage"); // as OpenAI: every chunk but the last has "usage": null when usage was asked for
        }
        return c;
    }

    private ObjectNode head(String object) {
        ObjectNode c = JsonNodeFactory.instance.objectNode();
        c.put("id", id);
        c.put("object", object);
        c.put("created", created);
        c.put("model", model);
        c.put("system_fingerprint", FINGERPRINT);
        return c;
    }

    static ObjectNode usage(CallStats stats) {
        ObjectNode u = JsonNodeFactory.instance.objectNode();
        u.put("prompt_tokens", stats.promptTokens());
        u.put("completion_tokens", stats.completionTokens());
        u.put("total_tokens", stats.totalTokens());
        return u;
    }

    /**
     * The answer in stream pieces, a word each with the whitespace before the next word: they add up to exactly the
     * answer ("Paris is" -> "Paris ", "is"); none for an empty answer.
     */
    static List<String> pieces(String answer) {
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int i = 1; i < answer.length(); i++) {
            if (Character.isWhitespace(answer.charAt(i - 1)) && !Character.isWhitespace(answer.charAt(i))) {
                out.add(answer.substring(start, i));
                start = i;
            }
        }
        if (start < answer.length()) {
            out.add(answer.substring(start));
        }
        return out;
    }
}
