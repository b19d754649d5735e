package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.cli.report.MethodSections;
import dev.veracity.eval.report.QuestionSection;
import dev.veracity.eval.report.QuestionSection.Section;
import dev.veracity.eval.results.ResultLine;
import dev.veracity.trace.CallRecord;
import dev.veracity.trace.TraceStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The methods' question-page sections on real runs: the demo runs MARCH, Reasoning Court, MADAM-RAG, C-3PO and TruthRL
 * on RAMDocs questions against the simulator's built-in reader, and each section must show what its method decided as
 * the run's traces record it (the Proposer's and Checkers' outputs, the agents' turns, the judge's and the
 * aggregator's outputs), never a fixed result.
 */
class MethodSectionsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    @BeforeAll
    static void runTheMethods() {
        CliRun.Result r = CliRun.run("demo", "--method", "march,court,madam-rag,c3po,truthrl", "--limit", "4",
                "--latency-ms", "0", "--out", dir.resolve("demo").toString());
        assertThat(r.code()).as(r.err()).isZero();
    }

    /** The run's result lines. */
    static List<ResultLine> lines(String method) throws Exception {
        List<ResultLine> out = new ArrayList<>();
        for (String l : Files.readAllLines(dir.resolve("demo").resolve(method).resolve("results.jsonl"))) {
            if (!l.isBlank()) {
                out.add(JSON.readValue(l, ResultLine.class));
            }
        }
        assertThat(out).isNotEmpty();
        return out;
    }

    /** The question's calls in the run's traces, in order. */
    static List<CallRecord> calls(String method, String question) throws Exception {
        try (TraceStore store = TraceStore.open(dir.resolve("demo").resolve(method).resolve("traces.db"))) {
            return store.runs().stream().flatMap(id -> store.calls(id).stream())
                    .filter(c -> c.context().questionId().equals(question)).toList();
        }
    }

    static Section section(String name, String method, ResultLine line) {
        QuestionSection s = new MethodSections().sections().stream().filter(x -> x.name().equals(name)).findFirst()
                .orElseThrow();
        Optional<Section> shown = s.render(method, line, List.of());
        assertThat(shown).as("%s section of %s", name, line.id()).isPresent();
        return shown.get();
    }

    static String outputs(List<CallRecord> calls, String role) {
        StringBuilder sb = new StringBuilder();
        calls.stream().filter(c -> c.context().role().startsWith(role)).forEach(c -> c.outputs().forEach(o -> sb.append(o).append('\n')));
        return sb.toString();
    }

    @Test
    void marchShowsEveryClaimWithEachCheckersAnswerAndTheVerdict() throws Exception {
        int claims = 0;
        for (ResultLine line : lines("march")) {
            Section s = section("march", "march", line);
            List<CallRecord> calls = calls("march", line.id());
            String proposer = outputs(calls, "proposer");
            String checkers = outputs(calls, "checker");
            assertThat(s.notes().getFirst()).startsWith("Verdict: ");
            double consistent = line.signals().get("consistent");
            assertThat(s.notes().getFirst()).contains(consistent == 1.0 && line.signals().get("claims") > 0 ? "passed"
                    : consistent == 1.0 ? "no claims" : "failed");
            for (List<String> row : s.rows()) {
                claims++;
                assertThat(proposer).as("the Proposer wrote the claim").contains(row.get(1)).contains(row.get(2));
                // one column per Checker sample: each answer is what that sample wrote
                for (int i = 3; i < s.columns().size() - 2; i++) {
                    assertThat(s.columns().get(i)).isEqualTo("Checker " + (i - 2));
                    if (!row.get(i).equals("(no answer)")) {
                        assertThat(checkers).contains(row.get(i));
                    }
                }
                assertThat(row.getLast()).isIn("confirmed", "fault");
                assertThat(row.get(s.columns().size() - 2)).matches("[+-]?\\d+");
            }
            assertThat(s.rows()).hasSize((int) (double) line.signals().get("claims"));
        }
        assertThat(claims).as("the demo's responses make claims").isPositive();
    }

    @Test
    void courtShowsBothTrajectoriesStepByStepBothAnswersAndTheJudgesChoice() throws Exception {
        for (ResultLine line : lines("court")) {
            Section s = section("court", "court", line);
            List<CallRecord> calls = calls("court", line.id());
            assertThat(s.rows()).hasSize(2);
            assertThat(s.blocks()).extracting(QuestionSection.Block::title)
                    .containsExactly("Trajectory of agent-1", "Trajectory of agent-2");
            for (int a = 0; a < 2; a++) {
                QuestionSection.Block b = s.blocks().get(a);
                String turns = outputs(calls, "agent-" + (a + 1));
                assertThat(b.columns()).containsExactly("step", "thought", "action", "observation");
                assertThat(b.rows()).isNotEmpty().allSatisfy(step -> {
                    assertThat(turns).contains(step.get(1)); // the model wrote the thought
                    assertThat(step.get(3)).isNotBlank(); // the environment answered
                });
                assertThat(s.rows().get(a).get(1)).isEqualTo(line.candidates().get(a).answer());
            }
            String judge = outputs(calls, "judge");
            String note = s.notes().getFirst();
            assertThat(judge).contains("Complete[" + line.prediction() + "]");
            if (note.startsWith("The judge selected ")) {
                String agent = note.substring("The judge selected ".length(), note.indexOf("'s answer"));
                List<List<String>> chosen = s.rows().stream().filter(r -> r.getLast().equals("chosen by the judge")).toList();
                assertThat(chosen).hasSize(1);
                assertThat(chosen.getFirst().getFirst()).isEqualTo(agent);
                assertThat(dev.veracity.qa.AnswerNormalizer.squad(chosen.getFirst().get(1)))
                        .isEqualTo(dev.veracity.qa.AnswerNormalizer.squad(line.prediction()));
            } else {
                assertThat(note).startsWith("The judge synthesised");
                assertThat(s.rows()).noneMatch(r -> dev.veracity.qa.AnswerNormalizer.squad(r.get(1))
                        .equals(dev.veracity.qa.AnswerNormalizer.squad(line.prediction())));
            }
        }
    }

    @Test
    void madamShowsEachAgentsAnswerPerRoundAndTheAggregatorsKeptAndDroppedAnswers() throws Exception {
        for (ResultLine line : lines("madam-rag")) {
            Section s = section("madam", "madam-rag", line);
            List<CallRecord> calls = calls("madam-rag", line.id());
            assertThat(s.columns().getFirst()).isEqualTo("agent");
            assertThat(s.columns().get(1)).isEqualTo("round 1");
            // one row per agent (one per document) and the aggregator's
            long agents = calls.stream().map(c -> c.context().role()).filter(r -> r.startsWith("agent-")).distinct().count();
            assertThat(s.rows()).hasSize((int) agents + 1);
            for (List<String> row : s.rows().subList(0, (int) agents)) {
                for (int round = 1; round < row.size(); round++) {
                    int step = round;
                    String said = calls.stream().filter(c -> c.context().role().equals(row.getFirst())
                            && c.context().step() == step).flatMap(c -> c.outputs().stream()).findFirst().orElseThrow();
                    assertThat(said).as("%s round %d", row.getFirst(), round).contains(row.get(round));
                }
            }
            assertThat(s.rows().getLast().getFirst()).isEqualTo("aggregator");
            QuestionSection.Block decided = s.blocks().getFirst();
            assertThat(decided.title()).isEqualTo("What the aggregator kept and dropped");
            List<String> kept = decided.rows().stream().filter(r -> r.get(1).equals("kept")).map(List::getFirst).toList();
            assertThat(kept).isEqualTo(line.answers()); // the final aggregation's set, as the prediction states it
            String lastAggregation = calls.stream().filter(c -> c.context().role().equals("aggregator"))
                    .reduce((x, y) -> y).orElseThrow().outputs().getFirst();
            assertThat(kept).allSatisfy(k -> assertThat(lastAggregation).contains(k));
            decided.rows().stream().filter(r -> r.get(1).equals("dropped")).forEach(r ->
                    assertThat(s.rows().subList(0, (int) agents).stream().map(List::getLast)).contains(r.getFirst()));
        }
    }

    @Test
    void c3poShowsTheProxysActionsInOrder() throws Exception {
        for (ResultLine line : lines("c3po")) {
            Section s = section("c3po", "c3po", line);
            List<CallRecord> calls = calls("c3po", line.id());
            assertThat(s.rows()).isNotEmpty();
            assertThat(s.rows().getFirst().get(1)).isEqualTo("router");
            assertThat(s.rows().getLast().get(1)).isEqualTo("answer");
            // one action per call, in the order of the calls
            assertThat(s.rows().stream().map(r -> r.get(1)).toList())
                    .isEqualTo(calls.stream().map(c -> c.context().role()).toList());
            assertThat(s.notes().getFirst()).startsWith("Strategy: ");
        }
    }

    @Test
    void truthRlShowsTheBoxAndItsClass() throws Exception {
        for (ResultLine line : lines("truthrl")) {
            Section s = section("truthrl", "truthrl", line);
            String output = outputs(calls("truthrl", line.id()), "answerer");
            List<String> row = s.rows().getFirst();
            if (row.get(1).equals("no_box")) {
                assertThat(output).doesNotContain("\\boxed{");
            } else {
                assertThat(output).contains("\\boxed{" + row.getFirst() + "}");
                assertThat(row.get(1)).isIn("answer", "abstain", "invalid_premise");
            }
        }
    }

    @Test
    void aLineWithoutTheMethodsDetailShowsNoSection() throws Exception {
        ResultLine madam = lines("madam-rag").getFirst();
        for (String name : List.of("march", "court", "c3po", "truthrl")) {
            QuestionSection s = new MethodSections().sections().stream().filter(x -> x.name().equals(name)).findFirst()
                    .orElseThrow();
            assertThat(s.render("madam-rag", madam, List.of())).as(name).isEmpty();
        }
    }
}
