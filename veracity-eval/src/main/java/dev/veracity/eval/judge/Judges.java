package dev.veracity.eval.judge;

import dev.veracity.llm.client.LlmClient;
import dev.veracity.plugin.Registry;
import java.util.List;
import java.util.Locale;

/**
 * The judges by command-line name: every {@link JudgeProvider}'s ({@link BuiltInJudges} first, then the plug-ins').
 * Names and aliases are case-insensitive; one two providers claim is an error naming both.
 */
public final class Judges {

    private static final Registry<JudgeProvider, JudgeProvider.Entry> REGISTRY = new Registry<>(JudgeProvider.class,
            JudgeProvider::judges, e -> e.name().toLowerCase(Locale.ROOT), JudgeProvider.Entry::aliases,
            n -> n.toLowerCase(Locale.ROOT), "judge");

    private Judges() {
    }

    /** The judges' names (not their aliases), in listing order. */
    public static List<String> names() {
        return List.copyOf(REGISTRY.byName().keySet());
    }

    /** Checks a judge name before anything is built; an unknown one is an error that lists the known ones. */
    public static void requireKnown(String name) {
        entry(name);
    }

    private static JudgeProvider.Entry entry(String name) {
        JudgeProvider.Entry e = name == null ? null : REGISTRY.find(name);
        if (e == null) {
            throw new IllegalArgumentException("unknown judge '" + name + "'; " + REGISTRY.didYouMean(name) + "known: "
                    + String.join(", ", names()));
        }
        return e;
    }

    /**
     * The judge of that name on the given client: {@code crag} (TruthRL's judge, the authors' released prompt), {@code
     * true-false} (C-3PO Appendix D.2), {@code equivalence} (ours), or a plug-in's. An unknown name lists the known ones.
     */
    public static Judge byName(String name, LlmClient client, JudgeOptions options) {
        return byName(name, client, options, JudgePrompt.AUTHORS);
    }

    /**
     * The same, with the text TruthRL's judge sends ({@link JudgePrompt}: the authors' released prompt or the paper's
     * Table 11); the other judges have one text each and ignore it.
     */
    public static Judge byName(String name, LlmClient client, JudgeOptions options, JudgePrompt text) {
        return entry(name).create().make(client, options, text);
    }
}
