package dev.veracity.eval.data;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;

/**
 * Typed, checked access to the fields of a JSON object inside a {@link Record}: every problem becomes a
 * {@link DatasetException} naming the file, the place and the field path (e.g. {@code documents[2].text}).
 */
public final class Fields {

    private final Record record;
    private final JsonNode node;
    private final String path;

    Fields(Record record, JsonNode node, String path) {
        this.record = record;
        this.node = node;
        this.path = path;
    }

    public JsonNode node() {
        return node;
    }

    public Record record() {
        return record;
    }

    /** Whether the field is present and not null. */
    public boolean has(String field) {
        JsonNode v = node.get(field);
        return v != null && !v.isNull() && !v.isMissingNode();
    }

    /** The first of these fields that is present and not null, or null. */
    public String firstPresent(String... fields) {
        for (String f : fields) {
            if (has(f)) {
                return f;
            }
        }
        return null;
    }

    /** A required string field. */
    public String text(String field) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull() || v.isMissingNode()) {
            throw error("missing field \"" + path(field) + "\"");
        }
        if (!v.isTextual()) {
            throw error("field \"" + path(field) + "\" must be a string, found " + kind(v));
        }
        return v.textValue();
    }

    /** A required string field under the first of these names that is present. */
    public String textOneOf(String... fields) {
        String f = firstPresent(fields);
        if (f == null) {
            throw error("missing field " + quoteAll(fields));
        }
        return text(f);
    }

    /** An optional scalar field as text (numbers and booleans written as JSON writes them), or null. */
    public String optText(String field) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull() || v.isMissingNode()) {
            return null;
        }
        if (!v.isValueNode()) {
            throw error("field \"" + path(field) + "\" must be a string, found " + kind(v));
        }
        return v.asText();
    }

    /** A required scalar field (string or number) as text, e.g. an id. */
    public String textOrNumber(String field) {
        String v = optText(field);
        if (v == null) {
            throw error("missing field \"" + path(field) + "\"");
        }
        return v;
    }

    /** The first of these optional scalar fields that is present, or null. */
    public String optTextOneOf(String... fields) {
        String f = firstPresent(fields);
        return f == null ? null : optText(f);
    }

    /** An optional boolean field (JSON boolean, or the strings true/false, or 0/1), or the default. */
    public boolean optBool(String field, boolean dflt) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull() || v.isMissingNode()) {
            return dflt;
        }
        if (v.isBoolean()) {
            return v.booleanValue();
        }
        if (v.isIntegralNumber()) {
            return v.asLong() != 0;
        }
        if (v.isTextual()) {
            String s = v.textValue().trim().toLowerCase(Locale.ROOT);
            if (s.equals("true") || s.equals("1")) {
                return true;
            }
            if (s.equals("false") || s.equals("0")) {
                return false;
            }
        }
        throw error("field \"" + path(field) + "\" must be a boolean, found " + kind(v));
    }

    /**
     * A list of strings: a JSON array of scalars, or a single string (one element). Missing or null: empty. Blank
     * strings are dropped and duplicates removed, order kept.
     */
    public List<String> strings(String field) {
        return stringList(field, false);
    }

    /**
     * Like {@link #strings(String)}, but a string value must hold a JSON list (CRAG's {@code alternative_answers}
     * {@code "[]"}, PopQA's {@code possible_answers}); an empty string is an empty list.
     */
    public List<String> jsonStrings(String field) {
        return stringList(field, true);
    }

    private List<String> stringList(String field, boolean jsonInString) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull() || v.isMissingNode()) {
            return List.of();
        }
        if (v.isTextual()) {
            String s = v.textValue().strip();
            if (s.isEmpty()) {
                return List.of();
            }
            if (!jsonInString) {
                return List.of(v.textValue());
            }
            try {
                v = Json.MAPPER.readTree(s);
            } catch (JsonProcessingException e) {
                throw error("field \"" + path(field) + "\" holds invalid JSON list: " + e.getOriginalMessage());
            }
            if (v == null || !v.isArray()) {
                throw error("field \"" + path(field) + "\" must hold a JSON list, found " + s);
            }
        }
        if (v.isValueNode()) {
            return List.of(v.asText());
        }
        if (!v.isArray()) {
            throw error("field \"" + path(field) + "\" must be a list of strings, found " + kind(v));
        }
        LinkedHashSet<String> out = new LinkedHashSet<>();
        for (int i = 0; i < v.size(); i++) {
            JsonNode e = v.get(i);
            if (e == null || e.isNull()) {
                continue;
            }
            if (!e.isValueNode()) {
                throw error("field \"" + path(field) + "[" + i + "]\" must be a string, found " + kind(e));
            }
            String s = e.asText();
            if (!s.isBlank()) {
                out.add(s);
            }
        }
        return List.copyOf(out);
    }

    /** An array field: required (missing is an error) or optional (missing gives an empty array). */
    public JsonNode array(String field, boolean required) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull() || v.isMissingNode()) {
            if (required) {
                throw error("missing field \"" + path(field) + "\"");
            }
            return Json.MAPPER.createArrayNode();
        }
        if (!v.isArray()) {
            throw error("field \"" + path(field) + "\" must be an array, found " + kind(v));
        }
        return v;
    }

    /** The elements of an array field that must all be objects. */
    public List<Fields> objects(String field, boolean required) {
        JsonNode arr = array(field, required);
        List<Fields> out = new ArrayList<>(arr.size());
        for (int i = 0; i < arr.size(); i++) {
            JsonNode e = arr.get(i);
            String p = path(field) + "[" + i + "]";
            if (!e.isObject()) {
                throw error("field \"" + p + "\" must be an object, found " + kind(e));
            }
            out.add(new Fields(record, e, p));
        }
        return out;
    }

    /** An optional object field, or null. */
    public Fields object(String field) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull() || v.isMissingNode()) {
            return null;
        }
        if (!v.isObject()) {
            throw error("field \"" + path(field) + "\" must be an object, found " + kind(v));
        }
        return new Fields(record, v, path(field));
    }

    /** Access to a nested node (an element of an array) at a path, for error messages. */
    public Fields child(JsonNode child, String childPath) {
        return new Fields(record, child, path(childPath));
    }

    /** The field as compact JSON (for metadata), or null when missing. */
    public String json(String field) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull() || v.isMissingNode()) {
            return null;
        }
        return v.isTextual() ? v.textValue() : v.toString();
    }

    public DatasetException error(String problem) {
        return record.error(problem);
    }

    public String path(String field) {
        return path.isEmpty() ? field : field.startsWith("[") ? path + field : path + "." + field;
    }

    static String kind(JsonNode v) {
        return switch (v.getNodeType()) {
            case ARRAY -> "an array";
            case OBJECT -> "an object";
            case NUMBER -> "a number";
            case BOOLEAN -> "a boolean";
            case STRING -> "a string";
            case NULL -> "null";
            default -> v.getNodeType().toString().toLowerCase(Locale.ROOT);
        };
    }

    private static String quoteAll(String... fields) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < fields.length; i++) {
            b.append(i == 0 ? "" : i == fields.length - 1 ? " or " : ", ").append('"').append(fields[i]).append('"');
        }
        return b.toString();
    }
}
