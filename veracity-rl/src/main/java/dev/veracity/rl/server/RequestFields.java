package dev.veracity.rl.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.veracity.http.HttpProblem;
import dev.veracity.rl.reward.Label;
import dev.veracity.rl.reward.LabelParse;
import dev.veracity.rl.reward.Reward;
import dev.veracity.rl.reward.RewardInput;
import java.util.Locale;

/** Reading a request's fields with 400s that name the field and say what it must be. */
final class RequestFields {

    private RequestFields() {
    }

    static JsonNode object(JsonNode body, String shape) {
        if (body == null || !body.isObject()) {
            throw HttpProblem.badRequest("the body must be a JSON object " + shape + ", was " + kind(body));
        }
        return body;
    }

    /** A required list field. */
    static JsonNode list(JsonNode body, String field) {
        JsonNode n = body.get(field);
        if (n == null || n.isNull()) {
            throw HttpProblem.badRequest("missing \"" + field + "\" (a list)");
        }
        if (!n.isArray()) {
            throw HttpProblem.badRequest("\"" + field + "\" must be a list, was " + kind(n));
        }
        return n;
    }

    /** A required string: {@code where} names it in the message, e.g. {@code query[3]}. */
    static String text(JsonNode n, String where) {
        if (n == null || n.isNull()) {
            throw HttpProblem.badRequest("missing " + where + " (a string)");
        }
        if (!n.isTextual()) {
            throw HttpProblem.badRequest(where + " must be a string, was " + kind(n));
        }
        return n.textValue();
    }

    static String kind(JsonNode n) {
        if (n == null || n.isMissingNode()) {
            return "missing";
        }
        return switch (n.getNodeType()) {
            case ARRAY -> "a list";
            case OBJECT, POJO -> "an object";
            case STRING -> "a string";
            case NUMBER -> "a number";
            case BOOLEAN -> "a boolean";
            case NULL, MISSING -> "null";
            case BINARY -> "binary";
        };
    }

    /** A label ({@link Label#parse}: a gold answer, a list, an object, or either in a JSON string), or a 400. */
    static Label label(JsonNode n, String where) {
        return switch (Label.parse(n)) {
            case LabelParse.Ok ok -> ok.label();
            case LabelParse.Bad bad -> throw HttpProblem.badRequest(where + ": " + bad.reason());
        };
    }

    /** Refuses an input the reward cannot score at all (MARCH without documents), naming the item. */
    static RewardInput scorable(Reward reward, RewardInput input, String where) {
        reward.problem(input).ifPresent(p -> {
            throw HttpProblem.badRequest(where + ": " + p);
        });
        return input;
    }

    /** Refuses a response over the limit, naming the item. */
    static void checkLength(String response, int max, String where) {
        if (response.length() > max) {
            throw HttpProblem.badRequest(String.format(Locale.ROOT,
                    "%s has %,d characters; this server scores responses of at most %,d (--max-response-chars)",
                    where, response.length(), max));
        }
    }
}
