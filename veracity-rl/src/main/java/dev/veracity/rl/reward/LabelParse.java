package dev.veracity.rl.reward;

/** The outcome of reading a label: a {@link Label}, or the reason it is not one. Never an exception. */
public sealed interface LabelParse permits LabelParse.Ok, LabelParse.Bad {

    /** A readable label. */
    record Ok(Label label) implements LabelParse {
    }

    /** An unusable label and why, in words a user can act on. */
    record Bad(String reason) implements LabelParse {
    }
}
