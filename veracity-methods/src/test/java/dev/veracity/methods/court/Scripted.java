package dev.veracity.methods.court;

import dev.veracity.llm.LlmRequest;
import dev.veracity.llm.ScriptedBackend;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.method.MethodContext;
import dev.veracity.qa.Document;
import dev.veracity.qa.GoldAnswer;
import dev.veracity.qa.QaItem;
import dev.veracity.retrieval.PageSource;
import dev.veracity.trace.CallContext;
import dev.veracity.trace.InMemoryTraces;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Scripted model behaviour for Reasoning Court's tests: which role a request is (agent step, ReAct's second call,
 * judge, debater, ...), which agent (its sample index) and which step, and helpers to read the prompt the way a
 * model would. Tests script what each role says from what its prompt shows, never a canned final result.
 */
final class Scripted {

    private Scripted() {
    }

    static final QaItem MILHOUSE = new QaItem("q1", "Who was Milhouse named after?", List.of(
            Document.of("d1", "Milhouse Van Houten", "Milhouse Mussolini Van Houten is a character in The Simpsons."
                    + " He was created by Matt Groening. Milhouse was named after U.S. president Richard Nixon, whose"
                    + " middle name was Milhous."),
            Document.of("d2", "Richard Nixon", "Richard Milhous Nixon was the 37th president of the United States."),
            Document.of("d3", "Spiro Agnew", "Spiro Agnew was the 39th vice president of the United States.")),
            List.of(GoldAnswer.of("Richard Nixon")), List.of(), null, Map.of(), null);

    private static final Pattern STEP = Pattern.compile("Thought (\\d+):$");
    private static final Pattern RETRY = Pattern.compile("Action (\\d+):$");

    /** The step number when the request is an agent's turn ({@code ... Thought i:}), else 0. */
    static int step(LlmRequest r) {
        Matcher m = STEP.matcher(r.promptText());
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }

    /** The step number when the request is ReAct's second call for an action ({@code ... Action i:}), else 0. */
    static int retryStep(LlmRequest r) {
        Matcher m = RETRY.matcher(r.promptText());
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }

    /** The agent a request belongs to: its sample index + 1. */
    static int agent(LlmRequest r) {
        return r.firstSampleIndex() + 1;
    }

    static boolean isJudge(LlmRequest r) {
        return r.promptText().startsWith("You are given ");
    }

    /** The text after the last occurrence of {@code label} up to the end of its line. */
    static String lastLine(String text, String label) {
        int at = text.lastIndexOf(label);
        if (at < 0) {
            return "";
        }
        int eol = text.indexOf('\n', at);
        return text.substring(at + label.length(), eol < 0 ? text.length() : eol).strip();
    }

    /** The last observation the agent was shown (its scratchpad's), "" before any. */
    static String lastObservation(LlmRequest r) {
        String p = r.promptText();
        int question = p.lastIndexOf("\nQuestion: ");
        int claim = p.lastIndexOf("\nClaim: ");
        String episode = p.substring(Math.max(question, claim) + 1);
        return lastLine(episode, "Observation " + (step(r) - 1) + ":");
    }

    static MethodContext context(ScriptedBackend backend, InMemoryTraces traces, String dataset, Map<String, String> options) {
        return context(backend, traces, dataset, options, null);
    }

    static MethodContext context(ScriptedBackend backend, InMemoryTraces traces, String dataset, Map<String, String> options,
                                 PageSource pages) {
        LlmClient client = LlmClient.builder(backend).concurrency(16).traces(traces).build();
        return new MethodContext(client, CallContext.of("run", "q1", "court"), dataset, false, options, null, null, pages);
    }

    /** An agent that searches Milhouse Van Houten, looks up "named after", then finishes with what it read. */
    static String diligentAgent(LlmRequest r) {
        return switch (step(r)) {
            case 1 -> " I need to search Milhouse Van Houten and find who he is named after.\nAction 1: Search[Milhouse Van Houten]"
                    + "\nObservation 1: invented by the model; the stop sequence cuts it";
            case 2 -> " The paragraph may say it; I will look up \"named after\".\nAction 2: Lookup[named after]";
            default -> {
                String obs = lastObservation(r);
                String name = obs.contains("Richard Nixon") ? "Richard Nixon" : "unknown";
                yield " The observation says he was named after " + name + ".\nAction " + step(r) + ": Finish[" + name + "]";
            }
        };
    }
}
