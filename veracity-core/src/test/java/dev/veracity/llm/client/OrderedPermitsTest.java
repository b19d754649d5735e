package dev.veracity.llm.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.veracity.testing.Await;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class OrderedPermitsTest {

    /** Starts a thread that takes a slot at {@code order}, notes it in {@code granted}, and gives it back. */
    private static Thread waiter(OrderedPermits permits, long order, String name, List<String> granted) {
        return Thread.ofVirtual().start(() -> {
            try {
                permits.acquire(order);
            } catch (InterruptedException e) {
                return;
            }
            granted.add(name);
            permits.release();
        });
    }

    @Test
    void aFreedSlotGoesToTheEarliestQuestionsCallNotToTheFirstToArrive() throws Exception {
        OrderedPermits permits = new OrderedPermits(1);
        permits.acquire(0);
        List<String> granted = new CopyOnWriteArrayList<>();
        Thread late = waiter(permits, 5, "question 5", granted);
        Await.until("question 5 waiting", () -> permits.waiting() == 1);
        Thread early = waiter(permits, 2, "question 2, first call", granted);
        Await.until("question 2 waiting", () -> permits.waiting() == 2);
        Thread again = waiter(permits, 2, "question 2, second call", granted);
        Await.until("three waiting", () -> permits.waiting() == 3);
        permits.release();
        for (Thread t : List.of(late, early, again)) {
            t.join();
        }
        // question 2's calls in their order of arrival, then question 5's, though it came first
        assertThat(granted).containsExactly("question 2, first call", "question 2, second call", "question 5");
        assertThat(permits.waiting()).isZero();
    }

    @Test
    void slotsAreFreeUpToTheLimitAndAWaiterInterruptedLeavesTheQueueWithoutTakingOne() throws Exception {
        OrderedPermits permits = new OrderedPermits(2);
        permits.acquire(9);
        permits.acquire(9); // both slots taken, in any order when nobody waits
        List<String> granted = new CopyOnWriteArrayList<>();
        Thread interrupted = waiter(permits, 0, "interrupted", granted);
        Await.until("one waiting", () -> permits.waiting() == 1);
        interrupted.interrupt();
        interrupted.join();
        assertThat(permits.waiting()).isZero();
        permits.release();
        Thread next = waiter(permits, 1, "next", granted); // the freed slot is there: no wait
        next.join();
        assertThat(granted).containsExactly("next");
    }
}
