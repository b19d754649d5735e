package dev.veracity.cli;

import dev.veracity.eval.run.EvalRunner;
import java.io.Console;
import java.io.PrintStream;
import java.util.Locale;
import java.util.function.Consumer;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * How an eval run shows its progress: a redrawn bar on a terminal; on a pipe or a log file (where a bar prints its
 * every redraw) one line per tenth of the run and at the end.
 */
final class EvalProgress implements Consumer<EvalRunner.Progress>, AutoCloseable {

    private final ProgressBar bar;
    private final PrintStream log;
    private final String task;
    private int lastTenth = -1;

    private EvalProgress(ProgressBar bar, PrintStream log, String task) {
        this.bar = bar;
        this.log = log;
        this.task = task;
    }

    static EvalProgress start(String task, int limit) {
        if (!terminal()) {
            return new EvalProgress(null, System.err, task);
        }
        return new EvalProgress(new ProgressBarBuilder().setTaskName(task).setStyle(ProgressBarStyle.ASCII)
                .setUpdateIntervalMillis(500).showSpeed().setConsumer(new ConsoleProgressBarConsumer(System.err, 140))
                .setInitialMax(limit > 0 ? limit : -1).build(), null, task);
    }

    /** Lines instead of a bar, to {@code log} (tests, pipes). */
    static EvalProgress lines(String task, PrintStream log) {
        return new EvalProgress(null, log, task);
    }

    @Override
    public synchronized void accept(EvalRunner.Progress p) {
        if (bar != null) {
            bar.maxHint(p.total());
            bar.stepTo(p.done());
            // live traffic: what the model was asked for so far (judge included; the cache's answers cost none)
            bar.setExtraMessage(" requests " + p.calls() + ", tokens billed " + p.tokens());
            return;
        }
        int tenth = p.total() == 0 ? 10 : (int) (10L * p.done() / p.total());
        if (tenth != lastTenth) {
            lastTenth = tenth;
            log.printf(Locale.ROOT, "%s: %d/%d questions, %d requests, %d tokens billed%n", task, p.done(), p.total(),
                    p.calls(), p.tokens());
        }
    }

    @Override
    public void close() {
        if (bar != null) {
            bar.close();
        }
    }

    /** Whether stderr's console is a terminal ({@code Console.isTerminal()} on JDK 22+, else a console at all). */
    static boolean terminal() {
        Console c = System.console();
        if (c == null) {
            return false;
        }
        try {
            return (Boolean) Console.class.getMethod("isTerminal").invoke(c);
        } catch (ReflectiveOperationException e) {
            return true;
        }
    }
}
