package dev.veracity.methods.court;

import static dev.veracity.methods.court.Scripted.MILHOUSE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.veracity.llm.LlmRequest;
import dev.veracity.llm.ScriptedBackend;
import dev.veracity.method.Capability;
import dev.veracity.method.MethodAnswer;
import dev.veracity.methods.Methods;
import dev.veracity.qa.QaItem;
import dev.veracity.retrieval.react.PageStore;
import dev.veracity.trace.CallRecord;
import dev.veracity.trace.InMemoryTraces;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Reasoning Court on scripted model behaviour: the acceptance points of the method itself. */
class ReasoningCourtTest {

    private final InMemoryTraces traces = new InMemoryTraces();

    /** A judge that reads its prompt: it completes with the answer of the agent it is scripted to trust. */
    private static String judgeTrusting(LlmRequest r, int agent) {
        String block = r.promptText().substring(r.promptText().indexOf("Agent " + agent + ":\n"));
        String answer = Scripted.lastLine(block.substring(0, block.contains("\n\nAgent ") ? block.indexOf("\n\nAgent ")
                : block.length()), "Final answer:");
        return "Agent " + agent + "'s reasoning follows its observations.\nAction: Complete[" + answer + "]";
    }

    @Test
    void twoAgentsResearchConcurrentlyThenTheJudgeSelectsAgentTwo() {
        // agent 1 finishes at once with a guess; agent 2 researches; the judge trusts agent 2
        ScriptedBackend backend = ScriptedBackend.perSample((r, i) -> {
            if (Scripted.isJudge(r)) {
                return judgeTrusting(r, 2);
            }
            return Scripted.agent(r) == 1 ? " Milhouse sounds like Spiro Agnew's nickname.\nAction 1: Finish[Spiro Agnew]"
                    : Scripted.diligentAgent(r);
        }).latency(Duration.ofMillis(150));
        MethodAnswer a = new ReasoningCourt().answer(MILHOUSE, Scripted.context(backend, traces, "hotpotqa", Map.of()));

        assertThat(a.prediction()).isEqualTo("Richard Nixon");
        assertThat(Candidate.of(a)).extracting(Candidate::answer).containsExactly("Spiro Agnew", "Richard Nixon");
        assertThat(Candidate.of(a)).extracting(Candidate::steps).containsExactly(1, 3);
        assertThat(a.parseFailures()).isEmpty();
        assertThat(a.signals()).containsEntry("judge_parsed", 1.0).containsEntry("agents_agree", 0.0);
        // the two trajectories overlap in time: the first steps of both agents were in flight together
        CallRecord first1 = traces.where(c -> c.context().role().equals("agent-1")).getFirst();
        CallRecord first2 = traces.where(c -> c.context().role().equals("agent-2")).getFirst();
        assertThat(Math.max(first1.startedMicros(), first2.startedMicros()))
                .isLessThan(Math.min(first1.endedMicros(), first2.endedMicros()));
        assertThat(backend.peakConcurrency()).isEqualTo(2);
        // the judge saw both answers and agent 2's whole trajectory, observations from the environment
        String judge = backend.requests().stream().filter(Scripted::isJudge).findFirst().orElseThrow().promptText();
        assertThat(judge).startsWith("You are given two solutions from different agents addressing a multi-hop question.")
                .contains("Question: Who was Milhouse named after?")
                .contains("Agent 1:\nThought 1: Milhouse sounds like Spiro Agnew's nickname.\nAction 1: Finish[Spiro Agnew]")
                .contains("Final answer: Spiro Agnew")
                .contains("Action 1: Search[Milhouse Van Houten]\nObservation 1: Milhouse Mussolini Van Houten is a"
                        + " character in The Simpsons. He was created by Matt Groening. Milhouse was named after U.S."
                        + " president Richard Nixon, whose middle name was Milhous.\nThought 2:")
                .contains("Observation 2: (Result 1 / 1) Milhouse was named after U.S. president Richard Nixon")
                .doesNotContain("invented by the model");
        assertThat(backend.requests()).hasSize(1 + 3 + 1);
    }

