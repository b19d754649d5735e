package dev.veracity.eval.judge;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a CRAG-style judge output, {@code {"explanation": "...", "score": 1}}. Total: any string gives a result.
 *
 * <p>Rules, in order:
 * <ol>
 *   <li>Every balanced {@code {...}} block of the output is a candidate (code fences, preambles and trailing text
 *       are simply skipped; braces inside quoted strings do not count). As CRAG's official evaluation takes the
 *       last JSON block, candidates are tried from the one that closes last (an enclosing block before the blocks
 *       it holds). The first candidate that parses as a JSON object (leniently: single quotes, unquoted names,
 *       trailing commas and comments allowed) and has a {@code "score"} field decides.</li>
 *   <li>Its score must be 1 or 0: the numbers 1/0 (1.0/0.0), the strings "1"/"0", or true/false (also as
 *       strings). Any other value (0.5, 2, "yes", null) gives UNPARSEABLE: the block that decides says something
 *       we cannot read, and an earlier block (often an echoed example) does not stand in for it.</li>
 *   <li>If no block parses with a score, a conservative fallback: the last {@code score: 1} / {@code "score": "0"}
 *       (quotes optional, ':' or '=') in the text decides.</li>
 *   <li>Otherwise UNPARSEABLE.</li>
 * </ol>
 */
public final class ScoreJsonParser {

    private static final JsonMapper LENIENT = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_SINGLE_QUOTES, JsonReadFeature.ALLOW_UNQUOTED_FIELD_NAMES,
                    JsonReadFeature.ALLOW_TRAILING_COMMA, JsonReadFeature.ALLOW_JAVA_COMMENTS,
                    JsonReadFeature.ALLOW_UNESCAPED_CONTROL_CHARS, JsonReadFeature.ALLOW_LEADING_PLUS_SIGN_FOR_NUMBERS,
                    JsonReadFeature.ALLOW_LEADING_DECIMAL_POINT_FOR_NUMBERS)
            .build();

    private static final Pattern FALLBACK =
            Pattern.compile("[\"']?\\bscore\\b[\"']?\\s*[:=]\\s*[\"']?([01])(?![\\d.])", Pattern.CASE_INSENSITIVE);
    private static final Pattern EXPLANATION_FALLBACK =
            Pattern.compile("[\"']?\\bexplanation\\b[\"']?\\s*[:=]\\s*[\"']([^\"']*)", Pattern.CASE_INSENSITIVE);

    private ScoreJsonParser() {
    }

    public static Parsed parse(String output) {
        if (output == null || output.isBlank()) {
            return Parsed.unparseable("empty");
        }
        try {
            return parseChecked(output);
        } catch (RuntimeException e) {
            // Should not happen; the parser is total by contract.
            return Parsed.unparseable("error: " + e.getClass().getSimpleName());
        }
    }

    private static Parsed parseChecked(String s) {
        List<int[]> blocks = blocks(s);
        blocks.sort(Comparator.<int[]>comparingInt(b -> -b[1]).thenComparingInt(b -> b[0]));
        for (int[] b : blocks) {
            JsonNode node;
            try {
                node = LENIENT.readTree(s.substring(b[0], b[1] + 1));
            } catch (Exception e) {
                continue;
            }
            if (node == null || !node.isObject() || !node.has("score")) {
                continue;
            }
            JsonNode ex = node.get("explanation");
            String explanation = ex == null || ex.isNull() ? "" : ex.isValueNode() ? ex.asText() : ex.toString();
            Boolean score = score(node.get("score"));
            if (score == null) {
                return new Parsed(Outcome.UNPARSEABLE, explanation, "json: score not 0/1: " + node.get("score"));
            }
            return Parsed.of(score, explanation, "json");
        }
        Matcher m = FALLBACK.matcher(s);
        String last = null;
        while (m.find()) {
            last = m.group(1);
        }
        if (last != null) {
            Matcher e = EXPLANATION_FALLBACK.matcher(s);
            String explanation = e.find() ? e.group(1).strip() : "";
            return Parsed.of(last.equals("1"), explanation, "fallback");
        }
        return Parsed.unparseable("no score");
    }

    static Boolean score(JsonNode v) {
        if (v == null) {
            return null;
        }
        if (v.isBoolean()) {
            return v.booleanValue();
        }
        if (v.isNumber()) {
            double d = v.doubleValue();
            return d == 1.0 ? Boolean.TRUE : d == 0.0 ? Boolean.FALSE : null;
        }
        if (v.isTextual()) {
            return switch (v.textValue().strip().toLowerCase(java.util.Locale.ROOT)) {
                case "1", "1.0", "true" -> Boolean.TRUE;
                case "0", "0.0", "false" -> Boolean.FALSE;
                default -> null;
            };
        }
        return null;
    }

    /** Every balanced {...} block as [start, end] (inclusive); braces inside quoted strings are skipped. */
    static List<int[]> blocks(String s) {
        List<int[]> out = new ArrayList<>();
        for (int start = s.indexOf('{'); start >= 0; start = s.indexOf('{', start + 1)) {
            int end = matching(s, start);
            if (end > 0) {
                out.add(new int[] {start, end});
            }
        }
        return out;
    }

    /** The index of the '}' closing the '{' at {@code open}, or -1. */
    private static int matching(String s, int open) {
        int depth = 0;
        char quote = 0;
        for (int i = open; i < s.length(); i++) {
            char c = s.charAt(i);
            if (quote != 0) {
                if (c == '\\') {
                    i++;
                } else if (c == quote) {
                    quote = 0;
                } else if (c == '\n' && quote == '\'') {
                    quote = 0; // an apostrophe in prose, not a string: do not swallow the rest
                }
                continue;
            }
            if (c == '"' || (c == '\'' && isStringStart(s, i))) {
                quote = c;
            } else if (c == '{') {
                depth++;
            } else if (c == '}') {
                depth--;
                if (depth == 0) {
                    return i;
                }
            }
        }
        return -1;
    }

    /** A single quote opens a string only after JSON punctuation (so "don't" in an explanation does not). */
    private static boolean isStringStart(String s, int i) {
        int j = i - 1;
        while (j >= 0 && Character.isWhitespace(s.charAt(j))) {
            j--;
        }
        return j < 0 || "{[:,".indexOf(s.charAt(j)) >= 0;
    }
}
