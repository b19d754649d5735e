package dev.veracity.text;

import dev.veracity.testing.CpuBudget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * Hostile model outputs for the linear-time property tests of every parser: long runs of whitespace, markers
 * repeated thousands of times, nested and unbalanced brackets and quotes, the shapes that make a backtracking regex
 * take quadratic or exponential time. A string is a few motifs, each repeated up to the target length, so one
 * marker may sit before 100k spaces, or 10k markers may follow each other without the text that would close them.
 */
public final class Adversarial {

    /** Pieces that hurt parsers of answers, lists, reasoning blocks and numbers; callers add their own markers. */
    public static final List<String> COMMON = List.of(" ", "\t", "\n", "\r\n", " \t", "\u00A0", ".", ",", ":", "*",
            "**", "-", "[", "]", "{", "}", "(", ")", "\"", "'", "\u201C", "\u2018", "`", "\\", "1", "9,", "1,000",
            "2.5.", "a", "x ", "<think>", "</think>", "Answer:", "[Answer:", "[Answer: 1", "Answer: ", "Explanation:",
            "All Correct Answers:", "All Correct Answers: [", "1. Evidence:", "Question:", "- Question: ",
            "\\boxed{", "Search[", "Finish[", "\ud800", "\uDC00");

    private Adversarial() {
    }

    /**
     * Strings of about {@code length} characters: one to three motifs from {@link #COMMON} and {@code markers}, each
     * motif a piece repeated, then joined; sometimes a single marker between two long runs.
     */
    public static Arbitrary<String> strings(int length, List<String> markers) {
        List<String> pieces = new ArrayList<>(COMMON);
        pieces.addAll(markers);
        Arbitrary<String> piece = Arbitraries.of(pieces);
        Arbitrary<String> pair = Combinators.combine(piece, piece).as(String::concat);
        Arbitrary<String> unit = Arbitraries.oneOf(piece, pair);
        Arbitrary<List<String>> motifs = unit.list().ofMinSize(1).ofMaxSize(3);
        return motifs.map(ms -> {
            StringBuilder sb = new StringBuilder(length + 64);
            int share = Math.max(1, length / ms.size());
            for (String m : ms) {
                int target = sb.length() + share;
                while (sb.length() < target) {
                    sb.append(m);
                }
            }
            return sb.toString();
        });
    }

    /**
     * Runs {@code parser} on {@code input} and fails when it throws or uses more than {@code bound} of CPU time
     * ({@link CpuBudget}: the work of the parsing thread, which other builds on a busy machine do not inflate as they
     * do wall time). A parser past the bound is abandoned, so the test fails there instead of hanging the build.
     */
    public static void assertFinishes(Function<String, ?> parser, String input, Duration bound) {
        CpuBudget.call(bound, "the parser, on a " + input.length() + "-character input starting " + preview(input),
                () -> parser.apply(input));
    }

    private static String preview(String s) {
        String p = s.length() <= 60 ? s : s.substring(0, 60) + "...";
        return "'" + p.replace("\n", "\\n").replace("\t", "\\t") + "'";
    }
}