    @Test
    void everyStepSendsTheStopSequenceAndTheFewShotPromptAtTemperatureZero() {
        ScriptedBackend backend = ScriptedBackend.perSample((r, i) -> Scripted.isJudge(r) ? "Action: Complete[Richard Nixon]"
                : Scripted.diligentAgent(r));
        new ReasoningCourt().answer(MILHOUSE, Scripted.context(backend, traces, "hotpotqa", Map.of()));
        List<LlmRequest> steps = backend.requests().stream().filter(r -> Scripted.step(r) > 0).toList();
        assertThat(steps).hasSize(6).allSatisfy(r -> {
            assertThat(r.stop()).containsExactly("\nObservation " + Scripted.step(r) + ":");
            assertThat(r.temperature()).isZero();
            assertThat(r.seed()).isNull();
            assertThat(r.maxTokens()).isEqualTo(256);
            assertThat(r.promptText()).startsWith("Solve a question answering task with interleaving Thought, Action,"
                    + " Observation steps.").contains("Action 3: Finish[The Saimaa Gesture]\nQuestion: Who was Milhouse"
                    + " named after?\nThought 1:");
        });
        // two agents at the paper's setting send the same prompts, as independent samples (their own cache entries)
        assertThat(steps.stream().map(LlmRequest::firstSampleIndex).distinct()).containsExactlyInAnyOrder(0, 1);
        assertThat(steps.stream().filter(r -> r.firstSampleIndex() == 0).map(LlmRequest::promptText).toList())
                .isEqualTo(steps.stream().filter(r -> r.firstSampleIndex() == 1).map(LlmRequest::promptText).toList());
        LlmRequest judge = backend.requests().stream().filter(Scripted::isJudge).findFirst().orElseThrow();
        assertThat(judge.temperature()).isZero();
        assertThat(judge.stop()).isEmpty();
    }

    @Test
    void aLoopingAgentStopsAtTheStepLimitIsForcedToFinishAndIsRecorded() {
        ScriptedBackend backend = ScriptedBackend.perSample((r, i) -> Scripted.isJudge(r) ? "Action: Complete[Richard Nixon]"
                : Scripted.agent(r) == 1 ? " I will search Milhouse again.\nAction " + Scripted.step(r) + ": Search[Milhouse]"
                : Scripted.diligentAgent(r));
        MethodAnswer a = new ReasoningCourt().answer(MILHOUSE, Scripted.context(backend, traces, "hotpotqa", Map.of()));

        assertThat(backend.requests().stream().filter(r -> Scripted.agent(r) == 1 && Scripted.step(r) > 0)).hasSize(7);
        Candidate looping = Candidate.of(a).getFirst();
        assertThat(looping.forced()).isTrue();
        assertThat(looping.answer()).isEmpty();
        assertThat(looping.steps()).isEqualTo(7);
        assertThat(looping.note()).isEqualTo("stopped at the step limit (7 steps), after repeating an action 6 times"
                + " (last: Search[Milhouse]); no answer");
        assertThat(a.signals()).containsEntry("forced_finishes", 1.0).containsEntry("repeated_actions", 6.0);
        String judge = backend.requests().stream().filter(Scripted::isJudge).findFirst().orElseThrow().promptText();
        assertThat(judge).contains("Observation 7: Could not find Milhouse. Similar: ['Milhouse Van Houten'")
                .contains("Final answer: " + CourtJudge.NO_ANSWER);
        assertThat(a.prediction()).isEqualTo("Richard Nixon");
    }

