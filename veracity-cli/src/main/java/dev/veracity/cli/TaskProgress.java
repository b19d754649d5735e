package dev.veracity.cli;

import dev.veracity.eval.report.TextTable;
import dev.veracity.eval.run.EvalRunner;
import java.io.PrintStream;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * The progress of a long task as every command shows it (eval and probe, indexing, page stores, report writing,
 * reproduce): on a terminal a bar redrawn in place, as wide as the terminal ({@link Terminal#columns()}), with the
 * rate and the time left; on a pipe or a log file (where a bar would print its every redraw) one line per tenth of the
 * work, or every {@value #INTERVAL_SECONDS} s when its size is not known, and one at the end, each with the count, the
 * rate and, where the size is known or estimated, the time left; never a carriage return.
 *
 * <p>The size of the work may be known ({@link #total}), estimated from the share of an input read so far
 * ({@link #share}: a corpus file's bytes), or unknown (the count and the rate only).
 */
final class TaskProgress implements Consumer<EvalRunner.Progress>, AutoCloseable {

    /** Seconds between two lines off a terminal when the work's size is not known (or a tenth takes longer). */
    static final int INTERVAL_SECONDS = 10;

    /** On a terminal: where the bar is drawn and how wide (null off a terminal). */
    private final PrintStream barOut;
    private final int barWidth;
    /**
     * The bar, made at the first step of a phase, from the work done by then: the rate and the time left count only
     * what this run does (not a resumed run's questions done before, nor the time eval spent reading its questions).
     */
    private ProgressBar bar;
    private final PrintStream log;
    private final String task;
    private final String unit;
    private final LongSupplier nanos;
    private final int width;
    private final long started;
    /** When the current phase started: eval reads its questions, then answers them; each has its own rate. */
    private long phaseStarted;
    private boolean saidFirst;
    private long total;
    private long done;
    private long doneAtStart = -1;
    /** The share of the work done as estimated from an input read so far, or NaN. */
    private double share = Double.NaN;
    private String extra = "";
    private int lastTenth;
    private long lastLine;
    private boolean closed;
    /** When the last step came: the closing line's rate is the steps' own, not the time a run took to close. */
    private long lastStep;
    private boolean everyStep;
    /** Eval: the questions were being read and counted (so the next step starts the answering). */
    private boolean reading;

    private TaskProgress(PrintStream barOut, int barWidth, PrintStream log, String task, String unit, long total,
                         LongSupplier nanos, int width) {
        this.barOut = barOut;
        this.barWidth = barWidth;
        this.log = log;
        this.task = task;
        this.unit = unit;
        this.total = total;
        this.nanos = nanos;
        this.width = width;
        this.started = nanos.getAsLong();
        this.phaseStarted = started;
        this.lastLine = started;
        this.lastStep = started;
    }

    /**
     * The progress of {@code task}, counted in {@code unit} ("questions", "passages"), of {@code total} (0 or less: not
     * known): a bar on a terminal, lines to standard error otherwise.
     */
    static TaskProgress start(String task, String unit, long total) {
        int width = Terminal.columns();
        if (!Terminal.terminal()) {
            return lines(task, unit, total, System.err, System::nanoTime, width);
        }
        // one column spare: a line as wide as the terminal wraps on some of them
        return new TaskProgress(System.err, width - 1, null, task, unit, total, System::nanoTime, width);
    }

    /** Lines instead of a bar, to {@code log}, on this clock (tests, pipes). */
    static TaskProgress lines(String task, String unit, long total, PrintStream log, LongSupplier nanos, int width) {
        return new TaskProgress(null, 0, log, task, unit, total, nanos, width);
    }

    /** A bar redrawn on {@code out}, no wider than {@code width} (a test's view of the terminal's bar). */
    static TaskProgress barTo(String task, String unit, long total, PrintStream out, int width) {
        return new TaskProgress(out, width, null, task, unit, total, System::nanoTime, width);
    }

    /** The bar of a phase starting at {@code from} done: its rate and time left count from here, from now. */
    private ProgressBar bar(long from) {
        ProgressBar b = new ProgressBarBuilder().setTaskName(task).setUnit(" " + unit, 1).setStyle(ProgressBarStyle.ASCII)
                .setUpdateIntervalMillis(500).showSpeed().setConsumer(new ConsoleProgressBarConsumer(barOut, barWidth))
                .setInitialMax(total > 0 ? total : -1).startsFrom(from, java.time.Duration.ZERO).build();
        if (total <= 0 && !Double.isNaN(share) && from > 0) {
            b.maxHint(Math.max(from, (long) (from / share)));
        }
        b.setExtraMessage(extra.isEmpty() ? "" : " " + extra);
        return b;
    }

    /** Whether this progress is drawn as a bar (on a terminal), made or still to be made. */
    private boolean drawn() {
        return barOut != null;
    }

    /** The work done when the current bar started (what its rate and time left do not count), or -1 with no bar yet. */
    synchronized long barStart() {
        return bar == null ? -1 : bar.getStart();
    }

    /** Off a terminal, a line at every step (a few long steps: reproduce's runs), not only at each tenth. */
    TaskProgress everyStep() {
        this.everyStep = true;
        return this;
    }

    /** The work done so far. */
    synchronized long done() {
        return done;
    }

    /** An eval run's progress: its questions, the requests and tokens so far; first the questions read and counted. */
    static TaskProgress eval(String task, int limit) {
        return start(task, "questions", limit > 0 ? limit : -1);
    }

    @Override
    public synchronized void accept(EvalRunner.Progress p) {
        if (p.reading()) { // the dataset is being read: its questions counted as they are parsed
            reading = true;
            extra = "reading the questions"; // the bar's note; the lines say it in their own words
            stepTo(p.done());
            return;
        }
        if (reading) { // counted: the answering starts from here, its rate from its own start
            reading = false;
            if (bar != null) { // the reading's bar stays as its last line; the answering's is made at its first step
                bar.close();
                bar = null;
            }
            doneAtStart = -1;
            done = 0;
            saidFirst = false;
            phaseStarted = nanos.getAsLong();
        }
        // live traffic: what the model was asked for so far (judge included; the cache's answers cost none)
        extra = String.format(Locale.ROOT, "%,d requests, %,d tokens", p.calls(), p.tokens());
        total(p.total());
        stepTo(p.done());
    }

    /** The work's size, now known (or estimated better). */
    synchronized void total(long total) {
        this.total = total;
        if (bar != null && total > 0) {
            bar.maxHint(total);
        }
    }

    /** The share of the work done, estimated from an input read so far (a file's bytes): gives the time left. */
    synchronized void share(double share) {
        if (share > 0 && share <= 1) {
            this.share = share;
            if (drawn()) {
                if (bar != null && done > 0) {
                    bar.maxHint(Math.max(done, (long) (done / share)));
                }
            } else if (nanos.getAsLong() - lastStep >= INTERVAL_SECONDS * 1_000_000_000L) {
                tick(); // no step for a while (the first passages still being embedded): how far the reading is
            }
        }
    }

    /** A note after the figures ("reading the corpus"). */
    synchronized void extra(String text) {
        this.extra = text == null ? "" : text;
        if (bar != null) {
            bar.setExtraMessage(extra.isEmpty() ? "" : " " + extra);
        }
    }

    /** The work done so far; a count below the last (threads that report out of order) is ignored. */
    synchronized void stepTo(long n) {
        if (doneAtStart < 0) {
            doneAtStart = n; // a resumed run's questions already done do not count in its rate
        } else if (n < done) {
            return;
        }
        done = n;
        lastStep = nanos.getAsLong();
        if (drawn()) {
            if (bar == null) {
                bar = bar(n);
            }
            bar.setExtraMessage(extra.isEmpty() ? "" : " " + extra);
            bar.stepTo(n);
            return;
        }
        tick();
    }

    /** Off a terminal: a line at the first step, at each tenth of a known total, and every interval. */
    private void tick() {
        long now = nanos.getAsLong();
        // reading the questions: a line at the start and every interval, the tenths are the answering's
        int tenth = total > 0 && !reading ? (int) Math.min(10, 10L * done / total) : -1;
        if (!saidFirst || everyStep || (tenth >= 0 && tenth != lastTenth) || now - lastLine >= INTERVAL_SECONDS * 1_000_000_000L) {
            saidFirst = true;
            lastTenth = tenth;
            line(now);
        }
    }

    private void line(long now) {
        lastLine = now;
        log.println(TextTable.fit(status(now), width));
    }

    /** "TASK: 30/100 questions (30%), 2.1/s, 33 s left, EXTRA"; while eval reads: "TASK: reading the questions, 812 so far, 70/s". */
    synchronized String status(long now) {
        StringBuilder s = new StringBuilder(task).append(": ");
        double seconds = (now - phaseStarted) / 1e9;
        long counted = done - Math.max(0, doneAtStart);
        double rate = seconds > 0 && counted > 0 ? counted / seconds : Double.NaN;
        if (reading) {
            s.append(String.format(Locale.ROOT, "reading the %s, %,d so far", unit, done));
            if (!Double.isNaN(rate)) {
                s.append(", ").append(rate(rate)).append("/s");
            }
            return s.toString();
        }
        s.append(String.format(Locale.ROOT, "%,d", done));
        if (total > 0) {
            s.append(String.format(Locale.ROOT, "/%,d %s (%d%%)", total, unit, (int) (100L * done / total)));
        } else {
            s.append(' ').append(unit);
            if (!Double.isNaN(share)) {
                s.append(String.format(Locale.ROOT, " (about %d%% read)", (int) (share * 100)));
            }
        }
        if (!Double.isNaN(rate)) {
            s.append(", ").append(rate(rate)).append("/s");
        }
        double left = Double.NaN;
        if (total > 0 && rate > 0) {
            left = (total - done) / rate;
        } else if (total <= 0 && !Double.isNaN(share) && share > 0) {
            left = seconds * (1 - share) / share;
        }
        if (!Double.isNaN(left) && (total <= 0 || done < total)) {
            s.append(", ").append(duration(left)).append(" left");
        }
        if (!extra.isEmpty()) {
            s.append(", ").append(extra);
        }
        return s.toString();
    }

    /** The closing line (off a terminal): the count, the time taken and the rate. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (drawn()) {
            if (bar != null) {
                bar.close();
            }
            return;
        }
        long now = nanos.getAsLong();
        double seconds = (now - started) / 1e9;
        double phase = (lastStep - phaseStarted) / 1e9;
        long counted = done - Math.max(0, doneAtStart);
        log.println(TextTable.fit(String.format(Locale.ROOT, "%s: %,d %s in %s%s%s", task, done, unit,
                duration(seconds), phase > 0 && counted > 0 ? " (" + rate(counted / phase) + "/s)" : "",
                extra.isEmpty() || reading ? "" : ", " + extra), width));
    }

    private static String rate(double perSecond) {
        return perSecond >= 100 ? String.format(Locale.ROOT, "%,.0f", perSecond)
                : String.format(Locale.ROOT, "%.1f", perSecond);
    }

    /** "45 s", "3 min 20 s", "2 h 05 min". */
    static String duration(double seconds) {
        long s = Math.round(seconds);
        if (s < 60) {
            return s + " s";
        }
        if (s < 3600) {
            return s / 60 + " min " + s % 60 + " s";
        }
        return String.format(Locale.ROOT, "%d h %02d min", s / 3600, (s % 3600) / 60);
    }
}
