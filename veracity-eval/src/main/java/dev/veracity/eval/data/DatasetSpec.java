package dev.veracity.eval.data;

import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * What the registry knows about one dataset, declared once in {@link Datasets}: its names, its loader and how it is
 * scored.
 *
 * @param name         the canonical name, e.g. {@code nq-open}
 * @param aliases      other names that mean the same dataset, e.g. {@code nq}, {@code nqopen}
 * @param metrics      the official metrics, the first one the headline
 * @param multiAnswer  answers are sets ("All Correct Answers: [...]"), scored against every gold and wrong answer
 * @param hasDocuments its records carry their own documents (contexts); false for closed-book or retrieval sets
 * @param description  one line: the release format
 * @param loader       makes the loader
 * @param downloads    the benchmark's official files ({@code veracity datasets fetch}); empty when none is known
 * @param references   what its records' own documents are, where a run should say (a run's {@code summary.json}
 *                     {@code retrieval.references}: CRAG's whole pages, their snippets, or TruthRL's chunks); "" if not
 * @param fields       the top-level fields that make a record one of this dataset's (its question, its documents),
 *                     each a name or alternatives {@code "context|contexts"}: every read refuses a record without one,
 *                     naming the dataset whose fields it has; empty when not declared
 * @param goldFields   the top-level fields of its gold answers, in the same form: required only where answers are
 *                     scored or used as labels ({@link GoldFields#REQUIRED}; RAMDocs read as NQ-open would score every
 *                     question against no gold), not where the questions' documents are indexed (an unlabelled test
 *                     split); empty when not declared
 */
public record DatasetSpec(String name, List<String> aliases, List<String> metrics, boolean multiAnswer,
                          boolean hasDocuments, String description, Supplier<DatasetLoader> loader,
                          List<Download> downloads, String references, List<String> fields,
                          List<String> goldFields) {

    /** A dataset without a declared download. */
    public DatasetSpec(String name, List<String> aliases, List<String> metrics, boolean multiAnswer,
                       boolean hasDocuments, String description, Supplier<DatasetLoader> loader) {
        this(name, aliases, metrics, multiAnswer, hasDocuments, description, loader, List.of(), "", List.of(), List.of());
    }

    /** A dataset without a description of its documents or declared fields. */
    public DatasetSpec(String name, List<String> aliases, List<String> metrics, boolean multiAnswer,
                       boolean hasDocuments, String description, Supplier<DatasetLoader> loader,
                       List<Download> downloads) {
        this(name, aliases, metrics, multiAnswer, hasDocuments, description, loader, downloads, "", List.of(), List.of());
    }

    /** The same dataset with its official files. */
    public DatasetSpec withDownloads(Download... files) {
        return new DatasetSpec(name, aliases, metrics, multiAnswer, hasDocuments, description, loader, List.of(files),
                references, fields, goldFields);
    }

    /** The same dataset with a description of its records' documents. */
    public DatasetSpec withReferences(String text) {
        return new DatasetSpec(name, aliases, metrics, multiAnswer, hasDocuments, description, loader, downloads, text,
                fields, goldFields);
    }

    /**
     * The same dataset with the fields that make a record its own and the fields of its gold answers
     * ({@code "a|b"}: either).
     */
    public DatasetSpec withFields(List<String> format, List<String> gold) {
        return new DatasetSpec(name, aliases, metrics, multiAnswer, hasDocuments, description, loader, downloads,
                references, format, gold);
    }

    public DatasetSpec {
        Objects.requireNonNull(name, "name");
        downloads = downloads == null ? List.of() : List.copyOf(downloads);
        aliases = aliases == null ? List.of() : List.copyOf(aliases);
        metrics = List.copyOf(metrics);
        description = Objects.requireNonNullElse(description, "");
        references = Objects.requireNonNullElse(references, "");
        fields = fields == null ? List.of() : List.copyOf(fields);
        goldFields = goldFields == null ? List.of() : List.copyOf(goldFields);
        Objects.requireNonNull(loader, "loader");
    }
}