    @Test
    void feverStopsAfterFiveStepsWithTheEnhancedPromptByDefault() {
        QaItem claim = new QaItem("c1", "Milhouse was named after Richard Nixon.", MILHOUSE.documents(), List.of(),
                List.of(), null, Map.of(), null);
        ScriptedBackend backend = ScriptedBackend.perSample((r, i) -> Scripted.isJudge(r) ? "Action: Complete[SUPPORTS]"
                : " I will search.\nAction " + Scripted.step(r) + ": Search[Milhouse]");
        MethodAnswer a = new ReasoningCourt().answer(claim, Scripted.context(backend, traces, "fever", Map.of()));
        assertThat(backend.requests().stream().filter(r -> Scripted.step(r) > 0)).hasSize(2 * 5);
        LlmRequest first = backend.requests().stream().filter(r -> Scripted.step(r) == 1).findFirst().orElseThrow();
        assertThat(first.promptText()).startsWith("Determine if there is Observation that SUPPORTS or REFUTES a Claim")
                .contains("Applying reverse thinking").endsWith("Claim: Milhouse was named after Richard Nixon.\nThought 1:");
        assertThat(backend.requests().stream().filter(Scripted::isJudge).findFirst().orElseThrow().promptText())
                .startsWith("You are given two solutions from different agents addressing a fact-verification question.")
                .contains("Claim: Milhouse was named after Richard Nixon.");
        assertThat(a.prediction()).isEqualTo("SUPPORTS");

        ScriptedBackend react = ScriptedBackend.perSample((r, i) -> Scripted.isJudge(r) ? "Action: Complete[SUPPORTS]"
                : " Done.\nAction 1: Finish[SUPPORTS]");
        new ReasoningCourt().answer(claim, Scripted.context(react, traces, "fever", Map.of("fever-prompt", "react")));
        assertThat(react.requests().getFirst().promptText()).contains("Thought 2: Because he \"appeared in the 2009 Fox"
                + " television film Virtuality\"").doesNotContain("Applying reverse thinking");
    }

    @Test
    void whenBothAgentsFailTheJudgeSynthesisesFromTheirEvidence() {
        // both agents find the sentence but never finish; the judge derives the answer from their observations
        ScriptedBackend backend = ScriptedBackend.perSample((r, i) -> {
            if (Scripted.isJudge(r)) {
                String p = r.promptText();
                boolean bothEmpty = p.split(java.util.regex.Pattern.quote("Final answer: " + CourtJudge.NO_ANSWER), -1).length == 3;
                String evidence = Scripted.lastLine(p, "named after U.S. president");
                String name = evidence.substring(0, evidence.indexOf(','));
                return bothEmpty ? "Neither agent answered; the evidence names him.\nAction: Complete[" + name + "]"
                        : "Action: Complete[wrong]";
            }
            return Scripted.step(r) == 1 ? " Search first.\nAction 1: Search[Milhouse Van Houten]"
                    : " Look up more.\nAction " + Scripted.step(r) + ": Lookup[named after]";
        });
        MethodAnswer a = new ReasoningCourt().answer(MILHOUSE, Scripted.context(backend, traces, "hotpotqa", Map.of()));
        assertThat(Candidate.of(a)).allSatisfy(c -> assertThat(c.answer()).isEmpty());
        assertThat(Candidate.of(a)).allSatisfy(c -> assertThat(c.forced()).isTrue());
        assertThat(a.prediction()).isEqualTo("Richard Nixon");
        assertThat(a.raw()).contains("Neither agent answered");
    }

    @Test
    void aJudgeOutputWithoutCompleteFallsBackToTheAgentsAndIsRecorded() {
        ScriptedBackend backend = ScriptedBackend.perSample((r, i) -> Scripted.isJudge(r)
                ? "I would pick the second agent, Richard Nixon." : Scripted.agent(r) == 1
                ? " Guess.\nAction 1: Finish[Spiro Agnew]" : Scripted.diligentAgent(r));
        MethodAnswer a = new ReasoningCourt().answer(MILHOUSE, Scripted.context(backend, traces, "hotpotqa", Map.of()));
        assertThat(a.prediction()).isEqualTo("Spiro Agnew"); // the documented fallback: majority, ties to agent 1
        assertThat(a.signals()).containsEntry("judge_parsed", 0.0);
        assertThat(a.parseFailures()).singleElement().asString()
                .startsWith("judge: no Complete[...] (NO_COMPLETE) in 'I would pick").endsWith("fell back to the agents' majority answer");
    }

