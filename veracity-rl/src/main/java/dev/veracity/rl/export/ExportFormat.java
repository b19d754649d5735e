package dev.veracity.rl.export;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The training-data files we write, one per trainer convention, with what each needs besides the prompts and the file
 * names the trainer's loader accepts (it picks its reader by extension and refuses others).
 */
public enum ExportFormat {

    /** VeRL RL parquet; {@code verl/utils/dataset/rl_dataset.py} reads {@code .parquet} or {@code .json} (l. 157-162). */
    VERL("verl", Needs.PROMPTS, List.of(".parquet")),
    /** The same rows as JSON Lines; VeRL takes them only under a {@code .json} name (datasets' json reader). */
    VERL_JSONL("verl-jsonl", Needs.PROMPTS, List.of(".json")),
    /** {@code openrlhf/datasets/utils.py} (l. 51) loads {@code .json}/{@code .jsonl}. */
    OPENRLHF("openrlhf", Needs.PROMPTS, List.of(".jsonl", ".json")),
    /** TRL GRPO/RLOO prompt-only data; TRL loads any file the user names, so no extension is imposed. */
    TRL("trl", Needs.PROMPTS, List.of()),
    TRL_DPO("trl-dpo", Needs.PAIRS, List.of()),
    TRL_SFT("trl-sft", Needs.RESPONSES, List.of()),
    /** LLaMA-Factory alpaca; {@code FILEEXT2TYPE} maps {@code json}/{@code jsonl} to its json reader. */
    LLAMAFACTORY("llamafactory", Needs.RESPONSES_OR_PAIRS, List.of(".jsonl", ".json")),
    /** slime's {@code read_file} (slime/utils/data.py) reads JSON Lines only from a {@code .jsonl} name. */
    SLIME("slime", Needs.PROMPTS, List.of(".jsonl"));

    /** What a format needs besides the prompts. */
    public enum Needs {
        /** Prompts and labels only (RL: the trainer samples the responses). */
        PROMPTS,
        /** A response per prompt ({@code --responses}): supervised fine-tuning. */
        RESPONSES,
        /** A chosen and a rejected response per prompt ({@code --pairs}): preference training. */
        PAIRS,
        /** Either: LLaMA-Factory's SFT or its preference data. */
        RESPONSES_OR_PAIRS
    }

    private final String cliName;
    private final Needs needs;
    private final List<String> extensions;

    ExportFormat(String cliName, Needs needs, List<String> extensions) {
        this.cliName = cliName;
        this.needs = needs;
        this.extensions = extensions;
    }

    public String cliName() {
        return cliName;
    }

    public Needs needs() {
        return needs;
    }

    /** Whether a row carries a label the reward core reads (the RL formats). */
    public boolean labelled() {
        return needs == Needs.PROMPTS;
    }

    /** The format of that name; an unknown one is an IllegalArgumentException listing the known ones. */
    public static ExportFormat of(String name) {
        String n = name == null ? "" : name.strip().toLowerCase(Locale.ROOT);
        for (ExportFormat f : values()) {
            if (f.cliName.equals(n)) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown format '" + name + "'; known: "
                + String.join(", ", Arrays.stream(values()).map(ExportFormat::cliName).toList()));
    }

    /** Refuses an output name the trainer would not load, saying which it takes. */
    void checkFileName(Path out) {
        if (extensions.isEmpty()) {
            return;
        }
        String name = String.valueOf(out.getFileName());
        if (extensions.stream().noneMatch(name::endsWith)) {
            throw new IllegalArgumentException("--format " + cliName + " writes a file its trainer loads only under a name"
                    + " ending in " + String.join(" or ", extensions) + " (" + why() + "), not " + name);
        }
    }

    private String why() {
        return switch (this) {
            case VERL -> "VeRL picks its reader by extension";
            case VERL_JSONL -> "VeRL reads JSON Lines from .json files, through datasets' json reader";
            case OPENRLHF -> "OpenRLHF loads local .json/.jsonl files";
            case LLAMAFACTORY -> "LLaMA-Factory maps json and jsonl to its json reader";
            case SLIME -> "slime reads .jsonl or .parquet prompt data";
            default -> "";
        };
    }
}
