package dev.veracity.sim;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

/**
 * A validated completions or chat request: just the parameters the simulator acts on. Unknown fields
 * (vendor extras such as {@code top_k}) are accepted and ignored; they stay visible in {@link #body}.
 *
 * @param prompts     the texts rules match: one for chat (the joined messages), one per prompt for
 *                    completions (a list of prompts is a batch: n choices for each)
 * @param maxTokens   {@code max_completion_tokens}, else {@code max_tokens}; -1 when neither is set
 * @param logprobs    whether to return logprobs
 * @param topLogprobs alternatives per token when {@code logprobs}
 * @param greedy      {@code temperature} is 0: every sample answers like sample 0
 * @param stream       answer as server-sent events ({@code stream: true})
 * @param includeUsage {@code stream_options.include_usage}: {@code "usage": null} on every event, then one with the usage
 * @param returnTokenIds vLLM's {@code return_token_ids} (chat, not streamed): the prompt's and each choice's token ids
 */
record GenerationRequest(
        Endpoint endpoint,
        JsonNode body,
        String model,
        List<String> prompts,
        List<ChatMessage> messages,
        int n,
        int maxTokens,
        List<String> stop,
        boolean logprobs,
        int topLogprobs,
        long seed,
        boolean greedy,
        boolean stream,
        boolean includeUsage,
        boolean returnTokenIds) {

    static final int MAX_N = 128;

    static GenerationRequest parse(Endpoint endpoint, JsonNode body, SimConfig config) {
        if (body == null || !body.isObject()) {
            throw ApiError.invalid("We could not parse the JSON body of your request: expected a JSON object.", null);
        }
        boolean stream = booleanParam(body, "stream", "stream");
        boolean includeUsage = includeUsage(body.get("stream_options"), stream);
        refuseUnsimulated(body, "response_format", "structured output (response_format) is not simulated");
        refuseUnsimulated(body, "tools", "tool calls (tools) are not simulated");
        refuseUnsimulated(body, "functions", "function calls (functions) are not simulated");
        String model = config.defaultModel();
        JsonNode modelNode = body.get("model");
        if (modelNode != null && !modelNode.isNull()) {
            if (!modelNode.isTextual()) {
                throw ApiError.invalid("Invalid type for 'model': expected a string.", "model", "invalid_type");
            }
            model = modelNode.textValue();
        }

        List<ChatMessage> messages;
        List<String> prompts;
        if (endpoint == Endpoint.CHAT_COMPLETIONS) {
            messages = messages(body.get("messages"));
            prompts = List.of(joinContents(messages));
        } else {
            messages = List.of();
            prompts = prompts(body.get("prompt"));
        }

        int n = intParam(body, "n", 1, 1, MAX_N);
        if (n > 1 && config.refuseN()) {
            throw ApiError.invalid("Invalid value for 'n': n > 1 is not supported by this server; send one request per sample.", "n");
        }
        int maxTokens = intParam(body, "max_completion_tokens", -1, 1, Integer.MAX_VALUE);
        if (maxTokens < 0) {
            maxTokens = intParam(body, "max_tokens", -1, 1, Integer.MAX_VALUE);
        }
        List<String> stop = stop(body.get("stop"));

        boolean logprobs;
        int top;
        if (endpoint == Endpoint.CHAT_COMPLETIONS) {
            JsonNode lp = body.get("logprobs");
            if (lp != null && !lp.isNull() && !lp.isBoolean()) {
                throw ApiError.invalid("Invalid type for 'logprobs': expected a boolean.", "logprobs", "invalid_type");
            }
            logprobs = lp != null && lp.asBoolean(false);
            top = intParam(body, "top_logprobs", 0, 0, 20);
        } else {
            // Completions: "logprobs": k asks for the k most likely alternatives per token.
            top = intParam(body, "logprobs", -1, 0, 20);
            logprobs = top >= 0;
            top = Math.max(top, 0);
        }

        JsonNode seedNode = body.get("seed");
        long seed = config.seed();
        if (seedNode != null && !seedNode.isNull()) {
            if (!seedNode.isIntegralNumber()) {
                throw ApiError.invalid("Invalid type for 'seed': expected an integer.", "seed", "invalid_type");
            }
            seed = seedNode.longValue();
        }
        JsonNode temperature = body.get("temperature");
        if (temperature != null && !temperature.isNull() && !temperature.isNumber()) {
            throw ApiError.invalid("Invalid type for 'temperature': expected a number.", "temperature", "invalid_type");
        }
        boolean greedy = temperature != null && temperature.isNumber() && temperature.doubleValue() == 0;

        // After the parameters, as vLLM checks the model only once the request itself is valid.
        if (!config.anyModel() && !config.models().contains(model)) {
            throw ApiError.modelNotFound(model);
        }
        // vLLM's extra (>= 0.10.2); served on non-streamed chat, where this project asks for it
        boolean returnTokenIds = booleanParam(body, "return_token_ids", "return_token_ids");
        if (returnTokenIds && (stream || endpoint != Endpoint.CHAT_COMPLETIONS)) {
            throw ApiError.invalid("return_token_ids is simulated on non-streamed chat completions only.", "return_token_ids");
        }
        return new GenerationRequest(endpoint, body, model, prompts, messages, n, maxTokens, stop, logprobs, top, seed, greedy,
                stream, includeUsage, returnTokenIds);
    }

    /** {@code stream_options.include_usage}; the options are only allowed with {@code stream: true}, as OpenAI says. */
    private static boolean includeUsage(JsonNode options, boolean stream) {
        if (options == null || options.isNull()) {
            return false;
        }
        if (!stream) {
            throw ApiError.invalid("The 'stream_options' parameter is only allowed when 'stream' is enabled.", "stream_options");
        }
        if (!options.isObject()) {
            throw ApiError.invalid("Invalid type for 'stream_options': expected an object.", "stream_options", "invalid_type");
        }
        return booleanParam(options, "include_usage", "stream_options.include_usage");
    }

    /** An optional boolean field of {@code object}, named {@code param} in errors; false when missing or null. */
    private static boolean booleanParam(JsonNode object, String field, String param) {
        JsonNode node = object.get(field);
        if (node == null || node.isNull()) {
            return false;
        }
        if (!node.isBoolean()) {
            throw ApiError.invalid("Invalid type for '" + param + "': expected a boolean.", param, "invalid_type");
        }
        return node.booleanValue();
    }

    /** A feature the simulator cannot honour is a 400, never silently ignored ({@code null} counts as absent). */
    private static void refuseUnsimulated(JsonNode body, String field, String what) {
        JsonNode node = body.get(field);
        if (node == null || node.isNull()) {
            return;
        }
        if (field.equals("response_format") && node.path("type").asText("").equals("text")) {
            return; // the default: plain text, which is what the simulator produces
        }
        if (node.isArray() && node.isEmpty()) {
            return;
        }
        throw ApiError.invalid("Unsupported parameter: '" + field + "': " + what + " by the simulator; remove it.", field,
                "unsupported_parameter");
    }

    private static List<ChatMessage> messages(JsonNode node) {
        if (node == null || node.isNull()) {
            throw ApiError.missing("messages");
        }
        if (!node.isArray() || node.isEmpty()) {
            throw ApiError.invalid("Invalid 'messages': expected a non-empty array of messages.", "messages");
        }
        List<ChatMessage> out = new ArrayList<>(node.size());
        for (int i = 0; i < node.size(); i++) {
            JsonNode m = node.get(i);
            String where = "messages[" + i + "]";
            if (!m.isObject()) {
                throw ApiError.invalid("Invalid '" + where + "': expected an object.", where);
            }
            JsonNode role = m.get("role");
            if (role == null || !role.isTextual()) {
                throw ApiError.invalid("Missing required parameter: '" + where + ".role'.", where + ".role", "missing_required_parameter");
            }
            out.add(new ChatMessage(role.textValue(), content(m.get("content"), where + ".content")));
        }
        return List.copyOf(out);
    }

    /** A string, or content parts of which the text ones count, or nothing. */
    private static String content(JsonNode node, String where) {
        if (node == null || node.isNull()) {
            return "";
        }
        if (node.isTextual()) {
            return node.textValue();
        }
        if (node.isArray()) {
            StringBuilder sb = new StringBuilder();
            for (JsonNode part : node) {
                JsonNode text = part.get("text");
                if (text != null && text.isTextual()) {
                    sb.append(text.textValue());
                }
            }
            return sb.toString();
        }
        throw ApiError.invalid("Invalid type for '" + where + "': expected a string or an array of content parts.", where, "invalid_type");
    }

    /** The chat prompt text: non-empty message contents joined with a blank line. */
    static String joinContents(List<ChatMessage> messages) {
        if (messages.size() == 1) {
            return messages.getFirst().content();
        }
        StringBuilder sb = new StringBuilder();
        for (ChatMessage m : messages) {
            if (m.content().isEmpty()) {
                continue;
            }
            if (!sb.isEmpty()) {
                sb.append("\n\n");
            }
            sb.append(m.content());
        }
        return sb.toString();
    }

    private static List<String> prompts(JsonNode node) {
        if (node == null || node.isNull()) {
            throw ApiError.missing("prompt");
        }
        if (node.isTextual()) {
            return List.of(node.textValue());
        }
        if (node.isArray() && !node.isEmpty()) {
            List<String> out = new ArrayList<>(node.size());
            for (JsonNode p : node) {
                if (!p.isTextual()) {
                    throw ApiError.invalid("Invalid 'prompt': the simulator accepts a string or an array of strings (not token arrays).", "prompt");
                }
                out.add(p.textValue());
            }
            return List.copyOf(out);
        }
        throw ApiError.invalid("Invalid 'prompt': expected a string or a non-empty array of strings.", "prompt");
    }

    private static List<String> stop(JsonNode node) {
        if (node == null || node.isNull()) {
            return List.of();
        }
        if (node.isTextual()) {
            return node.textValue().isEmpty() ? List.of() : List.of(node.textValue());
        }
        if (node.isArray()) {
            List<String> out = new ArrayList<>(node.size());
            for (JsonNode s : node) {
                if (!s.isTextual()) {
                    throw ApiError.invalid("Invalid 'stop': expected a string or an array of strings.", "stop", "invalid_type");
                }
                if (!s.textValue().isEmpty()) {
                    out.add(s.textValue());
                }
            }
            return List.copyOf(out);
        }
        throw ApiError.invalid("Invalid 'stop': expected a string or an array of strings.", "stop", "invalid_type");
    }

    /** An optional integer parameter in [min, max]; {@code absent} when missing or null. */
    private static int intParam(JsonNode body, String name, int absent, int min, int max) {
        JsonNode node = body.get(name);
        if (node == null || node.isNull()) {
            return absent;
        }
        if (!node.isIntegralNumber() || !node.canConvertToInt()) {
            throw ApiError.invalid("Invalid type for '" + name + "': expected an integer.", name, "invalid_type");
        }
        int v = node.intValue();
        if (v < min) {
            throw ApiError.invalid("Invalid '" + name + "': " + v + " is less than the minimum of " + min + ".", name, "integer_below_min_value");
        }
        if (v > max) {
            throw ApiError.invalid("Invalid '" + name + "': " + v + " is greater than the maximum of " + max + ".", name, "integer_above_max_value");
        }
        return v;
    }
}
