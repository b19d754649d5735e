package dev.veracity.eval.judge;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a one-word verdict (True/False, Yes/No) from a judge output that may be verbose. Total: any string gives
 * a result.
 *
 * <p>The output is first cleaned: {@code <think>...</think>} blocks are dropped (a reasoning model's deliberation
 * is not its verdict), markdown emphasis and double quotes ({@code * _ ` "} and leading '#' heading marks) are removed, and option
 * lists such as "True/False" or "True or False" (an echo of the instruction) are blanked. Then, in order:
 * <ol>
 *   <li><b>Labelled</b>: the <em>last</em> verdict word that follows a label, e.g. "Answer: False", "Final answer:
 *       True", "Verdict - yes", "The answer is **True**" (labels: answer, final answer, verdict, judgment,
 *       judgement, result, output, decision, conclusion, grade, evaluation; optional "is", ':', '-', '='). The last
 *       label wins because models state the final verdict after their reasoning.</li>
 *   <li><b>Leading</b>: the cleaned output starts with a verdict word ("True.", "false", "No, they differ").</li>
 *   <li><b>Anywhere</b> (only when {@code anywhere} is set, as for True/False): the first standalone verdict word.
 *       "not true" / "isn't true" / "not entirely true" (one word between) counts as the negative word; a negated negative word ("not false") is
 *       ambiguous and gives UNPARSEABLE. Yes/No judges do not use this rule: "no" is too common in prose ("there
 *       is no difference") to be read as a verdict.</li>
 *   <li>Otherwise UNPARSEABLE.</li>
 * </ol>
 * Words match whole words only, case-insensitively ("untrue", "trueness", "true_answer" do not match).
 *
 * <p>Linear time: white space between a label and its verdict is matched possessively ({@code \s*+}), since what
 * follows it never starts with white space, so a label before 100k spaces is not retried at every split.
 */
public final class BinaryVerdictParser {

    private static final Pattern THINK = Pattern.compile("(?is)<think>.*?(</think>|$)");
    private static final Pattern MARKUP = Pattern.compile("[*_`\"\u201c\u201d]");
    private static final Pattern HEADING = Pattern.compile("(?m)^[ \t]*#{1,6}");
    private static final String LABELS =
            "(?:final\\s+answer|answer|verdict|judg(?:e)?ment|result|output|decision|conclusion|grade|evaluation)";

    /** True/False, the first standalone word counting. */
    public static final BinaryVerdictParser TRUE_FALSE = new BinaryVerdictParser("true", "false", true);
    /** Yes/No, labelled or leading only. */
    public static final BinaryVerdictParser YES_NO = new BinaryVerdictParser("yes", "no", false);

    private final String positive;
    private final String negative;
    private final boolean anywhere;
    private final Pattern options;
    private final Pattern labelled;
    private final Pattern leading;
    private final Pattern word;

    public BinaryVerdictParser(String positive, String negative, boolean anywhere) {
        this.positive = positive.toLowerCase(Locale.ROOT);
        this.negative = negative.toLowerCase(Locale.ROOT);
        this.anywhere = anywhere;
        String p = Pattern.quote(this.positive);
        String n = Pattern.quote(this.negative);
        String either = "(" + p + "|" + n + ")";
        this.options = Pattern.compile("(?i)\\b(?:" + p + "\\s*+(?:/|\\bor\\b)\\s*+" + n + "|" + n + "\\s*+(?:/|\\bor\\b)\\s*+"
                + p + ")\\b");
        this.labelled = Pattern.compile("(?i)\\b" + LABELS + "\\s*+(?:is\\s*+)?[:=\\-]?\\s*+(?:is\\s++)?" + either + "\\b");
        this.leading = Pattern.compile("(?i)^\\W*+" + either + "\\b");
        this.word = Pattern.compile("(?i)(\\bnot\\s++(?:\\w++\\s++)?|n['\u2019]t\\s++(?:\\w++\\s++)?)?\\b" + either + "\\b");
    }

    public Parsed parse(String output) {
        if (output == null || output.isBlank()) {
            return Parsed.unparseable("empty");
        }
        try {
            return parseChecked(output);
        } catch (RuntimeException e) {
            return Parsed.unparseable("error: " + e.getClass().getSimpleName());
        }
    }

    private Parsed parseChecked(String output) {
        String s = THINK.matcher(output).replaceAll(" ");
        s = MARKUP.matcher(s).replaceAll("");
        s = HEADING.matcher(s).replaceAll("");
        s = options.matcher(s).replaceAll(" ");
        String explanation = output.strip();
        Matcher m = labelled.matcher(s);
        String last = null;
        while (m.find()) {
            last = m.group(1);
        }
        if (last != null) {
            return Parsed.of(isPositive(last), explanation, "labelled");
        }
        m = leading.matcher(s);
        if (m.find()) {
            return Parsed.of(isPositive(m.group(1)), explanation, "leading");
        }
        if (anywhere) {
            m = word.matcher(s);
            if (m.find()) {
                boolean negated = m.group(1) != null;
                boolean pos = isPositive(m.group(2));
                if (negated && !pos) {
                    return Parsed.unparseable("negated " + negative);
                }
                return Parsed.of(pos && !negated, explanation, negated ? "negated" : "anywhere");
            }
        }
        return Parsed.unparseable("no " + positive + "/" + negative);
    }

    private boolean isPositive(String w) {
        return w.toLowerCase(Locale.ROOT).equals(positive);
    }
}
