package dev.veracity.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.veracity.http.HttpProblem;
import dev.veracity.qa.Document;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads a {@code POST /v1/chat/completions} body strictly: every field of OpenAI's chat completion request is known,
 * anything else is a 400 {@code unknown_parameter} (a typo fails loudly instead of being dropped), and every value is
 * type-checked. What the methods cannot do is refused, not ignored: {@code n > 1}, tools and functions, a JSON
 * {@code response_format}, logprobs, audio. Sampling settings ({@code temperature}, {@code max_tokens}, ...) are
 * checked and ignored: each method samples as its paper does (its options set what can be changed), and the answer's
 * {@code veracity.ignored} lists them.
 * <p>The question is the last {@code user} message; the conversation before it is not sent to the method (a method
 * answers one question), and is listed as ignored too. Documents come from the {@code documents} field or a documents
 * message ({@link RequestDocuments}).
 */
final class ChatRequestReader {

    /** OpenAI's fields the server takes but does not use: checked for their type, listed as ignored. */
    private static final Map<String, String> IGNORED = new LinkedHashMap<>();
    /** OpenAI's fields for what methods cannot do: a neutral value passes, anything else is refused. */
    private static final Set<String> REFUSED = Set.of("tools", "functions", "tool_choice", "function_call",
            "response_format", "logprobs", "top_logprobs", "modalities", "audio", "prediction", "web_search_options");
    private static final Set<String> USED = Set.of("model", "messages", "stream", "stream_options", "n", "documents",
            "veracity_options", "veracity_dataset", "veracity_multi_answer");
    private static final Set<String> ROLES = Set.of("system", "developer", "user", "assistant", "tool", "function");
    private static final Set<String> MESSAGE_FIELDS = Set.of("role", "content", "name", "tool_calls", "tool_call_id",
            "refusal", "function_call", "audio");
    private static final Pattern DATASET = Pattern.compile("[A-Za-z0-9_.-]{1,64}");
    private static final int MAX_OPTIONS = 64;

    static {
        IGNORED.put("temperature", "number");
        IGNORED.put("top_p", "number");
        IGNORED.put("max_tokens", "integer");
        IGNORED.put("max_completion_tokens", "integer");
        IGNORED.put("seed", "integer");
        IGNORED.put("stop", "stop");
        IGNORED.put("presence_penalty", "number");
        IGNORED.put("frequency_penalty", "number");
        IGNORED.put("logit_bias", "object");
        IGNORED.put("user", "string");
        IGNORED.put("metadata", "object");
        IGNORED.put("store", "boolean");
        IGNORED.put("service_tier", "string");
        IGNORED.put("reasoning_effort", "string");
        IGNORED.put("parallel_tool_calls", "boolean");
        IGNORED.put("safety_identifier", "string");
        IGNORED.put("prompt_cache_key", "string");
        IGNORED.put("verbosity", "string");
    }

    private final int maxItems;

    /** @param maxItems most messages, and most documents, in one request */
    ChatRequestReader(int maxItems) {
        this.maxItems = maxItems;
    }

