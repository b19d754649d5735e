package dev.veracity.methods.court;

import dev.veracity.llm.Completion;
import dev.veracity.llm.LlmRequest;
import dev.veracity.method.MethodContext;
import dev.veracity.qa.QaItem;
import dev.veracity.retrieval.PageSource;
import dev.veracity.retrieval.react.ActionFailure;
import dev.veracity.retrieval.react.ActionParser;
import dev.veracity.retrieval.react.AgentTurn;
import dev.veracity.retrieval.react.ReactAction;
import dev.veracity.retrieval.react.WikiEnvironment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One ReAct agent (Section 3.1, after Yao et al.'s {@code webthink}): at step i the model continues the few-shot
 * prompt, the question and the scratchpad from {@code "Thought i:"}, stopped at {@code "\nObservation i:"}; its
 * action goes to the {@link WikiEnvironment}, whose observation is appended. A {@code Finish[...]} ends the
 * trajectory; at the step limit it is forced to finish with an empty answer (ReAct's {@code finish[]}), and the
 * method decides what happens next. A turn without an action gets ReAct's second call (the thought's first line,
 * then {@code "Action i:"}, stopped at the line's end) when {@code action-retry} is on; if that fails too, the
 * environment answers {@code Invalid action: ...} as ReAct's does and the step is recorded with its
 * {@link ActionFailure}. An empty output (a model that writes the stop sequence first, or ends the second call's line
 * at once) is such a turn ({@link ActionFailure#EMPTY_OUTPUT}), not a server fault: the requests accept empty text
 * ({@link LlmRequest#acceptEmpty()}), so it is neither retried nor cached. ReAct's code indexes the empty action of a
 * second empty call ({@code action[0]}) and fails the question; we record the step and go on.
 */
final class ReactAgent {

    private final int number;
    private final ReactSettings settings;

    /** @param number the agent's number, from 1: its role {@code agent-<number>}, sampling and example order */
    ReactAgent(int number, ReactSettings settings) {
        this.number = number;
        this.settings = settings;
    }

    String role() {
        return "agent-" + number;
    }

    Trajectory run(QaItem item, PageSource pages, MethodContext ctx) {
        WikiEnvironment env = new WikiEnvironment(pages, settings.task().lookup);
        Long seed = settings.seed(number);
        String base = settings.prompt().render(settings.order(), number, seed == null ? 0 : seed,
                Map.of("question", item.question(), "titles", QuestionPages.titleList(item))) + "\n";
        StringBuilder scratch = new StringBuilder();
        List<Step> steps = new ArrayList<>();
        int repeats = 0;
        for (int i = 1; i <= settings.maxSteps(); i++) {
            LlmRequest request = request(base + scratch + "Thought " + i + ":", "\nObservation " + i + ":");
            Completion out = ctx.llm().call(ctx.role(role(), i), request).first();
            AgentTurn turn = ActionParser.parse(out.text());
            int calls = 1;
            if (turn instanceof AgentTurn.Failed f) {
                ctx.llm().markUnparseable(request, out, f.failure().description());
                if (settings.actionRetry()) {
                    // ReAct: thought = the output's first line; then ask for the action alone
                    String thought = f.thought().isEmpty() ? firstLine(out.text()) : f.thought();
                    LlmRequest again = request(base + scratch + "Thought " + i + ": " + thought + "\nAction " + i + ":", "\n");
                    Completion second = ctx.llm().call(ctx.role(role(), i), again).first();
                    calls = 2;
                    AgentTurn t2 = ActionParser.parse(second.text());
                    turn = switch (t2) {
                        case AgentTurn.Acted a -> new AgentTurn.Acted(thought, a.action());
                        case AgentTurn.Failed g -> {
                            ctx.llm().markUnparseable(again, second, g.failure().description());
                            yield new AgentTurn.Failed(thought, g.failure(), g.text());
                        }
                    };
                }
            }
            Step step = switch (turn) {
                case AgentTurn.Acted a -> new Step(i, a.thought(), ActionParser.render(a.action()),
                        oneLine(env.step(a.action())), null, calls);
                case AgentTurn.Failed f -> new Step(i, f.thought(), oneLine(f.text()),
                        oneLine(env.step(new ReactAction.Invalid(oneLine(f.text())))), f.failure(), calls);
            };
            if (!steps.isEmpty() && steps.getLast().action().equals(step.action())) {
                repeats++;
            }
            steps.add(step);
            scratch.append(step.text());
            if (turn instanceof AgentTurn.Acted a && a.action() instanceof ReactAction.Finish f) {
                return new Trajectory(role(), steps, f.answer(), false, repeats);
            }
        }
        return new Trajectory(role(), steps, "", true, repeats); // ReAct: finish[] when the steps ran out
    }

    private LlmRequest request(String prompt, String stop) {
        LlmRequest.Builder b = settings.completions() ? LlmRequest.completion(prompt) : LlmRequest.user(prompt);
        // each agent its own sample index: the cache keeps agent 2 from replaying agent 1's identical request;
        // an empty output (the stop sequence written first) is a turn without an action, as in ReAct, not a fault
        return b.stop(stop).maxTokens(settings.maxTokens()).temperature(settings.temperature(number))
                .seed(settings.seed(number)).firstSampleIndex(number - 1).acceptEmpty(true).build();
    }

    private static String firstLine(String text) {
        String t = text.strip();
        int nl = t.indexOf('\n');
        return (nl < 0 ? t : t.substring(0, nl)).strip();
    }

    /** Observations and unparseable text go into the scratchpad on one line, as ReAct's did. */
    static String oneLine(String s) {
        return s.replace("\r", "").replace('\n', ' ').strip();
    }
}
