package dev.veracity.retrieval.corpus;

import java.util.ArrayList;
import java.util.List;

/** Cuts long texts into fixed-size word windows, as DPR built its 100-word Wikipedia passages. */
public final class Passages {

    /** DPR's passage length in words. */
    public static final int DPR_WORDS = 100;

    private Passages() {
    }

    /** Consecutive, non-overlapping windows of {@code words} whitespace-separated words; none for a blank text. */
    public static List<String> split(String text, int words) {
        if (words < 1) {
            throw new IllegalArgumentException("words must be >= 1, got " + words);
        }
        String t = text == null ? "" : text.strip();
        List<String> out = new ArrayList<>();
        if (t.isEmpty()) {
            return out;
        }
        String[] tokens = t.split("\\s+");
        for (int i = 0; i < tokens.length; i += words) {
            out.add(String.join(" ", java.util.Arrays.asList(tokens).subList(i, Math.min(tokens.length, i + words))));
        }
        return out;
    }
}
