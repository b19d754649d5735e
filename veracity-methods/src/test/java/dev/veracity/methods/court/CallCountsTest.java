package dev.veracity.methods.court;

import static dev.veracity.methods.court.Scripted.MILHOUSE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.veracity.llm.LlmRequest;
import dev.veracity.llm.ScriptedBackend;
import dev.veracity.method.Capability;
import dev.veracity.method.MethodAnswer;
import dev.veracity.methods.Methods;
import dev.veracity.trace.InMemoryTraces;
import java.util.Map;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/**
 * Each baseline and ablation of Tables 1 and 5 makes the calls its definition says, on scripted behaviour: a
 * diligent agent takes 3 steps (Search, Lookup, Finish), a looping one all 7.
 */
class CallCountsTest {

    private final InMemoryTraces traces = new InMemoryTraces();

    private static final String COT_NIXON = " Milhouse was named after Richard Nixon.\nAnswer: Richard Nixon";

    /** Role by role: the diligent agent, CoT samples split between two answers as asked, judges and debaters. */
    private static BiFunction<LlmRequest, Integer, String> model(boolean agentsLoop, int cotNixonShare21) {
        return (r, i) -> {
            String p = r.promptText();
            if (Scripted.step(r) > 0) {
                return agentsLoop ? " Again.\nAction " + Scripted.step(r) + ": Search[Milhouse]" : Scripted.diligentAgent(r);
            }
            if (p.endsWith("\nThought:")) { // CoT few-shot
                return i < cotNixonShare21 ? COT_NIXON : " Perhaps a neighbour.\nAnswer: Neighbour " + i;
            }
            if (Scripted.isJudge(r)) {
                return "Action: Complete[Richard Nixon]";
            }
            if (p.startsWith("You are tasked with concisely and effectively arguing")) {
                return "I found that Milhouse was named after Richard Nixon.";
            }
            if (p.startsWith("Please act as an impartial judge")) {
                return "Both say the same. [[2]]";
            }
            if (p.startsWith("You are reviewing an answer")) {
                return "The answer is supported.\nVerdict: correct";
            }
            if (p.startsWith("You are a debater")) {
                return "Milhouse was named after Richard Nixon.\nAnswer: Richard Nixon";
            }
            if (p.startsWith("You are a moderator")) {
                return "Preference: No\nSupported Side: Affirmative\nAnswer:";
            }
            if (p.startsWith("You are the judge of a debate")) {
                return "Both sides agree.\nAnswer: Richard Nixon";
            }
            return "unexpected prompt";
        };
    }

    private record Run(MethodAnswer answer, ScriptedBackend backend) {
        long calls() {
            return backend.requests().size();
        }
    }

    private Run run(String method, boolean agentsLoop, int cotShare, boolean nativeN, Map<String, String> options) {
        BiFunction<LlmRequest, Integer, String> m = model(agentsLoop, cotShare);
        // a server without n: the client sends one request per sample, numbered by firstSampleIndex
        ScriptedBackend backend = nativeN ? ScriptedBackend.perSample(m)
                : new ScriptedBackend("split", false, r -> m.apply(r, r.firstSampleIndex()));
        traces.clear();
        MethodAnswer a = Methods.byName(method).answer(MILHOUSE, Scripted.context(backend, traces, "hotpotqa", options));
        assertThat(a.parseFailures()).as(method).isEmpty();
        return new Run(a, backend);
    }

    private long calls(String role) {
        return traces.where(c -> c.context().role().equals(role)).stream().mapToLong(c -> 1).sum();
    }

    @Test
    void reactIsOneAgentsSteps() {
        Run r = run("react", false, 21, true, Map.of());
        assertThat(r.calls()).isEqualTo(3);
        assertThat(r.answer().prediction()).isEqualTo("Richard Nixon");
        Run looping = run("react", true, 21, true, Map.of());
        assertThat(looping.calls()).isEqualTo(7);
        assertThat(looping.answer().prediction()).isEmpty(); // ReAct's forced finish[]
    }

    @Test
    void reactScIsThreeAgentsAndAVote() {
        Run r = run("react-sc", false, 21, true, Map.of());
        assertThat(r.calls()).isEqualTo(3 * 3);
        assertThat(Candidate.of(r.answer())).hasSize(3);
        assertThat(r.answer().prediction()).isEqualTo("Richard Nixon");
    }

