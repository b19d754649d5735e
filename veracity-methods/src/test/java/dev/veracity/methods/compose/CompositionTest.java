package dev.veracity.methods.compose;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.veracity.llm.ScriptedBackend;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.method.Capability;
import dev.veracity.method.MethodAnswer;
import dev.veracity.method.MethodContext;
import dev.veracity.method.QaMethod;
import dev.veracity.methods.Methods;
import dev.veracity.qa.Document;
import dev.veracity.qa.QaItem;
import dev.veracity.trace.CallContext;
import dev.veracity.trace.CallRecord;
import dev.veracity.trace.InMemoryTraces;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** A method followed by MARCH's verification and a policy, scripted: the base answers, the Checker agrees or not. */
class CompositionTest {

    private static final QaItem EIFFEL = new QaItem("q1", "When was the Eiffel Tower completed?",
            List.of(Document.of("d1", "", "The Eiffel Tower was completed in 1889.")), List.of(), List.of(), null, Map.of(),
            null);

    private final InMemoryTraces traces = new InMemoryTraces();

    /** The base (standard-rag's concise prompt) answers 1889; the Checker reads the documents and says {@code checker}. */
    private MethodContext ctx(String checker, Map<String, String> options) {
        ScriptedBackend backend = ScriptedBackend.perSample((r, i) -> {
            String p = r.promptText();
            if (p.startsWith("You are a data annotation expert")) {
                return "- Question: In which year was the Eiffel Tower completed? [Answer: 1889]";
            }
            if (p.startsWith("You are a data validation expert")) {
                return "1. Evidence: the document gives the year. [Answer: " + checker + "]";
            }
            return "1889";
        });
        LlmClient client = LlmClient.builder(backend).traces(traces).build();
        return new MethodContext(client, CallContext.of("run", "q1", "composed"), "nq-open", false, options);
    }

    private Map<String, Long> callsByRole() {
        return traces.all().stream().collect(Collectors.groupingBy(c -> c.context().role(), Collectors.counting()));
    }

    @Test
    void aVerifiedAnswerIsKeptAndItsVerdictReported() {
        QaMethod m = Methods.byName("standard-rag+march");
        assertThat(m.name()).isEqualTo("standard-rag+march");
        MethodAnswer a = m.answer(EIFFEL, ctx("1889", Map.of()));
        assertThat(a.prediction()).isEqualTo("1889");
        assertThat(a.signals()).containsEntry("consistent", 1.0).containsEntry("ztr", 0.0).containsEntry("claims", 1.0)
                .containsEntry("abstained_by_policy", 0.0);
        // the stages' calls add up: one answer, one Proposer call, three Checker samples (MARCH's default k)
        assertThat(callsByRole()).containsEntry("answerer", 1L).containsEntry("proposer", 1L);
        assertThat(traces.all().stream().filter(c -> c.context().role().equals("checker"))
                .mapToInt(c -> c.outputs().size()).sum()).isEqualTo(3);
        // the Proposer saw the question with the answer, and (composition default) the typed-claims prompt
        CallRecord proposer = traces.all().stream().filter(c -> c.context().role().equals("proposer")).findFirst().orElseThrow();
        assertThat(proposer.prompt()).contains("Question: When was the Eiffel Tower completed?\\nAnswer: 1889")
                .contains("a number, a date, a name, or a yes/no fact");
    }

    @Test
    void aFailedVerificationIsReportedAndWithAbstainTheAnswerBecomesIDontKnow() {
        MethodAnswer reported = Methods.byName("standard-rag+march").answer(EIFFEL, ctx("1925", Map.of()));
        assertThat(reported.prediction()).isEqualTo("1889");
        assertThat(reported.signals()).containsEntry("consistent", 0.0).containsEntry("ztr", -1.0);

        MethodAnswer abstained = Methods.byName("standard-rag+march+abstain").answer(EIFFEL,
                ctx("1925", Map.of("march.samples", "1")));
        assertThat(abstained.prediction()).isEqualTo("I don't know");
        assertThat(abstained.answers()).isEmpty();
        assertThat(abstained.raw()).isEqualTo("1889"); // what the base said is kept
        assertThat(abstained.signals()).containsEntry("abstained_by_policy", 1.0);
        // march.samples=1 reached MARCH: one Checker sample for this question
        assertThat(traces.all().stream().filter(c -> c.context().role().equals("checker"))
                .mapToInt(c -> c.outputs().size()).sum()).isEqualTo(3 + 1);
    }

