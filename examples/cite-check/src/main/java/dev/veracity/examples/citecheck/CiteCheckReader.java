package dev.veracity.examples.citecheck;

import dev.veracity.sim.reader.PromptReader;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The simulator's reader of cite-check's prompt, so that {@code veracity sim}, {@code demo} and the tests answer it
 * in its format without scripted rules. Like the simulator's own readers it measures plumbing, not model quality: it
 * cites the passage sharing the most words with the question and answers with a number (for "when" / "what year" /
 * "how many") or else a capitalised phrase of it that the question does not contain; "unknown" when no passage shares
 * a word. Linear in the prompt's length.
 */
public final class CiteCheckReader implements PromptReader {

    /** The first line of the prompt ({@code answer.txt}): the phrase the reader recognises. */
    static final String OPENING = "Answer the question using only the numbered passages below.";

    private static final Set<String> STOP = Set.of("the", "a", "an", "of", "in", "on", "at", "to", "is", "was", "what",
            "which", "who", "when", "where", "how", "did", "does", "do", "for", "by", "and", "or", "it", "its", "year");

    @Override
    public String name() {
        return "cite-check";
    }

    /** Before the baselines' reader, the most general of the project's. */
    @Override
    public int order() {
        return BASELINES - 10;
    }

    @Override
    public Optional<String> read(String prompt) {
        if (!prompt.startsWith(OPENING)) {
            return Optional.empty();
        }
        // The question is the prompt's last "Question:" line: passages come before it and cannot move it.
        int q = prompt.lastIndexOf("\nQuestion: ");
        int p = prompt.indexOf("\nPassages:\n");
        if (q < 0 || p < 0 || p > q) {
            return Optional.empty();
        }
        String question = prompt.substring(q + "\nQuestion: ".length()).strip();
        Set<String> asked = words(question);
        List<String> passages = prompt.substring(p + "\nPassages:\n".length(), q).strip().lines().toList();
        int best = -1;
        int bestOverlap = 0;
        for (int i = 0; i < passages.size(); i++) {
            int overlap = 0;
            for (String w : words(passages.get(i))) {
                if (asked.contains(w)) {
                    overlap++;
                }
            }
            if (overlap > bestOverlap) {
                best = i;
                bestOverlap = overlap;
            }
        }
        if (best < 0) {
            return Optional.of("Answer: unknown\nEvidence: []");
        }
        String passage = passages.get(best).replaceFirst("^\\[\\d{1,9}\\] ", "");
        String lower = question.toLowerCase(Locale.ROOT);
        boolean number = lower.startsWith("when") || lower.contains("what year") || lower.startsWith("how many");
        String answer = number ? firstNumber(passage) : capitalisedPhrase(passage, asked);
        return Optional.of(answer.isEmpty() ? "Answer: unknown\nEvidence: []"
                : "Answer: " + answer + "\nEvidence: [" + (best + 1) + "]");
    }

    private static Set<String> words(String text) {
        Set<String> out = new HashSet<>();
        for (String w : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
            if (!w.isEmpty() && !STOP.contains(w)) {
                out.add(w);
            }
        }
        return out;
    }

    private static String firstNumber(String passage) {
        for (String token : passage.split("[^0-9]+")) {
            if (!token.isEmpty()) {
                return token;
            }
        }
        return "";
    }

    /** The first run of capitalised words (joined by "da", "de", "of" and the like) none of which the question has. */
    private static String capitalisedPhrase(String passage, Set<String> asked) {
        String[] tokens = passage.split("[\\s,.;:!?()\"]+");
        StringBuilder phrase = new StringBuilder();
        for (int i = 0; i < tokens.length; i++) {
            String t = tokens[i];
            boolean capital = !t.isEmpty() && Character.isUpperCase(t.charAt(0)) && i > 0
                    && !asked.contains(t.toLowerCase(Locale.ROOT));
            boolean joiner = phrase.length() > 0 && Set.of("da", "de", "di", "von", "van", "of").contains(t)
                    && i + 1 < tokens.length && !tokens[i + 1].isEmpty() && Character.isUpperCase(tokens[i + 1].charAt(0));
            if (capital || joiner) {
                phrase.append(phrase.length() > 0 ? " " : "").append(t);
            } else if (phrase.length() > 0) {
                break;
            }
        }
        return phrase.toString();
    }
}
