package dev.veracity.eval.run;

import dev.veracity.llm.client.CallRanking;
import dev.veracity.trace.CallContext;
import dev.veracity.trace.CallRecord;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The order in which a run's calls take the model client's free slots ({@link CallRanking}).
 *
 * <p>Through most of a run, question by question in the dataset's order ({@link CallContext#order()}): the first
 * questions run as if alone, and results come early and in order. Once the last question is admitted ({@link #end()},
 * the run's end: every question left is in progress, and no new one will take a slot they leave), the call with the
 * longest chain of dependent calls still ahead of it goes first. (The end came earlier before: once the questions left
 * fit in the run's questions at once. With as many questions at once as the run has, that is its start, and every
 * newly admitted question's first call then went before the calls of the questions under way, which finished later.
 * C-3PO over 200 RAMDocs questions at 400 ms a call, all 200 at once: 1.24x the ideal with that end, 1.06x with this.)
 * In question order, a question admitted last whose chain is long (C-3PO's planning questions make six calls in a row,
 * the others three) would start that chain when the others are done, and end the run alone with most slots idle: the
 * run's wall time is then the ideal plus one long chain (issue 30, target 2).
 *
 * <p>A call that picks its question's path ({@link CallContext#branches()}: C-3PO's router) goes first of all: until it
 * returns, the question's length is not known, and a question admitted late whose path turns out long must start that
 * path early. Ranked by the chain ahead it would be learned as a mean (three and a half calls for C-3PO's router), it
 * waited behind the second and third calls of known plans, and the plans it revealed ran alone at the end (bench run,
 * C-3PO over 200 questions at 400 ms a call: 1.24x to 1.15x of the ideal). Only the method knows which calls branch:
 * ranking every question's opening calls first instead cost Reasoning Court, whose questions are of near one length,
 * a few hundredths, as the questions in progress then finished later and the last ones were admitted later.
 *
 * <p>The chain ahead of a call is learned from the run's own answered questions, by the call's role and step: from
 * each of their calls, the longest run of calls that each started after the one before it ended (the timing that
 * {@link dev.veracity.trace.CallStats#longestChain} reads), averaged. A call whose role and step no answered question
 * has shown yet goes before every known one, the call of the question that made the fewest calls first: a question
 * whose length is not known yet is started, not left to the end. Calls ranked before the end keep their question's
 * place and go before every call ranked after it (they have waited).
 */
final class EndOfRunRanking implements CallRanking {

    /**
     * Chains are learned in sixteenths of a call, capped here; an unknown call ranks above every known one, a
     * branching call above both.
     */
    private static final long SCALE = 16;
    private static final long MOST_KNOWN = SCALE * 65_536;
    private static final long MOST_MADE = 65_536;
    private static final long BRANCHING = MOST_KNOWN + MOST_MADE + 2;
    /** The rank's high part for the highest score: every rank after the end is above every question's place. */
    private static final long TOP = BRANCHING + 1;
    private static final long PLACES = 1L << 32;

    /** Mean chain ahead of a call of a role and step, over the answered questions' calls. */
    private record Mean(double sum, long n) {
        Mean plus(double chain) {
            return new Mean(sum + chain, n + 1);
        }
    }

    private final Map<String, Mean> ahead = new ConcurrentHashMap<>();
    /** Calls ranked so far, per question in progress. */
    private final Map<String, AtomicInteger> made = new ConcurrentHashMap<>();
    private volatile boolean end;

    /** From now on, the longest chain ahead first. */
    void end() {
        end = true;
    }

    boolean ended() {
        return end;
    }

    @Override
    public long rank(CallContext call) {
        int before = made.computeIfAbsent(call.questionId(), q -> new AtomicInteger()).getAndIncrement();
        long place = Math.min(Math.max(0, call.order()), PLACES - 1);
        if (!end) {
            return place;
        }
        if (call.branches()) {
            return (TOP - BRANCHING) * PLACES + place;
        }
        Mean m = ahead.get(key(call.role(), call.step()));
        long score = m == null ? MOST_KNOWN + 1 + (MOST_MADE - Math.min(before, MOST_MADE)) : scaled(m);
        return (TOP - score) * PLACES + place;
    }

    /**
     * A question answered: learns the chain ahead of each of its {@code calls} (their records). Quadratic in the
     * question's calls, as {@link dev.veracity.trace.CallStats#longestChain} is: a question makes tens of them.
     */
    void answered(List<CallRecord> calls) {
        List<CallRecord> sorted = calls.stream().sorted(Comparator.comparingLong(CallRecord::submittedMicros)).toList();
        int[] chain = new int[sorted.size()];
        for (int i = sorted.size() - 1; i >= 0; i--) {
            int after = 0;
            for (int j = i + 1; j < sorted.size(); j++) {
                if (sorted.get(j).submittedMicros() >= sorted.get(i).endedMicros()) {
                    after = Math.max(after, chain[j]);
                }
            }
            chain[i] = after + 1;
            CallRecord r = sorted.get(i);
            int c = chain[i];
            ahead.merge(key(r.context().role(), r.context().step()), new Mean(c, 1), (a, b) -> a.plus(c));
        }
    }

    private static long scaled(Mean m) {
        return Math.min(MOST_KNOWN, Math.round(m.sum() / m.n() * SCALE));
    }

    /** A question done with (answered or failed): its count of calls made is let go. */
    void done(String questionId) {
        made.remove(questionId);
    }

    private static String key(String role, int step) {
        return role + '\u0000' + step;
    }
}
