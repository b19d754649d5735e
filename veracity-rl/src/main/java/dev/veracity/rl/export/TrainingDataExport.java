package dev.veracity.rl.export;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.eval.data.DatasetSpec;
import dev.veracity.eval.data.Datasets;
import dev.veracity.method.AgentPrompt;
import dev.veracity.method.Capability;
import dev.veracity.method.PromptContext;
import dev.veracity.method.QaMethod;
import dev.veracity.methods.RolePrompts;
import dev.veracity.qa.Document;
import dev.veracity.qa.QaItem;
import dev.veracity.rl.jsonl.BadInputException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * {@code veracity rl export}: a training file for a trainer from any dataset and any method's role prompt.
 * <ol>
 *   <li>Everything that can be checked before reading the dataset is: the format, the dataset's name and file, the
 *       prompt ({@link RolePrompts}), the method's options, the output's folder and file name, the responses or pairs
 *       file (whole), LLaMA-Factory's existing {@code dataset_info.json}, and that a RAG prompt will have documents.</li>
 *   <li>Each question is read by its dataset's loader, given its documents as {@code eval} gives them
 *       ({@link dev.veracity.eval.run.DocumentSource}: the dataset's, or an index's top k), and turned into the role's
 *       prompts by the method's own code; each prompt is one row (or one per response or pair).</li>
 *   <li>RL rows carry the label ({@link ExportLabel}): the gold answers the evaluation scores against, the known wrong
 *       answers, and the documents (the prompt's; for a closed-book prompt the dataset's own), so
 *       {@code veracity reward} and the reward server score a rollout of the row as {@code eval} would.</li>
 * </ol>
 * The file is written to a temporary file and moved in place at the end: a malformed dataset line (its loader names
 * file and line), an unknown response id or no row at all leaves no output file.
 */
public final class TrainingDataExport {

    /** What was written. */
    public record Summary(ExportFormat format, String prompt, String dataset, long rows, long questions,
                          long withoutPrompt, long withoutGold, long withoutCompletion, long unusedCompletions, Path out,
                          Path datasetInfo) {
    }

    private TrainingDataExport() {
    }

    public static Summary run(ExportSpec s) {
        ExportFormat f = s.format();
        DatasetSpec dataset = Datasets.spec(s.dataset());
        RolePrompts.Selected selected = RolePrompts.select(s.prompt());
        QaMethod method = selected.method();
        Map<String, String> options = method.spec().resolve(s.options()).values();
        Path out = checkOut(s.out(), f);
        if (!Files.isRegularFile(s.data())) {
            throw new BadInputException("no dataset file at " + s.data());
        }
        if (s.limit() < 0) {
            throw new BadInputException("--limit must be >= 0, was " + s.limit());
        }
        if (s.agentName() != null && f != ExportFormat.VERL && f != ExportFormat.VERL_JSONL) {
            throw new BadInputException("--agent-name is a VeRL column; --format " + f.cliName() + " has none");
        }
        if (s.entryName() != null && f != ExportFormat.LLAMAFACTORY) {
            throw new BadInputException("--name names a LLaMA-Factory dataset_info.json entry; --format " + f.cliName()
                    + " writes none");
        }
        CompletionFile completions = completions(s);
        DatasetInfoFile info = f == ExportFormat.LLAMAFACTORY ? DatasetInfoFile.in(out.getParent()) : null;
        s.documents().requireDocuments(method, dataset.name(), s.data());
        PromptContext context = new PromptContext(dataset.name(), dataset.multiAnswer(), options);
        Counts n = new Counts();
        boolean[] system = new boolean[1];
        try (RowSink sink = f == ExportFormat.VERL ? new ParquetSink(out, VerlRow.schema(s.agentName() != null))
                : RowSink.jsonl(out);
             Stream<QaItem> items = Datasets.stream(dataset.name(), s.data())) {
            Iterator<QaItem> it = (s.limit() > 0 ? items.limit(s.limit()) : items).iterator();
            while (it.hasNext()) {
                QaItem raw = it.next();
                n.questions++;
                QaItem item = s.documents().prepare(method, raw).item();
                List<AgentPrompt> prompts = selected.role().build(item, context);
                if (prompts.isEmpty()) {
                    n.withoutPrompt++; // MADAM-RAG on a question without documents: no agent
                    continue;
                }
                List<String> answers = ExportLabel.answers(raw, dataset.multiAnswer());
                ObjectNode label = null;
                if (f.labelled()) {
                    if (answers.isEmpty()) {
                        n.withoutGold++; // nothing to reward against
                        continue;
                    }
                    List<Document> docs = !s.labelDocuments() ? List.of()
                            : method.needs(Capability.DOCUMENTS) ? item.documents() : raw.documents();
                    label = ExportLabel.of(answers, raw.wrong(), docs);
                }
                long before = n.rows;
                for (AgentPrompt p : prompts) {
                    TrainingPrompt row = new TrainingPrompt(dataset.name(), s.split(), n.rows, item, method.name(),
                            selected.role().role(), p, label);
                    if (f.needs() == ExportFormat.Needs.PROMPTS) {
                        sink.write(promptRow(f, row, answers, s.agentName()));
                        n.rows++;
                        continue;
                    }
                    for (CompletionFile.Completion c : completions.take(raw.id(), p.agent(), prompts.size())) {
                        system[0] |= LlamaFactoryRow.hasSystem(p.messages());
                        sink.write(completionRow(f, row, c.texts()));
                        n.rows++;
                    }
                }
                if (completions != null && n.rows == before) {
                    n.withoutCompletion++;
                }
            }
            if (completions != null) {
                n.unused = completions.unused();
                Optional<CompletionFile.Completion> stray = completions.firstUnused();
                if (stray.isPresent() && s.limit() == 0) {
                    throw BadInputException.at(completions.file(), stray.get().line(), "no question of " + s.data()
                            + " has this id" + (stray.get().agent() == null ? "" : " and agent " + stray.get().agent()));
                }
            }
            if (n.rows == 0) {
                throw new BadInputException("no row to write: " + why(n, completions) + "; nothing written to " + out);
            }
            sink.commit();
        }
        Path infoFile = null;
        if (info != null) {
            String name = s.entryName() != null ? s.entryName() : stripExtension(out.getFileName().toString());
            info.put(name, DatasetInfoFile.alpacaEntry(out.getFileName().toString(), s.pairs() != null, system[0]));
            infoFile = info.file();
        }
        return new Summary(f, selected.name(), dataset.name(), n.rows, n.questions, n.withoutPrompt, n.withoutGold,
                n.withoutCompletion, n.unused, out, infoFile);
    }

