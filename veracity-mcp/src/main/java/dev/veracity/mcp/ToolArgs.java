package dev.veracity.mcp;

import dev.veracity.qa.Document;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A tool call's arguments, read into typed values. The SDK checks them against the tool's input schema first; this
 * reads them again without trusting that, so every wrong value is a {@link ToolError} naming the argument, never an
 * exception of another kind.
 */
final class ToolArgs {

    /** The documents' JSON Schema, shared by the tools that take documents. */
    static final String DOCUMENTS_SCHEMA = """
            {"type": "array", "description": "Documents: strings, or objects {text, id?, title?}",
             "items": {"anyOf": [{"type": "string"},
               {"type": "object", "properties": {"text": {"type": "string"}, "id": {"type": "string"},
                 "title": {"type": "string"}}, "required": ["text"]}]}}""";

    private final Map<String, Object> args;

    ToolArgs(Map<String, Object> args) {
        this.args = args == null ? Map.of() : args;
    }

    /** A required, non-blank string. */
    String string(String name) {
        String s = optString(name);
        if (s == null || s.isBlank()) {
            throw new ToolError("missing '" + name + "': give it as a non-empty string");
        }
        return s;
    }

    String optString(String name) {
        Object v = args.get(name);
        if (v == null) {
            return null;
        }
        if (!(v instanceof String s)) {
            throw new ToolError("'" + name + "' must be a string");
        }
        return s;
    }

    /** One of the allowed words (lower case), or the default. */
    String choice(String name, String dflt, List<String> allowed) {
        String s = optString(name);
        if (s == null) {
            return dflt;
        }
        String w = s.strip().toLowerCase(Locale.ROOT);
        if (!allowed.contains(w)) {
            throw new ToolError("'" + name + "' must be one of " + String.join(", ", allowed) + ", was '" + cut(s) + "'");
        }
        return w;
    }

    int integer(String name, int dflt, int min, int max) {
        Object v = args.get(name);
        if (v == null) {
            return dflt;
        }
        if (!(v instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue())
                || n.doubleValue() < min || n.doubleValue() > max) {
            throw new ToolError("'" + name + "' must be a whole number from " + min + " to " + max + ", was " + cut(String.valueOf(v)));
        }
        return n.intValue();
    }

    boolean bool(String name) {
        Object v = args.get(name);
        if (v == null) {
            return false;
        }
        if (!(v instanceof Boolean b)) {
            throw new ToolError("'" + name + "' must be true or false");
        }
        return b;
    }

    /** A string or a list of strings, as a list; empty when absent. */
    List<String> strings(String name) {
        Object v = args.get(name);
        if (v == null) {
            return List.of();
        }
        if (v instanceof String s) {
            return List.of(s);
        }
        if (!(v instanceof List<?> l) || !l.stream().allMatch(x -> x instanceof String)) {
            throw new ToolError("'" + name + "' must be a string or a list of strings");
        }
        return l.stream().map(String.class::cast).toList();
    }

    /** The documents given, or null when none were (the server's index is asked then, where there is one). */
    List<Document> documents(String name) {
        Object v = args.get(name);
        if (v == null) {
            return null;
        }
        if (!(v instanceof List<?> l)) {
            throw new ToolError("'" + name + "' must be a list of documents (strings or {text, id, title})");
        }
        List<Document> out = new ArrayList<>();
        for (Object o : l) {
            String id = Integer.toString(out.size() + 1);
            if (o instanceof String s) {
                out.add(Document.of(id, "", s));
            } else if (o instanceof Map<?, ?> m && m.get("text") instanceof String text) {
                out.add(Document.of(m.get("id") == null ? id : String.valueOf(m.get("id")),
                        m.get("title") instanceof String t ? t : "", text));
            } else {
                throw new ToolError("'" + name + "' item " + (out.size() + 1) + " must be a string or an object with a"
                        + " \"text\" string");
            }
        }
        if (out.isEmpty()) {
            throw new ToolError("'" + name + "' is empty: give at least one document, or leave it out to use the"
                    + " server's index");
        }
        return out;
    }

    /** Whether the call gives {@code name} (a JSON null counts as not given). */
    boolean given(String name) {
        return args.get(name) != null;
    }

    /** An object of option names to values (scalars, read as text), as the method options' strings. */
    Map<String, String> options(String name) {
        Object v = args.get(name);
        if (v == null) {
            return Map.of();
        }
        if (!(v instanceof Map<?, ?> m)) {
            throw new ToolError("'" + name + "' must be an object of option names to values");
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : m.entrySet()) {
            Object x = e.getValue();
            if (x instanceof Map || x instanceof List || x == null) {
                throw new ToolError("'" + name + "': option '" + cut(String.valueOf(e.getKey()))
                        + "' must be a string, number or boolean");
            }
            out.put(String.valueOf(e.getKey()), x instanceof Double d && d == Math.rint(d) && !d.isInfinite()
                    ? Long.toString(d.longValue()) : String.valueOf(x));
        }
        return out;
    }

    private static String cut(String s) {
        return s.length() <= 80 ? s : s.substring(0, 77) + "...";
    }
}
