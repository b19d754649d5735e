package dev.veracity.methods.march;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The function A(lambda) of section 2.2: one Checker sample to answers keyed by question number. The authors parse
 * {@code (\d+)\.\s*Evidence:\s*(.*?)\s*\[Answer:\s*(.*?)\]} (DOTALL); this parser also reads "1)" and "Question 1:"
 * numbering, bold markers, a bare "Answer: 52" (as the Checker writes it in Appendix C) and entries on one line or
 * many. Answers are keyed by the number the Checker wrote: the authors' code keys by position when the output does
 * not start with "1.", which shifts every answer; we do not copy that. A number given twice is ambiguous and is
 * dropped (it counts as missing, a mismatch), so quoted text that imitates the format cannot add a confirmation.
 * Only unnumbered outputs fall back to position, and say so. Total: never throws.
 */
public final class CheckerOutputParser {

    /** "3. Evidence:", "3) [Answer:", "Question 3: Evidence:" — a number that opens an entry. */
    private static final Pattern ENTRY = Pattern.compile(
            "(?i)(?<![\\w.,%-])(?:question\\s*)?(\\d{1,3})\\s*[.):\uFF1A]\\s*(?=evidence\\b|\\[?\\s*answer\\s*[:\uFF1A])");
    private static final Pattern EVIDENCE = Pattern.compile("(?i)^\\s*evidence\\s*[:\uFF1A]?");

    private CheckerOutputParser() {
    }

    public static CheckerOutput parse(String output) {
        String text = ParseText.plain(output);
        List<String> problems = new ArrayList<>();
        List<int[]> entries = new ArrayList<>(); // {number, headerStart, bodyStart}
        Matcher e = ENTRY.matcher(text);
        while (e.find()) {
            try {
                entries.add(new int[] {Integer.parseInt(e.group(1)), e.start(), e.end()});
            } catch (NumberFormatException ignored) {
                // \d{1,3} always parses
            }
        }
        Map<Integer, CheckerAnswer> answers = new LinkedHashMap<>();
        if (entries.isEmpty()) {
            return positional(text, problems);
        }
        Set<Integer> ambiguous = new HashSet<>();
        for (int i = 0; i < entries.size(); i++) {
            int number = entries.get(i)[0];
            int end = i + 1 < entries.size() ? entries.get(i + 1)[1] : text.length();
            String body = text.substring(entries.get(i)[2], end);
            CheckerAnswer a = entry(number, body);
            if (a == null) {
                problems.add("checker: entry " + number + " has no answer: '" + ClaimParser.abbreviate(body.strip()) + "'");
                continue;
            }
            if (answers.containsKey(number) || ambiguous.contains(number)) {
                ambiguous.add(number);
                answers.remove(number);
                continue;
            }
            answers.put(number, a);
        }
        for (int n : ambiguous) {
            problems.add("checker: answer " + n + " given more than once; counted as missing");
        }
        return new CheckerOutput(answers, problems);
    }

    /** The last answer marker of the entry (evidence may mention the word "answer" before it). */
    private static CheckerAnswer entry(int number, String body) {
        Matcher a = ParseText.ANSWER.matcher(body);
        int start = -1;
        String answer = null;
        while (a.find()) {
            start = a.start();
            answer = ParseText.answerOf(a);
        }
        if (answer == null || answer.isEmpty()) {
            return null;
        }
        String evidence = EVIDENCE.matcher(body.substring(0, start)).replaceFirst("");
        return new CheckerAnswer(number, ParseText.cleanText(evidence), answer);
    }

    private static CheckerOutput positional(String text, List<String> problems) {
        Map<Integer, CheckerAnswer> answers = new LinkedHashMap<>();
        Matcher a = ParseText.ANSWER.matcher(text);
        int from = 0;
        while (a.find()) {
            String answer = ParseText.answerOf(a);
            String evidence = ParseText.cleanText(EVIDENCE.matcher(text.substring(from, a.start())).replaceFirst(""));
            from = a.end();
            if (!answer.isEmpty()) {
                int n = answers.size() + 1;
                answers.put(n, new CheckerAnswer(n, evidence, answer));
            }
        }
        if (answers.isEmpty()) {
            if (!text.isBlank()) {
                problems.add("checker: no answers in the output: '" + ClaimParser.abbreviate(text) + "'");
            }
        } else {
            problems.add("checker: answers are not numbered; keyed by position");
        }
        return new CheckerOutput(answers, problems);
    }
}
