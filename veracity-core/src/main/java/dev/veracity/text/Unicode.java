package dev.veracity.text;

/**
 * Malformed UTF-16 as servers and datasets send it, made well-formed once, the same way everywhere.
 *
 * <p>A Java string can hold an unpaired surrogate (a JSON {@code "\ud800"} escape decodes into one). Such a string
 * has no UTF-8 form: {@code String.getBytes(UTF_8)} and SQLite silently write {@code ?}, a strict encoder (the one
 * behind {@code Files.newBufferedWriter}) throws and stays broken. {@link #repair} replaces each unpaired surrogate
 * by U+FFFD, the replacement character a UTF-8 decoder produces for malformed input, so that the text a run used,
 * cached, traced and wrote is one and the same string.
 */
public final class Unicode {

    /** What an unpaired surrogate becomes. */
    public static final char REPLACEMENT = '\uFFFD';

    private Unicode() {
    }

    /**
     * The text with every unpaired UTF-16 surrogate replaced by U+FFFD; pairs (a high surrogate followed by a low
     * one) are kept. Linear time; returns the same instance, allocating nothing, when the text is well-formed.
     *
     * @param text any string, or null (returned as is)
     */
    public static String repair(String text) {
        if (text == null) {
            return null;
        }
        int bad = firstUnpaired(text);
        return bad < 0 ? text : repairFrom(text, bad);
    }

    /** True when the text has no unpaired surrogate (so it has a UTF-8 form); null counts as well-formed. */
    public static boolean isWellFormed(String text) {
        return text == null || firstUnpaired(text) < 0;
    }

    /** The index of the first unpaired surrogate, or -1. */
    private static int firstUnpaired(String s) {
        int n = s.length();
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                    i++;
                } else {
                    return i;
                }
            }
        }
        return -1;
    }

    private static String repairFrom(String s, int from) {
        char[] out = s.toCharArray();
        int n = out.length;
        for (int i = from; i < n; i++) {
            char c = out[i];
            if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(out[i + 1])) {
                    i++;
                } else {
                    out[i] = REPLACEMENT;
                }
            }
        }
        return new String(out);
    }
}
