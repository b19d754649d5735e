package dev.veracity.llm.client;

import dev.veracity.llm.ErrorKind;
import dev.veracity.llm.LlmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The adaptive limit on a scripted server and a hand-moved clock: in rounds, as many attempts as the limit allows
 * start together and end after the round trip the script gives each. Nothing depends on wall time.
 */
class CallLimiterTest {

    private static final long MS = 1_000_000L;

    /** One attempt's answer: its length and, for this many in flight, its round trip; or a refusal for load. */
    record Answer(long tokens, long roundTripMs, boolean refused) {
    }

    /** A scripted server: the answer to attempt {@code i} of {@code inFlight} started together. */
    interface Server {
        Answer answer(int i, int inFlight);
    }

    /** Every answer 20 tokens in {@code latencyMs}, however many are in flight. */
    private static Server flat(long latencyMs) {
        return (i, n) -> new Answer(20, latencyMs, false);
    }

    /**
     * {@code capacity} slots, one latency per wave of them, the rest queued; past {@code capacity + maxQueue} in flight
     * a refusal (503). Answers of 10 to 200 tokens ({@code random}), taking {@code 40 + msPerToken x tokens} ms, or a
     * flat 100 ms when {@code msPerToken} is 0.
     */
    private static Server queueing(int capacity, int maxQueue, int msPerToken, Random random) {
        return (i, n) -> {
            if (i >= capacity + maxQueue) {
                return new Answer(0, 1, true);
            }
            long tokens = 10 + random.nextInt(191);
            long latency = msPerToken == 0 ? 100 : 40 + msPerToken * tokens;
            return new Answer(tokens, latency * (1 + i / capacity), false);
        };
    }

