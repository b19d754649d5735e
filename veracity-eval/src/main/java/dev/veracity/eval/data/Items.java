package dev.veracity.eval.data;

import dev.veracity.qa.GoldAnswer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/** Small helpers shared by the loaders. */
final class Items {

    private Items() {
    }

    /** One gold answer: the first non-blank form is the text, the rest (distinct, non-blank) its aliases. */
    static List<GoldAnswer> oneGold(List<String> forms) {
        LinkedHashSet<String> distinct = new LinkedHashSet<>();
        for (String f : forms) {
            if (f != null && !f.isBlank()) {
                distinct.add(f);
            }
        }
        if (distinct.isEmpty()) {
            return List.of();
        }
        return List.of(GoldAnswer.anyOf(new ArrayList<>(distinct)));
    }

    /** One gold answer per distinct non-blank text, no aliases. */
    static List<GoldAnswer> eachGold(List<String> answers) {
        LinkedHashSet<String> distinct = new LinkedHashSet<>();
        for (String a : answers) {
            if (a != null && !a.isBlank()) {
                distinct.add(a);
            }
        }
        return distinct.stream().map(GoldAnswer::of).toList();
    }

    /** Concatenation of lists. */
    @SafeVarargs
    static List<String> concat(List<String>... lists) {
        List<String> out = new ArrayList<>();
        for (List<String> l : lists) {
            out.addAll(l);
        }
        return out;
    }

    /** A metadata map that skips null values and keeps insertion order. */
    static final class Meta {
        private final Map<String, String> map = new LinkedHashMap<>();

        Meta put(String key, String value) {
            if (value != null) {
                map.put(key, value);
            }
            return this;
        }

        Map<String, String> build() {
            return map;
        }
    }
}
