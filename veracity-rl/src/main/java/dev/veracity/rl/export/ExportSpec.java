package dev.veracity.rl.export;

import dev.veracity.eval.run.DocumentSource;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * What {@code veracity rl export} writes: a format, a dataset file read by its loader, a method's role prompt, and the
 * optional inputs. Made with {@link #of} and the {@code with...} methods; checked by {@link TrainingDataExport#run}.
 *
 * @param format         the trainer's format
 * @param dataset        the dataset's name or alias (its loader, whether answers are sets)
 * @param data           the dataset file
 * @param prompt         {@code METHOD[:ROLE]}
 * @param options        the method's options ({@code --option}), checked against its declaration
 * @param out            the file to write; its folder must exist
 * @param limit          the first {@code limit} questions, 0 for all
 * @param split          {@code extra_info.split} of VeRL rows
 * @param documents      where a question's documents come from (the dataset's, or an index's top k)
 * @param responses      {@code {"id", "response"}} lines for SFT formats, or null
 * @param pairs          {@code {"id", "chosen", "rejected"}} lines for preference formats, or null
 * @param labelDocuments whether labels carry the documents (MARCH's rewards need them; they make files larger)
 * @param agentName      VeRL's {@code agent_name} column, or null for none
 * @param entryName      the LLaMA-Factory {@code dataset_info.json} entry, or null for the file's name
 */
public record ExportSpec(ExportFormat format, String dataset, Path data, String prompt, Map<String, String> options,
                         Path out, int limit, String split, DocumentSource documents, Path responses, Path pairs,
                         boolean labelDocuments, String agentName, String entryName) {

    public ExportSpec {
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(dataset, "dataset");
        Objects.requireNonNull(data, "data");
        Objects.requireNonNull(prompt, "prompt");
        Objects.requireNonNull(out, "out");
        options = options == null ? Map.of() : Map.copyOf(options);
        split = split == null ? "train" : split;
        documents = documents == null ? DocumentSource.dataset() : documents;
    }

    /** The defaults: every question, split {@code train}, the dataset's own documents, documents in the labels. */
    public static ExportSpec of(ExportFormat format, String dataset, Path data, String prompt, Path out) {
        return new ExportSpec(format, dataset, data, prompt, Map.of(), out, 0, "train", DocumentSource.dataset(), null,
                null, true, null, null);
    }

    public ExportSpec withOptions(Map<String, String> o) {
        return new ExportSpec(format, dataset, data, prompt, o, out, limit, split, documents, responses, pairs,
                labelDocuments, agentName, entryName);
    }

    public ExportSpec withLimit(int n) {
        return new ExportSpec(format, dataset, data, prompt, options, out, n, split, documents, responses, pairs,
                labelDocuments, agentName, entryName);
    }

    public ExportSpec withSplit(String s) {
        return new ExportSpec(format, dataset, data, prompt, options, out, limit, s, documents, responses, pairs,
                labelDocuments, agentName, entryName);
    }

    public ExportSpec withDocuments(DocumentSource d) {
        return new ExportSpec(format, dataset, data, prompt, options, out, limit, split, d, responses, pairs,
                labelDocuments, agentName, entryName);
    }

    public ExportSpec withResponses(Path r) {
        return new ExportSpec(format, dataset, data, prompt, options, out, limit, split, documents, r, pairs,
                labelDocuments, agentName, entryName);
    }

    public ExportSpec withPairs(Path p) {
        return new ExportSpec(format, dataset, data, prompt, options, out, limit, split, documents, responses, p,
                labelDocuments, agentName, entryName);
    }

    public ExportSpec withLabelDocuments(boolean b) {
        return new ExportSpec(format, dataset, data, prompt, options, out, limit, split, documents, responses, pairs,
                b, agentName, entryName);
    }

    public ExportSpec withAgentName(String a) {
        return new ExportSpec(format, dataset, data, prompt, options, out, limit, split, documents, responses, pairs,
                labelDocuments, a, entryName);
    }

    public ExportSpec withEntryName(String n) {
        return new ExportSpec(format, dataset, data, prompt, options, out, limit, split, documents, responses, pairs,
                labelDocuments, agentName, n);
    }
}
