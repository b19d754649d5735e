package dev.veracity.methods.march;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The function Q(tau) of section 2.2: the Proposer's output to question-answer pairs. The authors parse
 * {@code -\s*Question:\s*(.*?)\s*\[Answer:\s*(.*?)\]}; this parser generalises it to what models write: any bullet
 * or numbering (or none), "Question 2:", bold markers, the answer bracketed or bare, pairs on one line or many.
 * Total: any string gives a result; pairs it cannot read are listed as problems.
 */
public final class ClaimParser {

    private static final Pattern QUESTION = Pattern.compile("(?i)(?<![\\w])question\\s*\\d{0,3}\\s*[:\uFF1A]");

    private ClaimParser() {
    }

    /** The pairs, numbered from 1 in order, and what could not be read. */
    public static Result parse(String output) {
        String text = ParseText.plain(output);
        List<Integer> starts = new ArrayList<>();
        List<Integer> bodies = new ArrayList<>();
        Matcher q = QUESTION.matcher(text);
        while (q.find()) {
            starts.add(q.start());
            bodies.add(q.end());
        }
        List<Claim> claims = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        if (starts.isEmpty()) {
            if (!text.isBlank()) {
                problems.add("proposer: no 'Question:' in the output: '" + abbreviate(text) + "'");
            }
            return new Result(claims, problems);
        }
        for (int i = 0; i < starts.size(); i++) {
            int end = i + 1 < starts.size() ? starts.get(i + 1) : text.length();
            String segment = text.substring(bodies.get(i), end);
            Matcher a = ParseText.ANSWER.matcher(segment);
            if (!a.find()) {
                problems.add("proposer: question without an answer: '" + abbreviate(segment.strip()) + "'");
                continue;
            }
            String question = ParseText.cleanText(segment.substring(0, a.start()));
            String answer = ParseText.answerOf(a);
            if (question.isEmpty() || answer.isEmpty()) {
                problems.add("proposer: empty question or answer: '" + abbreviate(segment.strip()) + "'");
                continue;
            }
            claims.add(new Claim(claims.size() + 1, question, answer));
        }
        return new Result(claims, problems);
    }

    static String abbreviate(String s) {
        String t = s.replaceAll("\\s+", " ");
        return t.length() <= 160 ? t : t.substring(0, 157) + "...";
    }

    /** The parsed pairs and the problems met. */
    public record Result(List<Claim> claims, List<String> problems) {
        public Result {
            claims = List.copyOf(claims);
            problems = List.copyOf(problems);
        }
    }
}
