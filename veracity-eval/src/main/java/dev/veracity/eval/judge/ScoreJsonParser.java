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

    /**
     * Deepest nesting read. Judge blocks are two or three levels deep; Jackson's default limit (1000) would let
     * 100k nested braces cost each of their thousands of candidate blocks a thousand levels of parsing.
     */
    static final int MAX_DEPTH = 64;

    private static final JsonMapper LENIENT = JsonMapper.builder(com.fasterxml.jackson.core.JsonFactory.builder()
                    .streamReadConstraints(com.fasterxml.jackson.core.StreamReadConstraints.builder()
                            .maxNestingDepth(MAX_DEPTH).build())
                    .build())
            .enable(JsonReadFeature.ALLOW_SINGLE_QUOTES, JsonReadFeature.ALLOW_UNQUOTED_FIELD_NAMES,
                    JsonReadFeature.ALLOW_TRAILING_COMMA, JsonReadFeature.ALLOW_JAVA_COMMENTS,
                    JsonReadFeature.ALLOW_UNESCAPED_CONTROL_CHARS, JsonReadFeature.ALLOW_LEADING_PLUS_SIGN_FOR_NUMBERS,
                    JsonReadFeature.ALLOW_LEADING_DECIMAL_POINT_FOR_NUMBERS)
            .build();

    private static final Pattern FALLBACK =
            Pattern.compile("[\"']?\\bscore\\b[\"']?\\s*+[:=]\\s*+[\"']?([01])(?![\\d.])", Pattern.CASE_INSENSITIVE);
    private static final Pattern EXPLANATION_FALLBACK =
            Pattern.compile("[\"']?\\bexplanation\\b[\"']?\\s*+[:=]\\s*+[\"']([^\"']*+)", Pattern.CASE_INSENSITIVE);

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
        char[] chars = s.toCharArray();
        int[][] counts = scoreAndEscapeCounts(s);
        blocks.sort(Comparator.<int[]>comparingInt(b -> -b[1]).thenComparingInt(b -> b[0]));
        for (int[] b : blocks) {
            if (!mayHoldScore(counts, b[0], b[1])) {
                continue; // no "score" field can be read from it: skip the parse
            }
            JsonNode node;
            try {
                node = readTree(chars, b[0], b[1] + 1 - b[0]);
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

    /**
     * Prefix counts: {@code [0][i]} positions before i where "score" starts, {@code [1][i]} backslashes before i (a
     * quoted field name may spell "score" with {@code \\u} escapes). A block with neither has no "score" field and
     * is skipped in O(1) instead of parsed.
     */
    private static int[][] scoreAndEscapeCounts(String s) {
        int[][] counts = new int[2][s.length() + 1];
        for (int i = 0; i < s.length(); i++) {
            counts[0][i + 1] = counts[0][i] + (s.startsWith("score", i) ? 1 : 0);
            counts[1][i + 1] = counts[1][i] + (s.charAt(i) == '\\' ? 1 : 0);
        }
        return counts;
    }

    /** Whether [start, end] holds a whole "score" or a backslash. */
    private static boolean mayHoldScore(int[][] counts, int start, int end) {
        int scoreStartsTo = Math.max(start, end - "score".length() + 2); // exclusive bound of where one may start
        return counts[0][scoreStartsTo] > counts[0][start] || counts[1][end + 1] > counts[1][start];
    }

    /** The block's JSON, parsed in place: a parse stops at the first error, so a bad block costs only its start. */
    private static JsonNode readTree(char[] chars, int offset, int length) throws java.io.IOException {
        try (com.fasterxml.jackson.core.JsonParser p = LENIENT.createParser(chars, offset, length)) {
            return LENIENT.readTree(p);
        }
    }

    /**
     * Every balanced {...} block as [start, end] (inclusive); braces inside quoted strings are skipped. Each '{'
     * is scanned as if on its own, from outside any string (so a quote left open before it does not hide it), but
     * in one pass: the scans from every '{' are run side by side, and scans that reach the same position in the
     * same quoting state behave alike from then on, so they are merged. At most five states exist (outside, in
     * "...", after a backslash in "...", in '...', after a backslash in '...'), and each state keeps a stack of
     * levels, each level the opening braces that close at the same '}'. Linear time: a merge costs the levels it
     * removes, and each '{' adds one level.
     */
    static List<int[]> blocks(String s) {
        int n = s.length();
        List<int[]> out = new ArrayList<>();
        int[] next = new int[n];
        Scan[] at = new Scan[STATES];
        Scan[] moved = new Scan[STATES];
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c == '{' && at[OUTSIDE] == null) {
                at[OUTSIDE] = new Scan(); // the scan that starts at this brace
            }
            java.util.Arrays.fill(moved, null);
            for (int state = 0; state < STATES; state++) {
                Scan scan = at[state];
                if (scan == null) {
                    continue;
                }
                int to = step(state, c, s, i, scan, next, out);
                if (scan.size == 0) {
                    continue; // every brace of this scan is closed
                }
                moved[to] = moved[to] == null ? scan : Scan.merge(moved[to], scan, next);
            }
            Scan[] t = at;
            at = moved;
            moved = t;
        }
        return out;
    }

    private static final int OUTSIDE = 0;
    private static final int DOUBLE = 1;
    private static final int DOUBLE_ESCAPE = 2;
    private static final int SINGLE = 3;
    private static final int SINGLE_ESCAPE = 4;
    private static final int STATES = 5;

    /** One character of a scan in {@code state}; returns the state after it. */
    private static int step(int state, char c, String s, int i, Scan scan, int[] next, List<int[]> out) {
        switch (state) {
            case DOUBLE_ESCAPE:
                return DOUBLE;
            case SINGLE_ESCAPE:
                return SINGLE;
            case DOUBLE:
                return c == '\\' ? DOUBLE_ESCAPE : c == '"' ? OUTSIDE : DOUBLE;
            case SINGLE:
                // a newline ends an apostrophe in prose, not a string: do not swallow the rest
                return c == '\\' ? SINGLE_ESCAPE : c == '\'' || c == '\n' ? OUTSIDE : SINGLE;
            default:
                if (c == '"') {
                    return DOUBLE;
                }
                if (c == '\'' && isStringStart(s, i)) {
                    return SINGLE;
                }
                if (c == '{') {
                    scan.push(i, next);
                } else if (c == '}' && scan.size > 0) {
                    for (int o = scan.pop(); o >= 0; o = next[o]) {
                        out.add(new int[] {o, i});
                    }
                }
                return OUTSIDE;
        }
    }

    /** A stack of levels; a level is a linked list (through {@code next}, -1 ending it) of opening positions. */
    private static final class Scan {
        int[] head = new int[4];
        int[] tail = new int[4];
        int size;

        void push(int open, int[] next) {
            if (size == head.length) {
                head = java.util.Arrays.copyOf(head, size * 2);
                tail = java.util.Arrays.copyOf(tail, size * 2);
            }
            next[open] = -1;
            head[size] = open;
            tail[size] = open;
            size++;
        }

        int pop() {
            return head[--size];
        }

        /** The scans of two starts at the same position and state: levels that close together are joined. */
        static Scan merge(Scan a, Scan b, int[] next) {
            Scan big = a.size >= b.size ? a : b;
            Scan small = big == a ? b : a;
            for (int k = 1; k <= small.size; k++) {
                int to = big.size - k;
                int from = small.size - k;
                next[big.tail[to]] = small.head[from];
                big.tail[to] = small.tail[from];
            }
            return big;
        }
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