    @Test
    void aTurnWithoutAnActionGetsReActsSecondCallAndAFailedOneIsRecorded() {
        ScriptedBackend backend = ScriptedBackend.perSample((r, i) -> {
            if (Scripted.isJudge(r)) {
                return "Action: Complete[Richard Nixon]";
            }
            if (Scripted.retryStep(r) > 0) {
                // agent 1 gives the action when asked for it alone; agent 2 still does not
                return Scripted.agent(r) == 1 ? " Search[Milhouse Van Houten]" : " I am not sure what to do.";
            }
            return Scripted.step(r) == 1 ? " I should search Milhouse Van Houten first." : Scripted.diligentAgent(r);
        });
        MethodAnswer a = new ReasoningCourt().answer(MILHOUSE, Scripted.context(backend, traces, "hotpotqa", Map.of()));
        LlmRequest retry = backend.requests().stream().filter(r -> Scripted.retryStep(r) == 1 && Scripted.agent(r) == 1)
                .findFirst().orElseThrow();
        assertThat(retry.promptText()).endsWith("Question: Who was Milhouse named after?\nThought 1: I should search"
                + " Milhouse Van Houten first.\nAction 1:");
        assertThat(retry.stop()).containsExactly("\n");
        assertThat(a.parseFailures()).singleElement().asString()
                .isEqualTo("agent-2 step 1: no action line (NO_ACTION) in 'I am not sure what to do.'");
        assertThat(a.signals()).containsEntry("action_retries", 2.0).containsEntry("action_failures", 1.0);
        String judge = backend.requests().stream().filter(Scripted::isJudge).findFirst().orElseThrow().promptText();
        assertThat(judge).contains("Agent 2:\nThought 1: I should search Milhouse Van Houten first.\nAction 1: I am not"
                + " sure what to do.\nObservation 1: Invalid action: I am not sure what to do.");
        // agent 2 never opened the page, so its lookup found nothing and it finished with what it had
        assertThat(Candidate.of(a)).extracting(Candidate::answer).containsExactly("Richard Nixon", "unknown");
    }

    /**
     * Issue 25 point 6: an empty output (the stop sequence written first) is a turn without an action, as ReAct's code
     * treats it: ReAct's second call, then the recorded failure; never five retries and a failed question. A Lookup
     * before any Search answers "No more results." as ReAct's wikienv does.
     */
    @Test
    void anEmptyStepIsATurnWithoutAnActionNotAFailedQuestion() {
        ScriptedBackend backend = ScriptedBackend.perSample((r, i) -> {
            if (Scripted.isJudge(r)) {
                return "Action: Complete[Richard Nixon]";
            }
            if (Scripted.retryStep(r) > 0) {
                // asked for the action alone: agent 1 gives it, agent 2 ends the line at once again
                return Scripted.agent(r) == 1 ? " Search[Milhouse Van Houten]" : "";
            }
            return Scripted.step(r) == 1 ? "" : Scripted.diligentAgent(r);
        });
        MethodAnswer a = new ReasoningCourt().answer(MILHOUSE, Scripted.context(backend, traces, "hotpotqa", Map.of()));

        // each agent: step 1, its second call, steps 2 and 3; then the judge. No request was repeated.
        assertThat(backend.requests()).hasSize(4 + 4 + 1);
        assertThat(traces.all()).allSatisfy(c -> assertThat(c.attempts()).isEqualTo(1));
        LlmRequest retry = backend.requests().stream().filter(r -> Scripted.retryStep(r) == 1 && Scripted.agent(r) == 1)
                .findFirst().orElseThrow();
        assertThat(retry.promptText()).endsWith("Question: Who was Milhouse named after?\nThought 1: \nAction 1:");
        assertThat(a.parseFailures()).containsExactly("agent-2 step 1: empty output (EMPTY_OUTPUT) in ''");
        assertThat(a.signals()).containsEntry("action_retries", 2.0).containsEntry("action_failures", 1.0);
        String judge = backend.requests().stream().filter(Scripted::isJudge).findFirst().orElseThrow().promptText();
        assertThat(judge).contains("Agent 2:\nThought 1: \nAction 1: \nObservation 1: Invalid action:\nThought 2:")
                .contains("Action 2: Lookup[named after]\nObservation 2: No more results.\n");
        assertThat(Candidate.of(a)).extracting(Candidate::answer).containsExactly("Richard Nixon", "unknown");
        assertThat(a.prediction()).isEqualTo("Richard Nixon");
    }

