package dev.veracity.qa;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One correct answer with the other ways of writing it. A question with several valid answers (an ambiguous
 * RAMDocs question) has several gold answers; a question with one answer written many ways (NQ-open's list,
 * MuSiQue's answer and aliases) has one gold answer with aliases.
 *
 * @param text    the canonical answer
 * @param aliases other accepted forms (not including {@code text})
 */
public record GoldAnswer(String text, List<String> aliases) {

    public GoldAnswer {
        text = Objects.requireNonNullElse(text, "");
        aliases = aliases == null ? List.of() : List.copyOf(aliases);
    }

    public static GoldAnswer of(String text, String... aliases) {
        return new GoldAnswer(text, List.of(aliases));
    }

    /** One answer accepted in any of these forms; the first is the canonical one. */
    public static GoldAnswer anyOf(List<String> forms) {
        if (forms.isEmpty()) {
            return new GoldAnswer("", List.of());
        }
        return new GoldAnswer(forms.getFirst(), forms.subList(1, forms.size()));
    }

    /** The canonical form followed by the aliases. */
    public List<String> forms() {
        List<String> all = new ArrayList<>(1 + aliases.size());
        all.add(text);
        all.addAll(aliases);
        return all;
    }
}
