package dev.veracity.eval.data;

/**
 * Whether a read needs each record's gold answers ({@link DatasetSpec#goldFields()}). Every read checks the fields
 * that make a record its dataset's ({@link DatasetSpec#fields()}); a read whose answers are scored or used as labels
 * (eval, reproduce, probe, exports, rollouts) also needs the gold ones, so that a file read under the wrong name, or an
 * unlabelled test split, is refused instead of scored against no gold. Indexing a dataset's documents needs none.
 */
public enum GoldFields {
    /** Every record must carry its gold answers: they are scored or used as labels. */
    REQUIRED,
    /** Records may come without gold answers (an unlabelled test split): only their questions and documents are read. */
    OPTIONAL
}
