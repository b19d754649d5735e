package dev.veracity.eval.judge;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts a judge's verdicts for a run's report: correct, incorrect and unparseable verdicts, and samples asked
 * and unparseable. Thread-safe: judges run on many virtual threads at once. Every {@link LlmJudge} keeps one
 * ({@link LlmJudge#stats()}); a runner may also keep its own and {@link #record} verdicts into it.
 */
public final class JudgeStats {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final AtomicLong correct = new AtomicLong();
    private final AtomicLong incorrect = new AtomicLong();
    private final AtomicLong unparseable = new AtomicLong();
    private final AtomicLong samples = new AtomicLong();
    private final AtomicLong unparseableSamples = new AtomicLong();

    public void record(Verdict v) {
        switch (v.outcome()) {
            case CORRECT -> correct.incrementAndGet();
            case INCORRECT -> incorrect.incrementAndGet();
            case UNPARSEABLE -> unparseable.incrementAndGet();
        }
        samples.addAndGet(v.votes().size());
        unparseableSamples.addAndGet(v.unparseableSamples());
    }

    public long verdicts() {
        return correct.get() + incorrect.get() + unparseable.get();
    }

    public long correct() {
        return correct.get();
    }

    public long incorrect() {
        return incorrect.get();
    }

    public long unparseable() {
        return unparseable.get();
    }

    public long samples() {
        return samples.get();
    }

    public long unparseableSamples() {
        return unparseableSamples.get();
    }

    /** Unparseable samples over all samples (0 when none were asked). */
    public double sampleParseFailureRate() {
        long s = samples.get();
        return s == 0 ? 0.0 : (double) unparseableSamples.get() / s;
    }

    public ObjectNode toJsonNode() {
        ObjectNode o = JSON.createObjectNode();
        o.put("verdicts", verdicts());
        o.put("correct", correct());
        o.put("incorrect", incorrect());
        o.put("unparseable", unparseable());
        o.put("samples", samples());
        o.put("unparseable_samples", unparseableSamples());
        return o;
    }

    /** {"verdicts":..,"correct":..,"incorrect":..,"unparseable":..,"samples":..,"unparseable_samples":..} */
    public String toJson() {
        return toJsonNode().toString();
    }

    @Override
    public String toString() {
        return "JudgeStats[verdicts=" + verdicts() + ", correct=" + correct() + ", incorrect=" + incorrect()
                + ", unparseable=" + unparseable() + ", samples=" + samples() + ", unparseableSamples="
                + unparseableSamples() + "]";
    }
}
