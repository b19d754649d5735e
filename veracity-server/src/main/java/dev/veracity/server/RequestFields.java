package dev.veracity.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.veracity.http.HttpProblem;

/** Type checks of request fields, each failure a 400 naming the field (OpenAI's {@code param}). */
final class RequestFields {

    private RequestFields() {
    }

    /** A JSON value's type as a client would name it. */
    static String typeOf(JsonNode v) {
        if (v == null || v.isMissingNode()) {
            return "missing";
        }
        return switch (v.getNodeType()) {
            case STRING -> "a string";
            case NUMBER -> v.isIntegralNumber() ? "an integer" : "a number";
            case BOOLEAN -> "a boolean";
            case ARRAY -> "an array";
            case OBJECT -> "an object";
            case NULL -> "null";
            default -> v.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
        };
    }

    static HttpProblem wrongType(String field, String expected, JsonNode got) {
        return new HttpProblem(400, "invalid_type", "Invalid type for '" + field + "': expected " + expected + ", but got "
                + typeOf(got) + ".").withParam(field);
    }

    static HttpProblem invalid(String field, String message) {
        return new HttpProblem(400, "invalid_value", message).withParam(field);
    }

    static String string(JsonNode v, String field) {
        if (!v.isTextual()) {
            throw wrongType(field, "a string", v);
        }
        return v.asText();
    }

    static boolean bool(JsonNode v, String field) {
        if (!v.isBoolean()) {
            throw wrongType(field, "a boolean", v);
        }
        return v.asBoolean();
    }

    static long integer(JsonNode v, String field) {
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            throw wrongType(field, "an integer", v);
        }
        return v.asLong();
    }

    /** A number within [min, max]. */
    static double number(JsonNode v, String field, double min, double max) {
        if (!v.isNumber()) {
            throw wrongType(field, "a number", v);
        }
        double d = v.asDouble();
        if (!(d >= min && d <= max)) {
            throw invalid(field, "'" + field + "' must be from " + min + " to " + max + ", was " + v.asText());
        }
        return d;
    }

    static void object(JsonNode v, String field) {
        if (!v.isObject()) {
            throw wrongType(field, "an object", v);
        }
    }
}