    /**
     * Runs {@code rounds} rounds: the limit's worth of attempts start together and end in the order of their round
     * trips, the clock moved on to each end.
     */
    private static void rounds(CallLimiter limiter, AtomicLong clock, Server server, int rounds) {
        for (int r = 0; r < rounds; r++) {
            List<CallLimiter.Permit> held = new ArrayList<>();
            for (CallLimiter.Permit p; (p = limiter.tryAcquire()) != null; ) {
                held.add(p);
            }
            List<Answer> answers = new ArrayList<>();
            for (int i = 0; i < held.size(); i++) {
                answers.add(server.answer(i, held.size()));
            }
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < held.size(); i++) {
                order.add(i);
            }
            order.sort(Comparator.comparingLong(i -> answers.get(i).roundTripMs()));
            long start = clock.get();
            for (int i : order) {
                Answer a = answers.get(i);
                clock.set(start + a.roundTripMs() * MS);
                if (a.refused()) {
                    held.get(i).dropped();
                } else {
                    held.get(i).succeeded(a.tokens());
                }
            }
        }
    }

    @Test
    void autoGrowsWhileTheRoundTripStaysFlat() {
        AtomicLong clock = new AtomicLong();
        CallLimiter limiter = new CallLimiter(ConcurrencyLimit.AUTO, clock::get);
        assertThat(limiter.limit()).isEqualTo(16);

        rounds(limiter, clock, flat(100), 20); // a server that takes anything at the same latency

        assertThat(limiter.limit()).as("grown past its start").isGreaterThan(32);
        assertThat(limiter.highestLimit()).isEqualTo(limiter.limit());
        assertThat(limiter.lowestLimit()).isEqualTo(16);
        rounds(limiter, clock, flat(100), 200);
        assertThat(limiter.limit()).as("up to its max, never past it").isBetween(240, ConcurrencyLimit.AUTO.max());
        assertThat(limiter.highestLimit()).isLessThanOrEqualTo(ConcurrencyLimit.AUTO.max());
    }

    @Test
    void autoGrowsWhenTheRoundTripFollowsTheAnswersLengthButNothingQueues() {
        AtomicLong clock = new AtomicLong();
        CallLimiter limiter = new CallLimiter(ConcurrencyLimit.AUTO, clock::get);

        // answers of 10 to 200 tokens at 3 ms a token on a server with room for all: 70 to 640 ms, never queued
        rounds(limiter, clock, queueing(100_000, 0, 3, new Random(7)), 200);

        // Vegas alone reads the long answers as queueing and holds the limit near 6
        assertThat(limiter.limit()).isGreaterThan(64);
    }

    @Test
    void autoShrinksWhenTheServerQueues() {
        AtomicLong clock = new AtomicLong();
        CallLimiter limiter = new CallLimiter(new ConcurrencyLimit(true, 64, 256), clock::get);

        // 8 slots, the rest queue: of 64 in flight the last wait 7 waves
        rounds(limiter, clock, queueing(8, 100_000, 0, new Random(7)), 60);

        assertThat(limiter.limit()).as("backed off towards the server's 8 slots").isBetween(8, 20);
        assertThat(limiter.lowestLimit()).isLessThan(20);
        assertThat(limiter.drops()).isZero();
    }

    @Test
    void autoStaysNearTheCapacityOfAServerThatQueuesAndRefusesPastItsQueue() {
        for (int msPerToken : new int[] {0, 3}) {
            AtomicLong clock = new AtomicLong();
            CallLimiter limiter = new CallLimiter(ConcurrencyLimit.AUTO, clock::get);

            // the bench's server: 16 slots, 16 more queue, 503 past them; answers flat or as long as their tokens
            rounds(limiter, clock, queueing(16, 16, msPerToken, new Random(7)), 1000);

            assertThat(limiter.limit()).as("ms per token " + msPerToken).isBetween(8, 32);
            assertThat(limiter.highestLimit()).as("ms per token " + msPerToken).isLessThan(64);
        }
    }

    @Test
    void autoRisesToTheKneeWithoutOvershootingIntoRefusals() {
        AtomicLong clock = new AtomicLong();
        CallLimiter limiter = new CallLimiter(ConcurrencyLimit.AUTO, clock::get);

        // 16 slots, 16 queued, 503 past them: the first round trips are flat, the queue shows one round trip later
        rounds(limiter, clock, queueing(16, 16, 0, new Random(7)), 200);

        assertThat(limiter.drops()).as("Vegas unsmoothed went past 32 at once and was refused").isZero();
        assertThat(limiter.highestLimit()).isBetween(17, 32);
    }

    @Test
    void autoDoesNotCreepUpAgainstAServerThatQueuesWithoutEnd() {
        AtomicLong clock = new AtomicLong();
        CallLimiter limiter = new CallLimiter(ConcurrencyLimit.AUTO, clock::get);

        // 16 slots and an unbounded queue (vLLM's): no refusal ever says stop, only the round trips
        Server server = queueing(16, 1_000_000, 0, new Random(7));
        rounds(limiter, clock, server, 100);
        int settled = limiter.limit();
        assertThat(settled).isBetween(8, 32);
        for (int i = 0; i < 10; i++) {
            rounds(limiter, clock, server, 100);
            // Vegas re-probing its least round trip under load took a queued one for it and climbed at each probe
            assertThat(limiter.limit()).as("after " + (i + 2) + "00 rounds").isBetween(8, 32);
        }
    }

    @Test
    void refusalsForLoadCutTheLimitAndDoNotPassForTheLeastRoundTrip() {
        AtomicLong clock = new AtomicLong();
        CallLimiter limiter = new CallLimiter(ConcurrencyLimit.AUTO, clock::get);
        rounds(limiter, clock, flat(100), 5);
        int before = limiter.limit();

        // a burst of 503s, each answered at once
        for (int i = 0; i < 10; i++) {
            CallLimiter.Permit p = limiter.tryAcquire();
            clock.addAndGet(MS);
            p.dropped();
        }

        assertThat(limiter.limit()).isLessThan(before);
        assertThat(limiter.drops()).isEqualTo(10);
        // the 1 ms refusals were not taken for the server's least round trip: 100 ms answers again read as flat
        int after = limiter.limit();
        rounds(limiter, clock, flat(100), 3);
        assertThat(limiter.limit()).isGreaterThan(after);
    }

    @Test
    void failuresThatSayNothingOfLoadLeaveTheLimit() {
        AtomicLong clock = new AtomicLong();
        CallLimiter limiter = new CallLimiter(ConcurrencyLimit.AUTO, clock::get);
        for (int i = 0; i < 10; i++) {
            CallLimiter.Permit p = limiter.tryAcquire();
            clock.addAndGet(MS);
            p.ignored();
        }
        assertThat(limiter.limit()).isEqualTo(16);
        assertThat(limiter.inFlight()).isZero();
    }

    @Test
    void aShrunkGateLetsNoOneInUntilThePlacesInUseAreWithinTheLimit() {
        AtomicLong clock = new AtomicLong();
        CallLimiter limiter = new CallLimiter(new ConcurrencyLimit(true, 16, 16), clock::get); // grows no further
        rounds(limiter, clock, flat(100), 3); // a least round trip to compare with
        List<CallLimiter.Permit> held = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            held.add(limiter.tryAcquire());
        }
        assertThat(limiter.tryAcquire()).isNull();
        clock.addAndGet(MS);
        held.removeLast().dropped(); // 15 in use; the limit falls below 16
        int limit = limiter.limit();
        assertThat(limit).isLessThan(16);
        // 15 still in flight: one more comes in only once fewer than the limit are
        while (limiter.inFlight() >= limit) {
            assertThat(limiter.tryAcquire()).isNull();
            held.removeLast().ignored();
        }
        assertThat(limiter.tryAcquire()).isNotNull();
    }

    @Test
    void aFixedLimitNeverMoves() {
        AtomicLong clock = new AtomicLong();
        CallLimiter limiter = new CallLimiter(ConcurrencyLimit.fixed(4), clock::get);
        rounds(limiter, clock, flat(100), 20);
        CallLimiter.Permit p = limiter.tryAcquire();
        p.dropped();
        assertThat(limiter.limit()).isEqualTo(4);
        assertThat(limiter.lowestLimit()).isEqualTo(4);
        assertThat(limiter.highestLimit()).isEqualTo(4);
    }

    @Test
    void overloadIs429503OrATimeout() {
        assertThat(CallLimiter.overload(new LlmException(ErrorKind.RATE_LIMITED, "429", 429, null, null))).isTrue();
        assertThat(CallLimiter.overload(new LlmException(ErrorKind.SERVER_ERROR, "503", 503, null, null))).isTrue();
        assertThat(CallLimiter.overload(new LlmException(ErrorKind.TIMEOUT, "slow"))).isTrue();
        assertThat(CallLimiter.overload(new LlmException(ErrorKind.SERVER_ERROR, "500", 500, null, null))).isFalse();
        assertThat(CallLimiter.overload(new LlmException(ErrorKind.MALFORMED_RESPONSE, "bad"))).isFalse();
    }

    @Test
    void theSettingParsesAutoOrAPositiveNumberAndSaysWhatIsWrongInOneLine() {
        assertThat(ConcurrencyLimit.parse("auto")).isEqualTo(ConcurrencyLimit.AUTO);
        assertThat(ConcurrencyLimit.parse(" AUTO ")).isEqualTo(ConcurrencyLimit.AUTO);
        assertThat(ConcurrencyLimit.parse("24")).isEqualTo(ConcurrencyLimit.fixed(24));
        assertThat(ConcurrencyLimit.AUTO.toString()).isEqualTo("auto");
        assertThat(ConcurrencyLimit.fixed(24).toString()).isEqualTo("24");
        for (String bad : List.of("0", "-3", "automatic", "", "1.5")) {
            assertThatThrownBy(() -> ConcurrencyLimit.parse(bad)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("setting 'concurrency' must be a positive integer or auto, was '" + bad + "'");
        }
    }
}
