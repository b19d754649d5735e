package dev.veracity.plugin;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * "Did you mean" for a name nobody registered (a method, a dataset, a judge, a recipe, a reward): the registered names
 * within a few edits of it (Levenshtein distance, case-insensitive), or that start with it, nearest first.
 */
public final class NearestNames {

    private NearestNames() {
    }

    /** At most three registered names near the typed one, nearest first; none when nothing is near. */
    public static List<String> near(String typed, Collection<String> known) {
        if (typed == null || typed.isBlank()) {
            return List.of();
        }
        String t = typed.strip().toLowerCase(Locale.ROOT);
        int allowed = Math.max(2, t.length() / 3);
        record Scored(String name, int distance) {
        }
        return known.stream()
                .map(n -> {
                    String k = n.toLowerCase(Locale.ROOT);
                    int d = distance(t, k);
                    return new Scored(n, t.length() >= 3 && k.startsWith(t) ? Math.min(d, 1) : d);
                })
                .filter(s -> s.distance() <= allowed)
                .sorted(Comparator.comparingInt(Scored::distance).thenComparing(Scored::name))
                .limit(3).map(Scored::name).toList();
    }

    /** "did you mean 'x'? " (or 'x' or 'y') to put before the list of known names; "" when none is near. */
    public static String didYouMean(String typed, Collection<String> known) {
        List<String> near = near(typed, known);
        return near.isEmpty() ? "" : "did you mean '" + String.join("' or '", near) + "'? ";
    }

    /** Levenshtein distance: single-character insertions, deletions and substitutions; two rows of the table. */
    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitute, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