    /** The base says 1925 in its greedy answer (sample 0) and 1889 in any other sample; the Checker reads 1889. */
    private MethodContext wrongThenRight(Map<String, String> options) {
        ScriptedBackend backend = ScriptedBackend.perSample((r, i) -> {
            String p = r.promptText();
            if (p.startsWith("You are a data annotation expert")) {
                String answer = p.substring(p.lastIndexOf("Answer: ") + 8).strip();
                return "- Question: In which year was the Eiffel Tower completed? [Answer: " + answer + "]";
            }
            if (p.startsWith("You are a data validation expert")) {
                return "1. Evidence: the document gives the year. [Answer: 1889]";
            }
            return i == 0 ? "1925" : "1889";
        });
        LlmClient client = LlmClient.builder(backend).traces(traces).build();
        return new MethodContext(client, CallContext.of("run", "q1", "composed"), "nq-open", false, options);
    }

    @Test
    void regenerateAsksTheBaseForAnotherSampleUntilAnAnswerPasses() {
        QaMethod m = Methods.byName("standard-rag+march+regenerate");
        MethodAnswer a = m.answer(EIFFEL, wrongThenRight(Map.of("march.samples", "1")));
        assertThat(a.prediction()).isEqualTo("1889");
        assertThat(a.signals()).containsEntry("consistent", 1.0).containsEntry("attempts", 2.0);
        // the second answer was asked as sample 1, sampled at MARCH's temperature (the base's own call is greedy)
        List<CallRecord> answers = traces.all().stream().filter(c -> c.context().role().equals("answerer")).toList();
        assertThat(answers).hasSize(2);
        assertThat(answers.get(0).settings()).doesNotContain("temperature\":0.6");
        assertThat(answers.get(1).settings()).contains("\"first_sample\":1").contains("\"temperature\":0.6");
        // the first answer was verified and rejected, the second verified as step 1
        List<CallRecord> proposers = traces.all().stream().filter(c -> c.context().role().equals("proposer")).toList();
        assertThat(proposers).extracting(c -> c.context().step()).containsExactly(0, 1);
        assertThat(proposers.get(0).prompt()).contains("Answer: 1925");
        assertThat(proposers.get(1).prompt()).contains("Answer: 1889");
    }

    @Test
    void regenerateKeepsTheLastAnswerWhenNoneVerifiesAndThePolicyOptionIsHonouredEverywhere() {
        // r = 0 extra samples: one attempt, reported
        MethodAnswer once = Methods.byName("standard-rag+march+regenerate").answer(EIFFEL,
                wrongThenRight(Map.of("march.samples", "1", "march.r", "0")));
        assertThat(once.prediction()).isEqualTo("1925");
        assertThat(once.signals()).containsEntry("consistent", 0.0).containsEntry("attempts", 1.0);
        // march.policy on a plain +march composition is not ignored: abstain
        MethodAnswer abstained = Methods.byName("standard-rag+march").answer(EIFFEL,
                wrongThenRight(Map.of("march.samples", "1", "march.policy", "abstain")));
        assertThat(abstained.prediction()).isEqualTo("I don't know");
        assertThat(Methods.spec("standard-rag+march+regenerate").option("march.policy").defaultValue())
                .isEqualTo("regenerate");
    }

    @Test
    void optionsAreTheBasesPlusMarchsPrefixedAndBadNamesSayTheSyntax() {
        var spec = Methods.spec("madam-rag+march+abstain");
        assertThat(spec.option("rounds")).isNotNull();
        assertThat(spec.option("march.samples")).isNotNull();
        assertThat(spec.option("march.claims").defaultValue()).isEqualTo("typed");
        assertThat(Methods.byName("no-rag+march").needs(Capability.DOCUMENTS)).isTrue();
        assertThatThrownBy(() -> Methods.byName("no-rag+checker")).hasMessageContaining("METHOD+march");
        assertThatThrownBy(() -> Methods.byName("march+march")).hasMessageContaining("already verifies");
        assertThatThrownBy(() -> Methods.byName("nope+march")).hasMessageContaining("unknown method 'nope'");
        assertThatThrownBy(() -> spec.resolve(Map.of("march.bogus", "1"))).hasMessageContaining("bogus");
    }
}
