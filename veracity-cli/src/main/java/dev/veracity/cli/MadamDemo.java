package dev.veracity.cli;

import dev.veracity.llm.client.LlmClient;
import dev.veracity.method.MethodContext;
import dev.veracity.methods.madam.AgentOutput;
import dev.veracity.methods.madam.Debate;
import dev.veracity.methods.madam.MadamSettings;
import dev.veracity.methods.madam.Round;
import dev.veracity.methods.madam.Transcript;
import dev.veracity.qa.Document;
import dev.veracity.qa.QaItem;
import dev.veracity.sim.Rule;
import dev.veracity.sim.RuleMatch;
import dev.veracity.trace.CallContext;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Map.Entry;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One RAMDocs question through MADAM-RAG, printed as a debate (per round: each agent's answer and explanation,
 * then the aggregator's answers), and the simulator rules under which a scripted model debates plausibly.
 */
final class MadamDemo {

    private static final Pattern AGENT_QUESTION = Pattern.compile("(?s)^You are an agent reading a document.*?\\nQuestion: (.*?)\\n\\nDocument: (.*?)\\n\\n");
    private static final Pattern YEAR = Pattern.compile("\\b(1\\d{3}|20\\d{2})\\b");
    private static final Pattern NUMBER = Pattern.compile("\\b\\d[\\d,.]*\\d(?:\\s+(?:people|inhabitants|residents|km|miles|m))?\\b|\\b\\d\\b");
    private static final Pattern NAME = Pattern.compile("\\b[A-Z][a-z]+(?:\\s+(?:[A-Z][a-z]+|[A-Z]\\.|de|van|von|of))*\\s+[A-Z][a-z]+\\b|\\b[A-Z][a-z]{2,}\\b");
    private static final Pattern COUNT = Pattern.compile(
            "((?:\\d[\\d,]*\\d|\\d)\\s+(?:people|persons|residents|inhabitants|citizens))\\b|population (?:was|is|of) (?:about )?(\\d[\\d,]*\\d)");
    private static final Pattern AGENT_ANSWER = Pattern.compile("(?m)^Agent \\d+: Answer: (.*?)\\. Explanation:");

    private MadamDemo() {
    }

    /** Runs the debate on {@code item} and prints it; calls are traced under {@code runId}. */
    static Transcript run(PrintStream out, LlmClient client, String runId, QaItem item) {
        MethodContext ctx = new MethodContext(client, CallContext.of(runId, item.id(), "madam-rag"), "ramdocs", true, Map.of());
        Transcript t = new Debate(MadamSettings.DEFAULT).run(item, ctx);
        out.println("== MADAM-RAG: " + item.question());
        for (int i = 0; i < item.documents().size(); i++) {
            Document d = item.documents().get(i);
            String label = d.label("type") == null ? "" : " [" + d.label("type") + "]";
            out.printf(Locale.ROOT, "   document %d%s: %s%n", i + 1, label, abbreviate(d.text(), 110));
        }
        for (Round r : t.rounds()) {
            out.println("-- round " + r.number());
            for (int i = 0; i < r.agents().size(); i++) {
                AgentOutput a = r.agents().get(i);
                out.printf(Locale.ROOT, "   agent %d: %s  (%s)%n", i + 1, a.answer().isEmpty() ? "<no answer>" : a.answer(),
                        abbreviate(a.explanation(), 90));
            }
            out.println(r.aggregation() == null
                    ? "   agents kept their answers: the debate stops, round " + (r.number() - 1) + "'s aggregation is final"
                    : "   aggregator: " + r.aggregation().answers() + "  (" + abbreviate(r.aggregation().explanation(), 90) + ")");
        }
        out.println("== final: " + t.result().prediction());
        if (!item.gold().isEmpty()) {
            out.println("   gold: " + item.goldTexts() + (item.wrong().isEmpty() ? "" : "   misinformation: " + item.wrong()));
        }
        if (!t.parseFailures().isEmpty()) {
            out.println("   parse failures: " + t.parseFailures());
        }
        return t;
    }

    /** The paper's running example (Figure 2): two valid birth years, one misinformation document, one noise. */
    static QaItem sampleItem() {
        return new QaItem("mj", "In which year was Michael Jordan born?", List.of(
                new Document("1", "", "Michael Jeffrey Jordan (born February 17, 1963) is an American former professional basketball player.", Map.of("type", "correct")),
                new Document("2", "", "Michael Irwin Jordan (born February 25, 1956) is an American scientist at the University of California, Berkeley.", Map.of("type", "correct")),
                new Document("3", "", "Michael Jeffrey Jordan was born in 1963 in Brooklyn, New York City, and played for the Chicago Bulls.", Map.of("type", "correct")),
                new Document("4", "", "Michael Jeffrey Jordan was born at Cumberland Hospital in Brooklyn on February 17, 1998.", Map.of("type", "misinfo")),
                new Document("5", "", "Jordan played college basketball with the North Carolina Tar Heels.", Map.of("type", "noise"))),
                List.of(dev.veracity.qa.GoldAnswer.of("1963"), dev.veracity.qa.GoldAnswer.of("1956")), List.of("1998"), null, Map.of(), null);
    }

    /**
     * A scripted model: an agent answers from its own document (a year for "when / what year" questions, a number
     * for "how many / population" questions, else the first name-like phrase not in the question; "unknown" when
     * the document has none), so it keeps its answer in round 2; the aggregator lists the agents' answers that at
     * least two agents give, or every answer when none has two (misinformation here has fewer supporting documents
     * than the truth), "unknown" left out.
     */
    static List<Rule> simRules() {
        return List.of(Rule.of("(?s)^You are an agent reading a document", MadamDemo::agent),
                Rule.of("(?s)^You are an aggregator reading answers from multiple agents", MadamDemo::aggregator));
    }

    static String agent(RuleMatch m) {
        Matcher q = AGENT_QUESTION.matcher(m.prompt());
        if (!q.find()) {
            return "Answer: unknown. Explanation: I cannot read the question.";
        }
        String question = q.group(1);
        String doc = q.group(2);
        String answer = answerFrom(question, doc);
        return answer == null
                ? "Answer: unknown. Explanation: The document does not answer the question."
                : "Answer: " + answer + ". Explanation: The document states " + answer + ".";
    }

    static String answerFrom(String question, String doc) {
        String ql = question.toLowerCase(Locale.ROOT);
        Matcher m;
        if (ql.matches("(?s).*\\b(when|what year|which year|born|founded|established)\\b.*")) {
            m = YEAR.matcher(doc);
            return m.find() ? m.group() : null;
        }
        if (ql.matches("(?s).*\\b(how many|how much|population|number of)\\b.*")) {
            // A count stated as such ("there were 3,559 people") beats the first number in a table.
            m = COUNT.matcher(doc);
            if (m.find()) {
                return m.group(1) != null ? m.group(1) : m.group(2);
            }
            m = NUMBER.matcher(doc);
            while (m.find()) {
                if (!YEAR.matcher(m.group()).matches()) {
                    return m.group();
                }
            }
            return null;
        }
        m = NAME.matcher(doc);
        while (m.find()) {
            String cand = m.group();
            if (!question.contains(cand) && !cand.matches("The|In|As|He|She|It|They|This|According")) {
                return cand;
            }
        }
        return null;
    }

    static String aggregator(RuleMatch m) {
        String p = m.prompt();
        String responses = p.substring(p.lastIndexOf("\nAgent responses:"));
        Map<String, Integer> count = new LinkedHashMap<>();
        Matcher a = AGENT_ANSWER.matcher(responses);
        while (a.find()) {
            String ans = a.group(1).strip();
            if (!ans.equalsIgnoreCase("unknown")) {
                count.merge(ans, 1, Integer::sum);
            }
        }
        boolean anyTwo = count.values().stream().anyMatch(c -> c >= 2);
        List<String> keep = new ArrayList<>();
        List<String> dropped = new ArrayList<>();
        for (Entry<String, Integer> e : count.entrySet()) {
            (e.getValue() >= 2 || !anyTwo ? keep : dropped).add(e.getKey());
        }
        if (keep.isEmpty()) {
            keep.add("unknown");
        }
        return "All Correct Answers: [" + String.join(", ", keep.stream().map(k -> "\"" + k + "\"").toList())
                + "]. Explanation: " + (dropped.isEmpty() ? "The agents' answers are each supported by their documents."
                : "Only one agent supports " + dropped + ", which conflicts with better-supported answers.");
    }

    private static String abbreviate(String s, int n) {
        String t = s.replace('\n', ' ').strip();
        return t.length() <= n ? t : t.substring(0, n) + "...";
    }
}
