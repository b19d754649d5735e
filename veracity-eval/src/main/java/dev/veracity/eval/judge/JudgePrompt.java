package dev.veracity.eval.judge;

import java.util.Arrays;
import java.util.Locale;

/**
 * Which text TruthRL's judges (the outcome judge {@link CragJudge}, the reasoning judge {@link ReasoningJudge}) send.
 *
 * <ul>
 *   <li>{@link #AUTHORS} (the default): what the authors' released evaluation sends, {@code evaluation/prompts.py}
 *       verbatim as the system message (the instructions and their 36 CRAG examples; 3 for the reasoning judge)
 *       and {@code "Question: {query}\n Ground truth: {gt}\n Prediction: {prediction}\n"} as the user message
 *       ({@code evaluate.py}; the reasoning judge: {@code "Ground Truth"}, {@code "Reasoning"},
 *       {@code truthrl_qa.py}'s {@code compute_process_score}).</li>
 *   <li>{@link #PAPER}: the shorter text the paper prints (Appendix B, Tables 11 and 12) as one user message, its
 *       {@code {examples}} filled with the same authors' examples.</li>
 * </ul>
 */
public enum JudgePrompt {
    AUTHORS, PAPER;

    /** The command-line name: {@code authors} or {@code paper}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The prompt of that command-line name; an unknown one is an error that lists the known ones. */
    public static JudgePrompt byName(String name) {
        for (JudgePrompt p : values()) {
            if (p.label().equalsIgnoreCase(name == null ? "" : name.strip())) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown judge prompt '" + name + "'; known: "
                + String.join(", ", Arrays.stream(values()).map(JudgePrompt::label).toList())
                + " (authors: the authors' released prompts.py, the default; paper: the paper's Tables 11 and 12)");
    }
}
