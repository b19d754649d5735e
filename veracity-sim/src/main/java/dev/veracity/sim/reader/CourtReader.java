package dev.veracity.sim.reader;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reasoning Court and its baselines: the ReAct agent's turn (a few-shot prompt ending in {@code Thought i:}, or
 * ReAct's second call ending in {@code Action i:}), the judge ({@code Complete[...]}), the B.4 debater, the B.5
 * LLM-as-a-judge ({@code [[k]]}), self-refine's feedback and refinement, and MAD's debaters, moderator and judge.
 *
 * <p>The agent is a deterministic researcher: it searches the question's names (capitalised runs and quoted
 * phrases, else its first content words; MuSiQue: the listed paragraph title with the most words in common), follows the first suggestion of a
 * "Similar:" list it has not searched, searches a second name once the first page was found, then finishes with the
 * span of the observed sentence that overlaps the question most (FEVER: a label by overlap with the claim). Each
 * turn goes on with an invented observation, as models do; the request's stop sequence cuts it.
 */
public final class CourtReader implements PromptReader {

    public CourtReader() {
    }

    @Override
    public String name() {
        return "reasoning-court";
    }

    @Override
    public int order() {
        return 20;
    }

    static final String JUDGE = "solutions from different agents addressing";
    static final String DEBATER = "You are tasked with concisely and effectively arguing";
    static final String LLM_JUDGE = "Please act as an impartial judge and evaluate the quality of the answers provided by multiple agents";
    static final String FEEDBACK = "You are reviewing an answer found by a research agent";
    static final String REFINE = "You are improving an answer found by a research agent";
    static final String MAD_DEBATER = "You are a debater. Hello and welcome to the debate.";
    static final String MAD_MODERATOR = "You are a moderator. There are two debaters";
    static final String MAD_JUDGE = "You are the judge of a debate between two debaters";