    /** Issue 25 point 4: Table 1's ReAct on FEVER (64.8) is Table 7's ReAct Prompt row; RC keeps the enhanced one. */
    @Test
    void reactBaselinesUseReActsFeverPromptByDefaultAndCourtTheEnhancedOne() {
        QaItem claim = new QaItem("c1", "Milhouse was named after Richard Nixon.", MILHOUSE.documents(), List.of(),
                List.of(), null, Map.of(), null);
        for (String method : List.of("react", "react-cot-sc", "cot-sc-react", "react-self-refine")) {
            ScriptedBackend backend = ScriptedBackend.perSample((r, i) -> Scripted.step(r) > 0
                    ? " Done.\nAction " + Scripted.step(r) + ": Finish[SUPPORTS]"
                    : "Answer: guess " + i + "\nVerdict: correct"); // CoT-SC samples that disagree; feedback content
            Methods.byName(method).answer(claim, Scripted.context(backend, traces, "fever", Map.of()));
            LlmRequest step = backend.requests().stream().filter(r -> Scripted.step(r) == 1).findFirst().orElseThrow();
            assertThat(step.promptText()).as(method).startsWith("Determine if there is Observation that SUPPORTS or REFUTES")
                    .contains("Thought 2: Because he \"appeared in the 2009 Fox television film Virtuality\"")
                    .doesNotContain("Applying reverse thinking");
            assertThat(Methods.byName(method).spec().resolve(Map.of()).string("fever-prompt")).as(method).isEqualTo("react");
        }
        for (String method : List.of("court", "court-no-judge", "react-sc", "react-mad", "react-judge")) {
            assertThat(Methods.byName(method).spec().resolve(Map.of()).string("fever-prompt")).as(method).isEqualTo("enhanced");
        }
        ScriptedBackend enhanced = ScriptedBackend.perSample((r, i) -> " Done.\nAction 1: Finish[SUPPORTS]");
        Methods.byName("react").answer(claim, Scripted.context(enhanced, traces, "fever", Map.of("fever-prompt", "enhanced")));
        assertThat(enhanced.requests().getFirst().promptText()).contains("Applying reverse thinking");
    }

    @Test
    void agentDiversityOptionsReachTheRequestsAndTheExampleOrder() {
        ScriptedBackend backend = ScriptedBackend.perSample((r, i) -> Scripted.isJudge(r) ? "Action: Complete[x]"
                : " Done.\nAction 1: Finish[x]");
        new ReasoningCourt().answer(MILHOUSE, Scripted.context(backend, traces, "hotpotqa",
                Map.of("temperatures", "0, 0.7", "seeds", "11,12", "example-order", "rotate")));
        LlmRequest one = backend.requests().stream().filter(r -> Scripted.step(r) == 1 && Scripted.agent(r) == 1).findFirst().orElseThrow();
        LlmRequest two = backend.requests().stream().filter(r -> Scripted.step(r) == 1 && Scripted.agent(r) == 2).findFirst().orElseThrow();
        assertThat(one.temperature()).isZero();
        assertThat(one.seed()).isEqualTo(11L);
        assertThat(two.temperature()).isEqualTo(0.7);
        assertThat(two.seed()).isEqualTo(12L);
        String examples1 = one.promptText().substring(one.promptText().indexOf("Here are some examples.\n") + 24);
        String examples2 = two.promptText().substring(two.promptText().indexOf("Here are some examples.\n") + 24);
        assertThat(examples1).startsWith("Question: What is the elevation range");
        assertThat(examples2).startsWith("Question: Musician and satirist Allie Goertz");
        assertThat(examples2).contains("Question: What is the elevation range") // rotated, not dropped
                .endsWith("Question: Who was Milhouse named after?\nThought 1:");
        assertThat(examples1.length()).isEqualTo(examples2.length());
    }

