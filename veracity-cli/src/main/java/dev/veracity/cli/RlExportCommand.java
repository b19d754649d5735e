package dev.veracity.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.retrieval.SearchIndex;
import dev.veracity.eval.run.DocumentSource;
import dev.veracity.methods.RolePrompts;
import dev.veracity.retrieval.Retriever;
import dev.veracity.rl.export.ExportFormat;
import dev.veracity.rl.export.ExportSpec;
import dev.veracity.rl.export.TrainingDataExport;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ./veracity rl export}: a trainer's training file from a dataset and a method's role prompt
 * ({@link TrainingDataExport}). Documents come as in {@code eval}: the dataset's own, or an index's top k
 * ({@code --index}, the same flags). Bad input is one line, exit 2, and no output file.
 */
@Command(name = "export", mixinStandardHelpOptions = true,
        description = {"Training data for a trainer from any dataset and any method's role prompt.",
                "RL formats (the label is what veracity reward and the reward server read back): verl (parquet),"
                        + " verl-jsonl, openrlhf, trl, slime. SFT: trl-sft, llamafactory with --responses."
                        + " Preference: trl-dpo, llamafactory with --pairs."})
final class RlExportCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Option(names = "--format", required = true, paramLabel = "FORMAT",
            description = "verl, verl-jsonl, openrlhf, trl, trl-dpo, trl-sft, llamafactory or slime.")
    String format;

    @Option(names = "--prompt", required = true, paramLabel = "METHOD[:ROLE]",
            description = "The method's role prompt: no-rag, standard-rag, cot, cot-sc, madam-rag:agent (one row per"
                    + " document agent), march:solver; without a role, the method's first.")
    String prompt;

    @Option(names = "--out", required = true, paramLabel = "FILE",
            description = "The file to write (its folder must exist): .parquet for verl, .json for verl-jsonl, .jsonl"
                    + " for slime, .jsonl or .json for openrlhf and llamafactory.")
    Path out;

    @Option(names = "--split", defaultValue = "train", paramLabel = "NAME",
            description = "extra_info.split of VeRL rows (default ${DEFAULT-VALUE}).")
    String split;

    @Option(names = "--option", paramLabel = "KEY=VALUE", description = "The method's options (veracity methods NAME).")
    Map<String, String> options = new LinkedHashMap<>();

    @Option(names = "--responses", paramLabel = "FILE",
            description = "SFT (trl-sft, llamafactory): lines {\"id\", \"response\"[, \"agent\"]} by question id.")
    Path responses;

    @Option(names = "--pairs", paramLabel = "FILE",
            description = "Preference (trl-dpo, llamafactory): lines {\"id\", \"chosen\", \"rejected\"[, \"agent\"]}.")
    Path pairs;

    @Option(names = "--no-label-documents",
            description = "Leave the documents out of the labels (smaller files; MARCH's rewards then cannot score).")
    boolean noLabelDocuments;

    @Option(names = "--agent-name", paramLabel = "NAME",
            description = "verl: an agent_name column (VeRL's agent loop to run each row with, e.g. single_turn_agent).")
    String agentName;

    @Option(names = "--name", paramLabel = "NAME",
            description = "llamafactory: the dataset_info.json entry (default: the output's file name without extension).")
    String name;

    @Mixin
    DatasetOptions dataset;

    @Mixin
    RetrievalOptions retrieval;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        ExportFormat f = ExportFormat.of(format);
        RolePrompts.Selected selected = RolePrompts.select(prompt); // unknown method or role: before an index opens
        retrieval.validate();
        ExportSpec export = ExportSpec.of(f, dataset.name, dataset.file(), prompt, out).withOptions(options).withLimit(dataset.limit)
                .withSplit(split).withResponses(responses).withPairs(pairs).withLabelDocuments(!noLabelDocuments)
                .withAgentName(agentName).withEntryName(name);
        TrainingDataExport.Summary s;
        dev.veracity.retrieval.Embedder embedder = retrieval.embedder(selected.method());
        try (SearchIndex index = retrieval.open()) {
            Retriever retriever = retrieval.retriever(index, embedder);
            DocumentSource documents = retrieval.source(index, retriever);
            s = TrainingDataExport.run(export.withDocuments(documents));
        }
        ObjectNode o = JSON.createObjectNode();
        o.put("format", s.format().cliName());
        o.put("prompt", s.prompt());
        o.put("dataset", s.dataset());
        o.put("documents", retrieval.describe());
        o.put("questions", s.questions());
        o.put("rows", s.rows());
        o.put("without_prompt", s.withoutPrompt());
        o.put("without_gold", s.withoutGold());
        o.put("without_completion", s.withoutCompletion());
        o.put("unused_completions", s.unusedCompletions());
        o.put("out", s.out().toString());
        if (s.datasetInfo() != null) {
            o.put("dataset_info", s.datasetInfo().toString());
        }
        spec.commandLine().getOut().println(o.toString());
        spec.commandLine().getOut().flush();
        long skipped = s.withoutPrompt() + s.withoutGold() + s.withoutCompletion();
        if (skipped > 0) {
            spec.commandLine().getErr().printf("veracity rl export: %d of %d questions have no row (%d without a prompt:"
                            + " no documents for the agents; %d without a gold answer; %d without a response or pair)%n",
                    skipped, s.questions(), s.withoutPrompt(), s.withoutGold(), s.withoutCompletion());
            spec.commandLine().getErr().flush();
        }
        return 0;
    }
}