    private static final Pattern TURN = Pattern.compile("\\n(Thought|Action) (\\d{1,3}):$");
    private static final Pattern SIMILAR = Pattern.compile("Could not find .*?\\. Similar: \\[(.*)\\]\\.$");
    private static final Pattern QUOTED_ITEM = Pattern.compile("'((?:[^'\\\\]|\\\\.)*)'");
    private static final Pattern ACTION = Pattern.compile("(?m)^Action \\d+: (Search|Lookup|Finish)\\[(.*)\\]$");
    private static final Pattern OBSERVATION = Pattern.compile("(?m)^Observation \\d+: (.*)$");
    private static final Pattern FINAL = Pattern.compile("(?m)^Final answer: (.*)$");
    private static final Pattern ANSWER_BLOCK = Pattern.compile("\\[The Start of Agent (\\d+)'s Answer\\]\\n(.*)\\n");
    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}][\\p{L}\\p{N}'.&-]*");
    private static final Set<String> QUESTION_WORDS = Set.of("who", "what", "which", "where", "when", "why", "how",
            "the", "a", "an", "is", "are", "was", "were", "did", "does", "do", "in", "of", "for");

    @Override
    public Optional<String> read(String p) {
        String t = p.stripTrailing();
        Matcher turn = TURN.matcher(t.length() > 40 ? t.substring(t.length() - 40) : t);
        if (turn.find() && p.contains("\nObservation 1: ") && p.contains("Action 1: ")) {
            return Optional.of(agent(t, turn.group(1).equals("Action"), Integer.parseInt(turn.group(2))));
        }
        if (p.startsWith("You are given ") && p.contains(JUDGE)) {
            return Optional.of(judge(p));
        }
        if (p.startsWith(DEBATER)) {
            String answer = Text.lastLine(p, "\nYour final answer:");
            String evidence = bestObservation(Text.lastLine(p, "\nQuestion:"), observations(p));
            return Optional.of("My final answer, " + answer + ", is correct: my research found \"" + evidence + "\"");
        }
        if (p.startsWith(LLM_JUDGE)) {
            Matcher m = ANSWER_BLOCK.matcher(p);
            while (m.find()) {
                if (!m.group(2).strip().equals("(no answer)")) {
                    return Optional.of("Agent " + m.group(1) + "'s answer addresses the question. [[" + m.group(1) + "]]");
                }
            }
            return Optional.of("No agent answered. [[1]]");
        }
        if (p.startsWith(FEEDBACK)) {
            boolean none = Text.lastLine(p, "\nProposed answer:").equals("(none)");
            return Optional.of(none ? "There is no answer yet.\nVerdict: refine" : "The answer matches the research.\nVerdict: correct");
        }
        if (p.startsWith(REFINE)) {
            String q = Text.lastLine(p, "\nQuestion:");
            return Optional.of("From the research:\nAnswer: " + finish(q, observations(p), p.contains("SUPPORTS, REFUTES")));
        }
        if (p.startsWith(MAD_DEBATER)) {
            String q = Text.lastLine(p, "\nQuestion:");
            String a = p.contains("SUPPORTS, REFUTES") ? "NOT ENOUGH INFO" : BaselineReader.guess(q);
            return Optional.of("I considered the question.\nAnswer: " + a);
        }
        if (p.startsWith(MAD_MODERATOR) || p.startsWith(MAD_JUDGE)) {
            String affirmative = Text.between(p, "\nAffirmative side arguing:", "\nNegative side arguing:");
            String a = Text.lastLine(affirmative, "Answer:");
            String answer = a.isEmpty() ? Text.UNKNOWN : a;
            return Optional.of(p.startsWith(MAD_MODERATOR) ? "Preference: Yes\nSupported Side: Affirmative\nAnswer: " + answer
                    : "The affirmative side is better supported.\nAnswer: " + answer);
        }
        return Optional.empty();
    }

    /** The agent's next turn ({@code actionOnly}: ReAct's second call, the action alone). */
    private static String agent(String p, boolean actionOnly, int step) {
        int q = Math.max(p.lastIndexOf("\nQuestion: "), p.lastIndexOf("\nClaim: "));
        boolean fever = p.lastIndexOf("\nClaim: ") == q;
        String episode = p.substring(q + 1);
        String question = Text.lastLine(episode.substring(0, Math.min(episode.length(), episode.indexOf('\n') < 0
                ? episode.length() : episode.indexOf('\n'))), fever ? "Claim:" : "Question:");
        List<String> titles = items(Text.lastLine(episode, "Paragraph titles:"));
        Set<String> searched = new LinkedHashSet<>();
        Matcher a = ACTION.matcher(episode);
        while (a.find()) {
            if (!a.group(1).equals("Finish")) {
                searched.add(a.group(2).toLowerCase(Locale.ROOT));
            }
        }
        List<String> obs = new ArrayList<>();
        String last = "";
        Matcher o = OBSERVATION.matcher(episode);
        while (o.find()) {
            last = o.group(1).strip();
            if (!last.startsWith("Could not find") && !last.startsWith("Invalid action") && !last.startsWith("No more")
                    && !last.startsWith("No page")) {
                obs.add(last);
            }
        }
        String thought;
        String action;
        List<String> names = titles.isEmpty() ? names(question) : byOverlap(question, titles);
        if (names.isEmpty() && titles.isEmpty()) {
            names = List.of(keywords(question)); // no name to search: its content words, for the Similar list
        }
        Matcher similar = SIMILAR.matcher(last);
        String next = null;
        if (similar.find()) {
            next = items("[" + similar.group(1) + "]").stream().filter(s -> !searched.contains(s.toLowerCase(Locale.ROOT)))
                    .findFirst().orElse(null);
        }
        if (next == null && obs.size() < 2 && step < 5) {
            next = names.stream().filter(s -> !searched.contains(s.toLowerCase(Locale.ROOT))).findFirst().orElse(null);
            if (next != null && !obs.isEmpty() && titles.isEmpty() && names.indexOf(next) == 0) {
                next = null; // the first name was found under another title: no need to search it again
            }
        }
        if (next != null) {
            thought = "I need to search " + next + " to find out more.";
            action = (titles.isEmpty() ? "Search[" : "Lookup[") + next + "]";
        } else {
            String answer = finish(question, obs, fever);
            thought = obs.isEmpty() ? "I could not find the information, so I will give my best guess."
                    : "The observations answer it: " + answer + ".";
            action = "Finish[" + answer + "]";
        }
        if (actionOnly) {
            return " " + action;
        }
        return " " + thought + "\nAction " + step + ": " + action + "\nObservation " + step + ": (the reader imagines one)";
    }

    /** The answer from the observations: a label for a claim, else the best sentence's span, else "unknown". */
    private static String finish(String question, List<String> observations, boolean fever) {
        List<Text.Doc> docs = new ArrayList<>();
        for (int i = 0; i < observations.size(); i++) {
            docs.add(new Text.Doc(i + 1, observations.get(i).replaceFirst("^\\(Result \\d+ / \\d+\\) ", "")));
        }
        if (fever) {
            Text.Hit h = docs.isEmpty() ? null : Text.best(question, docs);
            int words = Text.words(question).size();
            return h == null ? "NOT ENOUGH INFO" : h.score() * 2 >= words ? "SUPPORTS" : "REFUTES";
        }
        return docs.isEmpty() ? Text.UNKNOWN : Text.answer(question, docs);
    }

    private static String judge(String p) {
        boolean fever = p.contains("must be SUPPORTS, REFUTES, or NOT ENOUGH INFO");
        int qAt = p.indexOf(fever ? "\n\nClaim: " : "\n\nQuestion: ");
        String question = qAt < 0 ? "" : Text.lastLine(p.substring(0, p.indexOf('\n', qAt + 2) < 0 ? p.length()
                : p.indexOf('\n', qAt + 2)), fever ? "Claim:" : "Question:");
        List<String> answers = new ArrayList<>();
        Matcher f = FINAL.matcher(p);
        while (f.find()) {
            String a = f.group(1).strip();
            answers.add(a.startsWith("(none") ? "" : a);
        }
        for (int i = 0; i < answers.size(); i++) {
            if (!answers.get(i).isEmpty() && !answers.get(i).equalsIgnoreCase(Text.UNKNOWN)) {
                return "Agent " + (i + 1) + "'s answer follows from its observations.\nAction: Complete[" + answers.get(i) + "]";
            }
        }
        String synthesised = finish(question, observations(p), fever);
        return "No agent answered; from the evidence they gathered.\nAction: Complete[" + synthesised + "]";
    }

    private static List<String> observations(String p) {
        List<String> out = new ArrayList<>();
        Matcher o = OBSERVATION.matcher(p);
        while (o.find()) {
            String s = o.group(1).strip();
            if (!s.startsWith("Could not find") && !s.startsWith("Invalid action") && !s.startsWith("No more")
                    && !s.startsWith("Episode finished") && !s.startsWith("No page")) {
                out.add(s);
            }
        }
        return out;
    }

    private static String bestObservation(String question, List<String> observations) {
        List<Text.Doc> docs = new ArrayList<>();
        for (int i = 0; i < observations.size(); i++) {
            docs.add(new Text.Doc(i + 1, observations.get(i)));
        }
        Text.Hit h = docs.isEmpty() ? null : Text.best(question, docs);
        return h == null ? "nothing more" : Text.brief(h.sentence(), 300);
    }

    /** Up to six content words of the question, in order: what to search when it names nothing. */
    static String keywords(String question) {
        List<String> out = new ArrayList<>();
        Matcher w = WORD.matcher(question);
        while (w.find() && out.size() < 6) {
            String word = w.group();
            if (!Text.words(word).isEmpty() && !QUESTION_WORDS.contains(word.toLowerCase(Locale.ROOT))) {
                out.add(word);
            }
        }
        return out.isEmpty() ? Text.UNKNOWN : String.join(" ", out);
    }

    /** The items of a Python list of quoted strings. */
    private static List<String> items(String list) {
        List<String> out = new ArrayList<>();
        Matcher m = QUOTED_ITEM.matcher(list);
        while (m.find()) {
            out.add(m.group(1).replace("\\'", "'"));
        }
        return out;
    }

    /** The titles ordered by how many words they share with the question (most first, ties in list order). */
    private static List<String> byOverlap(String question, List<String> titles) {
        Set<String> q = Text.words(question);
        List<String> sorted = new ArrayList<>(titles);
        sorted.sort((x, y) -> Integer.compare(Text.overlap(q, y), Text.overlap(q, x)));
        return sorted.stream().filter(t -> Text.overlap(q, t) > 0).toList();
    }

    /** The question's names: quoted phrases, then runs of capitalised words (question words left out). */
    static List<String> names(String question) {
        Set<String> out = new LinkedHashSet<>();
        Matcher quoted = Pattern.compile("\"([^\"]{2,80})\"").matcher(question);
        while (quoted.find()) {
            out.add(quoted.group(1).strip());
        }
        Matcher w = WORD.matcher(question);
        List<String> run = new ArrayList<>();
        int lastEnd = -1;
        while (w.find()) {
            String word = w.group();
            boolean cap = Character.isUpperCase(word.charAt(0)) || Character.isDigit(word.charAt(0)) && !run.isEmpty();
            boolean adjacent = lastEnd >= 0 && question.substring(lastEnd, w.start()).isBlank();
            boolean questionWord = run.isEmpty() && QUESTION_WORDS.contains(word.toLowerCase(Locale.ROOT));
            if (cap && !questionWord && (run.isEmpty() || adjacent)) {
                run.add(word);
            } else {
                if (!run.isEmpty()) {
                    out.add(String.join(" ", run));
                    run.clear();
                }
                if (cap && !questionWord) {
                    run.add(word);
                }
            }
            lastEnd = w.end();
        }
        if (!run.isEmpty()) {
            out.add(String.join(" ", run));
        }
        List<String> names = new ArrayList<>();
        for (String n : out) {
            String s = n.replaceAll("[.'-]+$", "");
            if (!s.isEmpty()) {
                names.add(s);
            }
        }
        return names;
    }
}