    @Test
    void courtIsTwoAgentsAndOneJudgeAndNAgentsScale() {
        assertThat(run("court", false, 21, true, Map.of()).calls()).isEqualTo(2 * 3 + 1);
        assertThat(run("court", false, 21, true, Map.of("agents", "4")).calls()).isEqualTo(4 * 3 + 1);
        Run noJudge = run("court-no-judge", false, 21, true, Map.of());
        assertThat(noJudge.calls()).isEqualTo(2 * 3);
        assertThat(noJudge.answer().prediction()).isEqualTo("Richard Nixon");
    }

    @Test
    void reactThenCotScFallsBackOnlyWhenReactGivesNoAnswer() {
        Run finished = run("react-cot-sc", false, 21, true, Map.of());
        assertThat(finished.calls()).isEqualTo(3);
        assertThat(finished.answer().signals()).containsEntry("fell_back", 0.0);
        // forced: 7 steps, then CoT-SC's 21 samples as ONE request with n = 21 where the server allows
        Run forced = run("react-cot-sc", true, 21, true, Map.of());
        assertThat(forced.calls()).isEqualTo(7 + 1);
        LlmRequest sc = forced.backend().requests().getLast();
        assertThat(sc.n()).isEqualTo(21);
        assertThat(sc.temperature()).isEqualTo(0.7);
        assertThat(forced.answer().prediction()).isEqualTo("Richard Nixon");
        assertThat(calls("reasoner")).isEqualTo(1);
        // ... and as 21 requests where it does not
        Run split = run("react-cot-sc", true, 21, false, Map.of());
        assertThat(split.calls()).isEqualTo(7 + 21);
        assertThat(split.backend().requests().stream().filter(q -> q.promptText().endsWith("\nThought:")))
                .hasSize(21).allSatisfy(q -> assertThat(q.n()).isEqualTo(1));
    }

    @Test
    void cotScThenReactSwitchesWhenTheMajorityIsUnderHalf() {
        Run confident = run("cot-sc-react", false, 11, true, Map.of()); // 11 of 21 agree: 52%
        assertThat(confident.calls()).isEqualTo(1);
        assertThat(confident.answer().prediction()).isEqualTo("Richard Nixon");
        assertThat(confident.answer().signals()).containsEntry("fell_back", 0.0);
        Run unsure = run("cot-sc-react", false, 10, true, Map.of()); // 10 of 21: under 50%
        assertThat(unsure.calls()).isEqualTo(1 + 3);
        assertThat(unsure.answer().signals()).containsEntry("fell_back", 1.0);
        assertThat(unsure.answer().signals().get("majority_share")).isEqualTo(10 / 21.0);
    }

    @Test
    void selfRefineAddsFeedbackUntilItSaysCorrect() {
        Run r = run("react-self-refine", false, 21, true, Map.of());
        assertThat(r.calls()).isEqualTo(3 + 1);
        assertThat(r.answer().signals()).containsEntry("refinements", 0.0);
    }

    @Test
    void selfRefineRefinesUpToItsIterations() {
        ScriptedBackend backend = ScriptedBackend.perSample((q, i) -> {
            String p = q.promptText();
            if (Scripted.step(q) > 0) {
                return Scripted.diligentAgent(q);
            }
            if (p.startsWith("You are reviewing an answer")) {
                return "It lacks the middle name.\nVerdict: refine";
            }
            String current = Scripted.lastLine(p, "Proposed answer:");
            return "Adding detail.\nAnswer: " + current + " Jr";
        });
        MethodAnswer a = Methods.byName("react-self-refine").answer(MILHOUSE,
                Scripted.context(backend, traces, "hotpotqa", Map.of("iterations", "2")));
        assertThat(backend.requests()).hasSize(3 + 2 * 2);
        assertThat(a.prediction()).isEqualTo("Richard Nixon Jr Jr");
        assertThat(a.signals()).containsEntry("refinements", 2.0);
    }

