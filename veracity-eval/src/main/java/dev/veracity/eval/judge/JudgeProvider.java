package dev.veracity.eval.judge;

import dev.veracity.llm.client.LlmClient;
import java.util.List;
import java.util.Objects;

/**
 * Contributes LLM judges (a service: list the implementation in
 * {@code META-INF/services/dev.veracity.eval.judge.JudgeProvider}). {@code eval --judge NAME}, {@code probe} and the
 * rewards that judge then find it by name, as they find the built-in ones ({@link BuiltInJudges}).
 */
public interface JudgeProvider {

    /** Makes a judge on a client. */
    @FunctionalInterface
    interface Factory {
        /**
         * @param text the text TruthRL's judge sends (the authors' or the paper's); a judge with one text ignores it
         */
        Judge make(LlmClient client, JudgeOptions options, JudgePrompt text);
    }

    /**
     * One judge.
     *
     * @param name        its name on the command line, unique over every provider
     * @param aliases     other names for it
     * @param description one line: whose judge it is
     * @param create      makes it
     */
    record Entry(String name, List<String> aliases, String description, Factory create) {
        public Entry {
            Objects.requireNonNull(name, "name");
            aliases = aliases == null ? List.of() : List.copyOf(aliases);
            description = Objects.requireNonNullElse(description, "");
            Objects.requireNonNull(create, "create");
        }
    }

    /** The judges, in listing order. */
    List<Entry> judges();
}