    private static final class Counts {
        long rows;
        long questions;
        long withoutPrompt;
        long withoutGold;
        long withoutCompletion;
        long unused;
    }

    private static ObjectNode promptRow(ExportFormat f, TrainingPrompt p, List<String> answers, String agentName) {
        return switch (f) {
            case VERL, VERL_JSONL -> VerlRow.of(p, agentName);
            case OPENRLHF -> OpenRlhfRow.of(p);
            case TRL -> TrlRow.prompt(p, answers);
            case SLIME -> SlimeRow.of(p);
            default -> throw new IllegalStateException(f + " is not a prompt format");
        };
    }

    private static ObjectNode completionRow(ExportFormat f, TrainingPrompt p, List<String> texts) {
        boolean pair = texts.size() == 2;
        return switch (f) {
            case TRL_SFT -> TrlRow.sft(p, texts.getFirst());
            case TRL_DPO -> TrlRow.preference(p, texts.get(0), texts.get(1));
            case LLAMAFACTORY -> pair ? LlamaFactoryRow.preference(p, texts.get(0), texts.get(1))
                    : LlamaFactoryRow.sft(p, texts.getFirst());
            default -> throw new IllegalStateException(f + " takes no responses");
        };
    }

    /** The responses or pairs the format needs, read and checked whole; null for RL formats. */
    private static CompletionFile completions(ExportSpec s) {
        ExportFormat f = s.format();
        if (s.responses() != null && s.pairs() != null) {
            throw new BadInputException("give --responses (SFT) or --pairs (preference), not both");
        }
        return switch (f.needs()) {
            case PROMPTS -> {
                if (s.responses() != null || s.pairs() != null) {
                    throw new BadInputException("--format " + f.cliName() + " is RL prompt data (the trainer samples the"
                            + " responses): it takes no --responses or --pairs");
                }
                yield null;
            }
            case RESPONSES -> {
                if (s.responses() == null) {
                    throw new BadInputException("--format " + f.cliName() + " needs --responses FILE: lines {\"id\","
                            + " \"response\"} with the dataset's question ids" + (s.pairs() != null
                            ? " (--pairs is for trl-dpo and llamafactory)" : ""));
                }
                yield CompletionFile.responses(s.responses());
            }
            case PAIRS -> {
                if (s.pairs() == null) {
                    throw new BadInputException("--format " + f.cliName() + " needs --pairs FILE: lines {\"id\", \"chosen\","
                            + " \"rejected\"} with the dataset's question ids");
                }
                yield CompletionFile.pairs(s.pairs());
            }
            case RESPONSES_OR_PAIRS -> {
                if (s.responses() == null && s.pairs() == null) {
                    throw new BadInputException("--format " + f.cliName() + " needs --responses FILE (SFT: lines {\"id\","
                            + " \"response\"}) or --pairs FILE (preference: lines {\"id\", \"chosen\", \"rejected\"})");
                }
                yield s.responses() != null ? CompletionFile.responses(s.responses()) : CompletionFile.pairs(s.pairs());
            }
        };
    }

    /** The output's absolute path, once its folder is known to exist and its name to be one the trainer loads. */
    private static Path checkOut(Path out, ExportFormat f) {
        Path abs = out.toAbsolutePath().normalize();
        Path dir = abs.getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new BadInputException("no folder " + dir + " for --out " + out + " (create it first)");
        }
        if (Files.isDirectory(abs)) {
            throw new BadInputException("--out " + out + " is a folder; name the file to write");
        }
        f.checkFileName(abs);
        return abs;
    }

    private static String why(Counts n, CompletionFile completions) {
        if (n.questions == 0) {
            return "the dataset file has no question";
        }
        if (completions != null) {
            return "none of the " + n.questions + " questions read has a line in " + completions.file();
        }
        return "of the " + n.questions + " questions read, " + n.withoutPrompt + " had no prompt (no documents for the"
                + " agents) and " + n.withoutGold + " no gold answer to put in a label";
    }

    private static String stripExtension(String name) {
        int dot = name.lastIndexOf('.');
        return dot > 0 ? name.substring(0, dot) : name;
    }
}