    @Test
    void reactMadArguesBeforeTheJudgeAndReactJudgeSeesFinalAnswersOnly() {
        Run mad = run("react-mad", false, 21, true, Map.of());
        assertThat(mad.calls()).isEqualTo(2 * 3 + 2 + 1);
        String judge = mad.backend().requests().getLast().promptText();
        assertThat(judge).startsWith("You are given two solutions").contains("Agent 2's argument: I found that Milhouse");
        String debater = mad.backend().requests().stream().map(LlmRequest::promptText)
                .filter(p -> p.startsWith("You are tasked")).findFirst().orElseThrow();
        assertThat(debater).endsWith("Your final answer: Richard Nixon\nYour research process:\n"
                + "Thought 1: I need to search Milhouse Van Houten and find who he is named after.\nAction 1: Search[Milhouse"
                + " Van Houten]\nObservation 1: Milhouse Mussolini Van Houten is a character in The Simpsons. He was"
                + " created by Matt Groening. Milhouse was named after U.S. president Richard Nixon, whose middle name was"
                + " Milhous.\nThought 2: The paragraph may say it; I will look up \"named after\".\nAction 2: Lookup[named"
                + " after]\nObservation 2: (Result 1 / 1) Milhouse was named after U.S. president Richard Nixon, whose"
                + " middle name was Milhous.\nThought 3: The observation says he was named after Richard Nixon.\nAction"
                + " 3: Finish[Richard Nixon]\nObservation 3: Episode finished, answer: Richard Nixon");
        assertThat(calls("debater-1") + calls("debater-2")).isEqualTo(2);

        Run llmJudge = run("react-judge", false, 21, true, Map.of());
        assertThat(llmJudge.calls()).isEqualTo(2 * 3 + 1);
        String b5 = llmJudge.backend().requests().getLast().promptText();
        assertThat(b5).startsWith("Please act as an impartial judge").contains("[The Start of Agent 2's Answer]\nRichard"
                + " Nixon\n[The End of Agent 2's Answer]").doesNotContain("Observation");
        assertThat(llmJudge.answer().prediction()).isEqualTo("Richard Nixon");
    }

    @Test
    void cotJudgeIsTwoClosedBookChainsAndTheJudge() {
        Run r = run("cot-judge", false, 21, true, Map.of());
        assertThat(r.calls()).isEqualTo(2 + 1);
        assertThat(Methods.byName("cot-judge").needs(Capability.DOCUMENTS)).isFalse();
        assertThat(r.backend().requests().getLast().promptText()).contains("Agent 1:\nThought: Milhouse was named after"
                + " Richard Nixon.\nAnswer: Richard Nixon\nFinal answer: Richard Nixon");
        assertThat(Candidate.of(r.answer())).extracting(Candidate::answer).containsExactly("Richard Nixon",
                "Richard Nixon");
    }

    @Test
    void madDebatesThreeRoundsThenAJudgeOrStopsAtAPreference() {
        Run undecided = run("mad", false, 21, true, Map.of());
        assertThat(undecided.calls()).isEqualTo(3 * 3 + 1);
        assertThat(undecided.answer().prediction()).isEqualTo("Richard Nixon");
        assertThat(undecided.answer().signals()).containsEntry("judge_called", 1.0);
        assertThat(Methods.byName("mad").needs(Capability.DOCUMENTS)).isFalse();
        assertThat(undecided.backend().requests().stream().map(LlmRequest::promptText))
                .noneMatch(p -> p.contains("Milhouse Mussolini")); // no retrieval

        ScriptedBackend decided = ScriptedBackend.perSample((q, i) -> q.promptText().startsWith("You are a moderator")
                ? "Preference: Yes\nSupported Side: Negative\nAnswer: Richard Nixon" : "Reasons.\nAnswer: Richard Nixon");
        MethodAnswer a = Methods.byName("mad").answer(MILHOUSE, Scripted.context(decided, traces, "hotpotqa", Map.of()));
        assertThat(decided.requests()).hasSize(3);
        assertThat(a.prediction()).isEqualTo("Richard Nixon");
    }

    @Test
    void cotScIsTwentyOneSamplesAsOneCallWithNOrTwentyOneCalls() {
        Run nativeN = run("cot-sc", false, 21, true, Map.of());
        assertThat(nativeN.calls()).isEqualTo(1);
        assertThat(nativeN.backend().requests().getFirst().n()).isEqualTo(21);
        Run split = run("cot-sc", false, 21, false, Map.of());
        assertThat(split.calls()).isEqualTo(21);
        assertThat(split.backend().requests()).allSatisfy(q -> assertThat(q.n()).isEqualTo(1));
        assertThat(split.backend().requests().stream().map(LlmRequest::firstSampleIndex)).containsExactlyInAnyOrderElementsOf(
                java.util.stream.IntStream.range(0, 21).boxed().toList());
    }
}
