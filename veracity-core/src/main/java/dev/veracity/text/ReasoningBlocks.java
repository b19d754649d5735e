package dev.veracity.text;

/**
 * Removes a reasoning model's thinking from its output, so that parsers and metrics read only what it concluded
 * (the authors' code of the papers we implement does the same; the raw text stays in the trace). Linear time, total:
 * <ul>
 *   <li>every complete {@code <think>...</think>} block is removed (tags in any case; {@code <thinking>} likewise);</li>
 *   <li>a closing tag with no opening one (the chat template opened the block inside the prompt, as DeepSeek-R1 and
 *       Qwen3 templates do) drops everything before it;</li>
 *   <li>an opening tag that is never closed (generation cut off while thinking) drops everything from it to the
 *       end: a half-finished thought is not an answer.</li>
 * </ul>
 * Blocks do not nest: a second opening tag inside a block is part of the thought.
 */
public final class ReasoningBlocks {

    private static final String[] OPEN = {"<think>", "<thinking>"};
    private static final String[] CLOSE = {"</think>", "</thinking>"};

    private ReasoningBlocks() {
    }

    /** The text without reasoning; the same instance when it has none; "" for null. */
    public static String strip(String text) {
        if (text == null) {
            return "";
        }
        if (text.indexOf('<') < 0) {
            return text;
        }
        StringBuilder out = null;
        int copyFrom = 0;
        boolean inside = false;
        int i = text.indexOf('<');
        while (i >= 0) {
            int open = inside ? 0 : tagAt(text, i, OPEN);
            int close = open > 0 ? 0 : tagAt(text, i, CLOSE);
            if (open > 0) {
                out = append(out, text, copyFrom, i);
                inside = true;
                i += open;
            } else if (close > 0) {
                if (inside) {
                    inside = false;
                } else {
                    out = new StringBuilder(); // a stray close: what came before was thinking
                }
                i += close;
                copyFrom = i;
            } else {
                i++;
            }
            i = text.indexOf('<', i);
        }
        if (out == null && copyFrom == 0) {
            return inside ? "" : text;
        }
        if (out == null) {
            out = new StringBuilder();
        }
        if (!inside) {
            out.append(text, copyFrom, text.length());
        }
        return out.toString();
    }

    /** Whether the text holds a reasoning tag at all (cheap check for callers that report it). */
    public static boolean present(String text) {
        return text != null && !strip(text).equals(text);
    }

    private static StringBuilder append(StringBuilder out, String text, int from, int to) {
        StringBuilder b = out == null ? new StringBuilder(text.length()) : out;
        b.append(text, from, to);
        return b;
    }

    /** The length of the tag of {@code tags} at {@code i} (case-insensitive), or 0. */
    private static int tagAt(String text, int i, String[] tags) {
        for (String t : tags) {
            if (text.regionMatches(true, i, t, 0, t.length())) {
                return t.length();
            }
        }
        return 0;
    }
}
