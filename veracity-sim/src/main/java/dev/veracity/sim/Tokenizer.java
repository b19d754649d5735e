package dev.veracity.sim;

import java.util.ArrayList;
import java.util.List;

/**
 * The simulator's tokenizer: deterministic and crude, but enough for usage counts, {@code max_tokens}
 * and logprobs to behave consistently.
 *
 * <p>A token is any leading whitespace followed by either a run of word characters (letters, digits,
 * {@code _}) or a single other character. {@code "Hello, world!"} is {@code ["Hello", ",", " world",
 * "!"]}. Trailing whitespace belongs to no token, so it counts for nothing and is dropped when a text
 * is cut to a number of tokens.
 */
public final class Tokenizer {
    private Tokenizer() {
    }

    /** The number of tokens in {@code text}. */
    public static int count(String text) {
        int n = 0;
        int i = 0;
        while ((i = nextEnd(text, i)) >= 0) {
            n++;
        }
        return n;
    }

    /** The size of the fake vocabulary token ids are drawn from (Qwen2.5's). */
    public static final int VOCABULARY = 151_936;

    /**
     * A token's fake id: a hash of its text into {@link #VOCABULARY}, so the same token always has the same id and
     * ids line up one to one with {@link #tokens} (and with logprobs, which are per token too).
     */
    public static int id(String token) {
        return Mix.index(Mix.mix(token.hashCode()), VOCABULARY);
    }

    /** The fake ids of {@code text}'s tokens. */
    public static List<Integer> ids(String text) {
        return tokens(text).stream().map(Tokenizer::id).toList();
    }

    /** The tokens of {@code text}, each with its leading whitespace. */
    public static List<String> tokens(String text) {
        List<String> out = new ArrayList<>();
        int start = 0;
        int end;
        while ((end = nextEnd(text, start)) >= 0) {
            out.add(text.substring(start, end));
            start = end;
        }
        return out;
    }

    /**
     * The pieces a stream sends {@code text} in: its tokens, the trailing whitespace (which belongs to no token)
     * joined to the last one, so the pieces concatenate to {@code text} exactly. Whitespace alone is one piece;
     * an empty text has none.
     */
    static List<String> pieces(String text) {
        List<String> out = tokens(text);
        int covered = 0;
        for (String t : out) {
            covered += t.length();
        }
        if (covered < text.length()) {
            String rest = text.substring(covered);
            if (out.isEmpty()) {
                out.add(rest);
            } else {
                out.set(out.size() - 1, out.getLast() + rest);
            }
        }
        return out;
    }

    /**
     * Where {@code text} ends after its first {@code maxTokens} tokens, or -1 when it has no more than
     * {@code maxTokens} tokens (nothing to cut).
     */
    static int cutOffset(String text, int maxTokens) {
        int i = 0;
        for (int n = 0; n < maxTokens; n++) {
            i = nextEnd(text, i);
            if (i < 0) {
                return -1;
            }
        }
        return nextEnd(text, i) < 0 ? -1 : i;
    }

    /** ASCII's classes, looked up instead of asked of {@link Character}: most prompts are ASCII, and each is counted. */
    private static final byte OTHER = 0;
    private static final byte SPACE = 1;
    private static final byte WORD = 2;
    private static final byte[] ASCII = new byte[128];

    static {
        for (int c = 0; c < 128; c++) {
            ASCII[c] = Character.isWhitespace(c) ? SPACE : isWord(c) ? WORD : OTHER;
        }
    }

    /** The end of the token starting at {@code from}, or -1 if only whitespace is left. */
    private static int nextEnd(String text, int from) {
        int len = text.length();
        int i = from;
        while (i < len) {
            char c = text.charAt(i);
            if (c < 128) {
                if (ASCII[c] != SPACE) {
                    break;
                }
                i++;
                continue;
            }
            int cp = text.codePointAt(i);
            if (!Character.isWhitespace(cp)) {
                break;
            }
            i += Character.charCount(cp);
        }
        if (i >= len) {
            return -1;
        }
        int cp = text.codePointAt(i);
        i += Character.charCount(cp);
        if (isWord(cp)) {
            while (i < len) {
                char c = text.charAt(i);
                if (c < 128) {
                    if (ASCII[c] != WORD) {
                        break;
                    }
                    i++;
                } else if (isWord(cp = text.codePointAt(i))) {
                    i += Character.charCount(cp);
                } else {
                    break;
                }
            }
        }
        return i;
    }

    private static boolean isWord(int cp) {
        return cp < 128 ? (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || (cp >= '0' && cp <= '9') || cp == '_'
                : Character.isLetterOrDigit(cp);
    }
}