    @Test
    void nAgentsAndTheJudgeOverAPageStoreInsteadOfTheQuestionsParagraphs() {
        QaItem bare = new QaItem("q9", "Who was Milhouse named after?", List.of(), List.of(), List.of(), null, Map.of(), null);
        try (PageStore pages = PageStore.of(QuestionPages.titled(MILHOUSE.documents()))) {
            ScriptedBackend backend = ScriptedBackend.perSample((r, i) -> Scripted.isJudge(r) ? judgeTrusting(r, 3)
                    : Scripted.diligentAgent(r));
            MethodAnswer a = new ReasoningCourt().answer(bare, Scripted.context(backend, traces, "hotpotqa",
                    Map.of("agents", "3"), pages));
            assertThat(Candidate.of(a)).hasSize(3).allSatisfy(c -> assertThat(c.answer()).isEqualTo("Richard Nixon"));
            assertThat(backend.requests()).hasSize(3 * 3 + 1);
            assertThat(backend.requests().stream().filter(Scripted::isJudge).findFirst().orElseThrow().promptText())
                    .startsWith("You are given 3 solutions").contains("Agent 3:\n");
            assertThat(a.prediction()).isEqualTo("Richard Nixon");
            assertThat(a.signals()).containsEntry("agents_agree", 1.0);
        }
    }

    @Test
    void musiqueAgentsReadTheQuestionsParagraphsByTitle() {
        ScriptedBackend backend = ScriptedBackend.perSample((r, i) -> {
            if (Scripted.isJudge(r)) {
                return "Action: Complete[Richard Nixon]";
            }
            return Scripted.step(r) == 1 ? " The title \"Milhouse Van Houten\" is relevant.\nAction 1: Lookup[Milhouse Van Houten]"
                    : " It says so.\nAction 2: Finish[Richard Nixon]";
        });
        new ReasoningCourt().answer(MILHOUSE, Scripted.context(backend, traces, "musique", Map.of()));
        LlmRequest first = backend.requests().stream().filter(r -> Scripted.step(r) == 1).findFirst().orElseThrow();
        assertThat(first.promptText()).contains("Action 5: Finish[Francisco Guterres]\nQuestion: Who was Milhouse named"
                + " after?\nParagraph titles: ['Milhouse Van Houten', 'Richard Nixon', 'Spiro Agnew']\nThought 1:");
        LlmRequest second = backend.requests().stream().filter(r -> Scripted.step(r) == 2).findFirst().orElseThrow();
        assertThat(second.promptText()).contains("Observation 1: Milhouse Mussolini Van Houten is a character in The"
                + " Simpsons. He was created by Matt Groening. Milhouse was named after");
        assertThat(backend.requests().stream().filter(Scripted::isJudge).findFirst().orElseThrow().promptText())
                .contains("You are given two solutions from different agents addressing a multi-hop question.\nYour task");
    }

    @Test
    void itIsRegisteredWithItsOptionsAndValidatesThem() {
        assertThat(Methods.spec("court").optionsLine()).startsWith("agents=2 (int), temperature=0.0 (double),")
                .contains("seeds= (ints (comma-separated))", "example-order=same", "fever-prompt=enhanced",
                        "max-steps=0 (int)", "judge-max-tokens=512 (int)");
        assertThat(Methods.byName("court").needs(Capability.PAGES)).isTrue();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Methods.spec("court").resolve(Map.of("seeds", "1,x")))
                .hasMessageStartingWith("option seeds must be integers separated by commas, was '1,x'");
    }
}
