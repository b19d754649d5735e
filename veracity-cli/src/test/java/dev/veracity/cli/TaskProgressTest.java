package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.veracity.eval.run.EvalRunner;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Progress off a terminal: lines, never a carriage return, each with the count, the rate and the time left, on a clock
 * the test moves (no sleeping, no wall clock).
 */
class TaskProgressTest {

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream log = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    private final AtomicLong clock = new AtomicLong(1_000_000_000L);

    private void advanceSeconds(double s) {
        clock.addAndGet((long) (s * 1e9));
    }

    private List<String> lines() {
        return bytes.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void anEvalOffATerminalPrintsALinePerTenthWithTheRateAndTheTimeLeftAndNoCarriageReturn() {
        TaskProgress p = TaskProgress.lines("march on nq-open", "questions", 100, log, clock::get, 90);
        p.accept(EvalRunner.Progress.reading(0));
        advanceSeconds(12); // a large file: the questions counted as they are read
        p.accept(EvalRunner.Progress.reading(60));
        p.accept(EvalRunner.Progress.reading(100));
        for (int done = 0; done <= 100; done++) {
            p.accept(new EvalRunner.Progress(done, 100, 2L * done, 500L * done));
            advanceSeconds(0.5); // 2 questions per second
        }
        p.close();
        String all = bytes.toString(StandardCharsets.UTF_8);
        assertThat(all).doesNotContain("\r");
        List<String> lines = lines();
        assertThat(lines).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(90));
        // reading: at its start and after the interval, with the questions read so far and their rate
        assertThat(lines.get(0)).isEqualTo("march on nq-open: reading the questions, 0 so far");
        assertThat(lines.get(1)).isEqualTo("march on nq-open: reading the questions, 60 so far, 5.0/s");
        // answering: one line at its start and one per tenth, not one per question
        List<String> answering = lines.subList(2, lines.size());
        assertThat(answering).hasSize(12);
        assertThat(answering.get(0)).startsWith("march on nq-open: 0/100 questions (0%)");
        assertThat(answering.get(5)).isEqualTo(
                "march on nq-open: 50/100 questions (50%), 2.0/s, 25 s left, 100 requests, 25,000 tokens");
        assertThat(answering.get(10)).startsWith("march on nq-open: 100/100 questions (100%), 2.0/s, 200 requests")
                .doesNotContain("left");
        assertThat(answering.getLast()).isEqualTo(
                "march on nq-open: 100 questions in 1 min 3 s (2.0/s), 200 requests, 50,000 tokens");
    }

    @Test
    void workOfUnknownSizeSaysItsRateEveryIntervalAndTheTimeLeftFromTheShareRead() {
        TaskProgress p = TaskProgress.lines("Indexing", "passages", -1, log, clock::get, 80);
        p.stepTo(0);
        for (int s = 1; s <= 30; s++) {
            advanceSeconds(1);
            p.share(s / 120.0); // a quarter of the corpus file read in 30 s
            p.stepTo(1000L * s);
        }
        p.total(30_000);
        p.stepTo(30_000);
        p.close();
        List<String> lines = lines();
        assertThat(bytes.toString(StandardCharsets.UTF_8)).doesNotContain("\r");
        // the start, every 10 s, the end: a handful of lines for 30 s of work, not one per step
        assertThat(lines.getFirst()).isEqualTo("Indexing: 0 passages");
        assertThat(lines.get(1)).isEqualTo("Indexing: 10,000 passages (about 8% read), 1,000/s, 1 min 50 s left");
        assertThat(lines.get(2)).startsWith("Indexing: 20,000 passages (about 16% read), 1,000/s, 1 min 40 s left");
        assertThat(lines.getLast()).isEqualTo("Indexing: 30,000 passages in 30 s (1,000/s)");
        assertThat(lines).hasSizeLessThanOrEqualTo(6);
    }

    @Test
    void aBuildWhoseFirstPassagesAreStillBeingEmbeddedSaysHowMuchOfTheFileIsRead() {
        TaskProgress p = TaskProgress.lines("Indexing", "passages", -1, log, clock::get, 80);
        p.stepTo(0);
        for (int s = 1; s <= 25; s++) { // no passage indexed yet: the reading goes on
            advanceSeconds(1);
            p.share(s / 100.0);
        }
        assertThat(lines()).containsExactly("Indexing: 0 passages",
                "Indexing: 0 passages (about 10% read), 1 min 30 s left",
                "Indexing: 0 passages (about 20% read), 1 min 20 s left");
    }

    @Test
    void aStepReportedOutOfOrderByAnotherThreadDoesNotGoBack() {
        TaskProgress p = TaskProgress.lines("run", "questions", 10, log, clock::get, 80).everyStep();
        p.stepTo(0);
        advanceSeconds(1);
        p.stepTo(9);
        p.stepTo(5);
        assertThat(p.done()).isEqualTo(9);
        assertThat(lines()).hasSize(2);
    }

    @Test
    void theBarOnATerminalIsNoWiderThanTheTerminal() {
        TaskProgress p = TaskProgress.barTo("a-method-with-a-long-name on a-dataset-with-a-long-name", "questions", 500,
                log, 80);
        p.accept(new EvalRunner.Progress(250, 500, 123_456, 98_765_432));
        p.close();
        String drawn = bytes.toString(StandardCharsets.UTF_8);
        assertThat(drawn).contains("\r"); // redrawn in place
        for (String frame : drawn.split("[\r\n]")) {
            assertThat(frame.length()).as(frame).isLessThanOrEqualTo(80);
        }
    }

    /**
     * On a terminal, a resumed eval's bar starts from the questions already done, at the first answering step (not at
     * the start, before the questions were read): the bar's rate and time left count only this run's answering.
     */
    @Test
    void aResumedEvalsBarStartsFromTheQuestionsAlreadyDoneAfterTheReading() {
        TaskProgress p = TaskProgress.barTo("no-rag on nq-open", "questions", -1, log, 80);
        for (int read = 1; read <= 10; read++) {
            p.accept(EvalRunner.Progress.reading(read));
        }
        assertThat(p.barStart()).as("the reading's own bar").isEqualTo(1);
        p.accept(new EvalRunner.Progress(8, 10, 0, 0)); // 8 of 10 were done by an earlier run
        assertThat(p.barStart()).isEqualTo(8);
        p.accept(new EvalRunner.Progress(9, 10, 1, 100));
        assertThat(p.barStart()).isEqualTo(8);
        p.close();
        assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("9/10");
    }

    /** An index resumed at 500 passages: the bar is made at its first step, from there. */
    @Test
    void aResumedIndexsBarStartsFromThePassagesAlreadyIn() {
        TaskProgress p = TaskProgress.barTo("Indexing", "passages", -1, log, 80);
        assertThat(p.barStart()).as("no bar before the first step").isEqualTo(-1);
        p.stepTo(500);
        p.stepTo(600);
        assertThat(p.barStart()).isEqualTo(500);
        p.close();
    }

    /** Standard error as the launcher found it ({@code [ -t 2 ]}) decides; without the property, the console. */
    @Test
    void theLaunchersPropertySaysWhetherStandardErrorIsATerminal() {
        assertThat(Terminal.terminal("1")).isTrue();
        assertThat(Terminal.terminal("0")).isFalse();
        assertThat(Terminal.terminal(null)).as("the test's JVM: no terminal").isFalse();
    }
}
