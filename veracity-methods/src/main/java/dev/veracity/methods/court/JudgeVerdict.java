package dev.veracity.methods.court;

/** The judge's output as {@link JudgeOutputParser} reads it: a {@code Complete[answer]}, or why there is none. */
public sealed interface JudgeVerdict {

    /** {@code Complete[answer]}: the judge's final answer (selected or synthesised). */
    record Complete(String answer) implements JudgeVerdict {
    }

    /** No usable {@code Complete[...]}. */
    record Failed(Failure failure, String text) implements JudgeVerdict {
    }

    /** Why a judge output gave no answer. */
    enum Failure {
        /** No {@code Complete[...]} at all. */
        NO_COMPLETE("no Complete[...]"),
        /** Only {@code Complete[]} or the prompt's own placeholder ({@code Complete[<short final answer>]}). */
        EMPTY_ANSWER("an empty Complete[...]"),
        /** {@code Complete[} whose bracket is not closed on its line (output cut off). */
        UNCLOSED_BRACKET("a Complete[ whose bracket is not closed");

        private final String description;

        Failure(String description) {
            this.description = description;
        }

        public String description() {
            return description;
        }
    }
}
