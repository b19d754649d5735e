package dev.veracity.eval.judge;

/** What a judge concluded about a prediction, or about one of its samples. Never defaulted to a score. */
public enum Outcome {
    CORRECT,
    INCORRECT,
    /** The judge's output could not be read as a verdict: counted apart, never silently scored. */
    UNPARSEABLE;

    public boolean parsed() {
        return this != UNPARSEABLE;
    }
}