    ChatRequest read(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw new HttpProblem(400, "invalid_type", "the body must be a JSON object (a chat completion request), was "
                    + RequestFields.typeOf(body));
        }
        List<String> ignored = new ArrayList<>();
        for (Map.Entry<String, JsonNode> f : body.properties()) {
            String name = f.getKey();
            JsonNode v = f.getValue();
            if (USED.contains(name)) {
                continue;
            }
            if (IGNORED.containsKey(name)) {
                if (!v.isNull()) {
                    checkIgnored(name, IGNORED.get(name), v);
                    ignored.add(name);
                }
            } else if (REFUSED.contains(name)) {
                refuseUnlessNeutral(name, v);
            } else {
                throw new HttpProblem(400, "unknown_parameter", "Unrecognized request argument supplied: "
                        + ClientText.quote(name) + " (this server reads OpenAI's chat completion fields, plus documents,"
                        + " veracity_options, veracity_dataset and veracity_multi_answer)").withParam(name);
            }
        }
        ModelName model = ModelName.parse(RequestFields.string(required(body, "model"), "model"));
        JsonNode n = body.get("n");
        if (n != null && !n.isNull() && RequestFields.integer(n, "n") != 1) {
            throw RequestFields.invalid("n", "n must be 1: a method gives one answer per request (was " + n.asText()
                    + "); send the request again for another");
        }
        boolean stream = flag(body, "stream");
        boolean includeUsage = streamOptions(body, stream);
        Messages messages = messages(required(body, "messages"));
        ignored.addAll(messages.ignored);
        List<Document> documents = messages.documents;
        JsonNode docField = body.get("documents");
        if (docField != null && !docField.isNull()) {
            if (documents != null) {
                throw RequestFields.invalid("documents", "the request gives documents twice, in 'documents' and in a"
                        + " 'Documents:' message: give them one way");
            }
            documents = RequestDocuments.fromField(docField, maxItems);
        }
        return new ChatRequest(model, messages.question, documents, options(body.get("veracity_options")), stream,
                includeUsage, dataset(body.get("veracity_dataset")), flag(body, "veracity_multi_answer"), ignored);
    }

    private static JsonNode required(JsonNode body, String field) {
        JsonNode v = body.get(field);
        if (v == null || v.isNull()) {
            throw new HttpProblem(400, "missing_required_parameter", "Missing required parameter: '" + field + "'.")
                    .withParam(field);
        }
        return v;
    }

    private static boolean flag(JsonNode body, String field) {
        JsonNode v = body.get(field);
        return v != null && !v.isNull() && RequestFields.bool(v, field);
    }

    private static void checkIgnored(String name, String type, JsonNode v) {
        switch (type) {
            case "number" -> RequestFields.number(v, name, name.endsWith("penalty") ? -2 : 0, name.equals("top_p") ? 1 : 2);
            case "integer" -> RequestFields.integer(v, name);
            case "string" -> RequestFields.string(v, name);
            case "boolean" -> RequestFields.bool(v, name);
            case "object" -> RequestFields.object(v, name);
            case "stop" -> {
                if (v.isArray()) {
                    if (v.size() > 4) {
                        throw RequestFields.invalid(name, "stop takes at most 4 sequences, was " + v.size());
                    }
                    v.forEach(s -> RequestFields.string(s, name + "[]"));
                } else {
                    RequestFields.string(v, name);
                }
            }
            default -> throw new IllegalStateException(type);
        }
    }

    /** A field for what methods cannot do: absent, null or its neutral value only. */
    private static void refuseUnlessNeutral(String name, JsonNode v) {
        boolean neutral = v.isNull() || switch (name) {
            case "tools", "functions" -> v.isArray() && v.isEmpty();
            case "tool_choice", "function_call" -> v.isTextual() && v.asText().equals("none");
            case "response_format" -> v.isObject() && v.size() == 1 && "text".equals(v.path("type").asText(null));
            case "logprobs" -> v.isBoolean() && !v.asBoolean();
            case "top_logprobs" -> v.isIntegralNumber() && v.asInt() == 0;
            case "modalities" -> v.isArray() && v.size() == 1 && "text".equals(v.get(0).asText(null));
            default -> false;
        };
        if (!neutral) {
            throw new HttpProblem(400, "unsupported_parameter", "Unsupported parameter: '" + name + "': a method answers"
                    + " with text only (no tools, functions, JSON formats, logprobs or audio)").withParam(name);
        }
    }

    private static boolean streamOptions(JsonNode body, boolean stream) {
        JsonNode o = body.get("stream_options");
        if (o == null || o.isNull()) {
            return false;
        }
        if (!stream) {
            throw RequestFields.invalid("stream_options", "The 'stream_options' parameter is only allowed when 'stream' is"
                    + " enabled.");
        }
        RequestFields.object(o, "stream_options");
        boolean usage = false;
        for (Map.Entry<String, JsonNode> f : o.properties()) {
            String field = "stream_options." + f.getKey();
            switch (f.getKey()) {
                case "include_usage" -> usage = !f.getValue().isNull() && RequestFields.bool(f.getValue(), field);
                case "include_obfuscation" -> {
                    if (!f.getValue().isNull()) {
                        RequestFields.bool(f.getValue(), field); // nothing to obfuscate: the chunks are the answer's words
                    }
                }
                default -> throw new HttpProblem(400, "unknown_parameter", "Unrecognized request argument supplied: "
                        + ClientText.quote(field)).withParam(ClientText.quote(field));
            }
        }
        return usage;
    }

    private record Messages(String question, List<Document> documents, List<String> ignored) {
    }

    private Messages messages(JsonNode list) {
        if (!list.isArray()) {
            throw RequestFields.wrongType("messages", "an array", list);
        }
        if (list.isEmpty()) {
            throw RequestFields.invalid("messages", "messages is empty: send the question as a user message");
        }
        if (list.size() > maxItems) {
            throw HttpProblem.tooLarge("batch_too_large", "the request has " + list.size() + " messages; this server"
                    + " takes at most " + maxItems);
        }
        int questionAt = -1;
        int documentsAt = -1;
        List<Document> documents = null;
        String[] texts = new String[list.size()];
        for (int i = 0; i < list.size(); i++) {
            JsonNode m = list.get(i);
            String at = "messages[" + i + "]";
            if (!m.isObject()) {
                throw RequestFields.wrongType(at, "an object", m);
            }
            for (Iterator<String> names = m.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                if (!MESSAGE_FIELDS.contains(name)) {
                    throw new HttpProblem(400, "unknown_parameter", "Unrecognized request argument supplied: " + at + "."
                            + ClientText.quote(name)).withParam(at);
                }
            }
            String role = RequestFields.string(required(m, "role", at), at + ".role");
            if (!ROLES.contains(role)) {
                throw RequestFields.invalid(at + ".role", at + ".role must be one of " + String.join(", ", ROLES)
                        + ", was '" + ClientText.quote(role) + "'");
            }
            texts[i] = text(m.get("content"), at + ".content");
            if (role.equals("user")) {
                questionAt = i;
            } else if ((role.equals("system") || role.equals("developer") || role.equals("tool"))
                    && RequestDocuments.isDocumentsMessage(texts[i])) {
                if (documents != null) {
                    throw RequestFields.invalid(at, "the request has two 'Documents:' messages: put every document in one");
                }
                documents = RequestDocuments.fromMessage(texts[i], at, maxItems);
                documentsAt = i;
            }
        }
        if (questionAt < 0) {
            throw RequestFields.invalid("messages", "no user message: the question is the last message with role user");
        }
        String question = texts[questionAt].strip();
        if (question.isEmpty()) {
            throw RequestFields.invalid("messages[" + questionAt + "].content", "the question (the last user message) is"
                    + " empty");
        }
        int others = list.size() - 1 - (documentsAt >= 0 ? 1 : 0);
        List<String> ignored = others == 0 ? List.of() : List.of(others + (others == 1 ? " other message" : " other messages")
                + " (a method answers the last user message alone)");
        return new Messages(question, documents, ignored);
    }

    private static JsonNode required(JsonNode m, String field, String at) {
        JsonNode v = m.get(field);
        if (v == null || v.isNull()) {
            throw new HttpProblem(400, "missing_required_parameter", "Missing required parameter: '" + at + "." + field
                    + "'.").withParam(at + "." + field);
        }
        return v;
    }

    /** A message's text: a string, or its text parts joined by line breaks; null content is "". */
    private static String text(JsonNode content, String at) {
        if (content == null || content.isNull()) {
            return "";
        }
        if (content.isTextual()) {
            return content.asText();
        }
        if (!content.isArray()) {
            throw RequestFields.wrongType(at, "a string or an array of content parts", content);
        }
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < content.size(); i++) {
            JsonNode part = content.get(i);
            String p = at + "[" + i + "]";
            if (!part.isObject()) {
                throw RequestFields.wrongType(p, "a content part object", part);
            }
            String type = part.path("type").asText("");
            if (!type.equals("text")) {
                throw new HttpProblem(400, "unsupported_content", p + " is of type '" + ClientText.quote(type) + "':"
                        + " this server reads text parts only").withParam(p);
            }
            if (b.length() > 0) {
                b.append('\n');
            }
            b.append(RequestFields.string(part.path("text"), p + ".text"));
        }
        return b.toString();
    }

    private static Map<String, String> options(JsonNode o) {
        if (o == null || o.isNull()) {
            return Map.of();
        }
        RequestFields.object(o, "veracity_options");
        if (o.size() > MAX_OPTIONS) {
            throw RequestFields.invalid("veracity_options", "veracity_options has " + o.size() + " entries; a method has"
                    + " far fewer options (GET /v1/models/METHOD lists them)");
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> f : o.properties()) {
            String field = "veracity_options." + ClientText.quote(f.getKey());
            out.put(f.getKey(), optionValue(f.getValue(), field));
        }
        return out;
    }

    /** An option as the command line would give it: strings as they are, numbers and booleans as text, lists joined. */
    private static String optionValue(JsonNode v, String field) {
        if (v.isTextual()) {
            return v.asText();
        }
        if (v.isNumber() || v.isBoolean()) {
            return v.asText();
        }
        if (v.isArray()) {
            List<String> parts = new ArrayList<>();
            for (JsonNode e : v) {
                if (!(e.isNumber() || e.isTextual())) {
                    throw RequestFields.wrongType(field + "[]", "a number or a string", e);
                }
                parts.add(e.asText());
            }
            return String.join(",", parts);
        }
        throw RequestFields.wrongType(field, "a string, number, boolean or list", v);
    }

    private static String dataset(JsonNode v) {
        if (v == null || v.isNull()) {
            return "";
        }
        String d = RequestFields.string(v, "veracity_dataset");
        if (!DATASET.matcher(d).matches()) {
            throw RequestFields.invalid("veracity_dataset", "veracity_dataset is a dataset's name (hotpotqa, fever,"
                    + " musique, ramdocs, ...), was '" + ClientText.quote(d) + "'");
        }
        return d.toLowerCase(Locale.ROOT);
    }
}
