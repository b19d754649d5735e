package dev.veracity.eval.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.veracity.trace.CallContext;
import dev.veracity.trace.CallRecord;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The run's order of calls: question by question until the run's end, then a call that picks its question's path,
 * then the longest chain of dependent calls ahead, learned from the answered questions' timing; an unknown call before
 * a known one, fewest calls of its question made first. Ranks are compared, as the client's gate compares them (lowest
 * first).
 */
class EndOfRunRankingTest {

    private static CallContext call(String question, long place, String role, int step) {
        return new CallContext("run", question, "m", role, step, place);
    }

    /** A call record of {@code role} that was asked at {@code from} ms and answered at {@code to} ms. */
    private static CallRecord made(String question, String role, int step, long from, long to) {
        return new CallRecord(question + role + step, call(question, 0, role, step), "sim", "m", "p", "{}",
                List.of("a"), List.of("stop"), 1, 1, 1, 0, 0, 0, 0, from * 1000, from * 1000, to * 1000, false, 1, 0,
                null);
    }

    /** C-3PO's two shapes: router, then filter and answer; or router, roadmap, decision, filter, decision, answer. */
    private static List<CallRecord> shape(String question, String... roles) {
        List<CallRecord> out = new ArrayList<>();
        for (int i = 0; i < roles.length; i++) {
            out.add(made(question, roles[i], 0, i * 100L, i * 100L + 90));
        }
        return out;
    }

    @Test
    void beforeTheEndACallRanksAtItsQuestionsPlace() {
        EndOfRunRanking ranking = new EndOfRunRanking();
        ranking.answered(shape("a", "router", "roadmap", "decision", "answer"));

        assertThat(ranking.rank(call("q7", 7, "roadmap", 0))).isEqualTo(7);
        assertThat(ranking.rank(call("q3", 3, "router", 0))).isEqualTo(3);
        assertThat(ranking.ended()).isFalse();
    }

    @Test
    void atTheEndTheCallWithTheLongestChainAheadGoesFirstWhateverItsQuestionsPlace() {
        EndOfRunRanking ranking = new EndOfRunRanking();
        long waitedSinceBefore = ranking.rank(call("q150", 150, "filter", 0));
        ranking.answered(shape("q0", "router", "filter", "answer"));
        ranking.answered(shape("q1", "router", "roadmap", "decision", "filter", "decision", "answer"));
        ranking.answered(shape("q2", "router", "filter", "answer"));
        ranking.end();

        long roadmap = ranking.rank(call("q199", 199, "roadmap", 0)); // 5 calls ahead
        long router = ranking.rank(call("q198", 198, "router", 0)); // (3 + 6 + 3) / 3 = 4
        long filter = ranking.rank(call("q10", 10, "filter", 0)); // (2 + 3 + 2) / 3
        long answer = ranking.rank(call("q5", 5, "answer", 0)); // 1

        assertThat(roadmap).isLessThan(router);
        assertThat(router).isLessThan(filter);
        assertThat(filter).isLessThan(answer);
        // a call ranked before the end has waited: it goes before every call ranked after it
        assertThat(waitedSinceBefore).isLessThan(roadmap);
        // equal chains ahead: the earlier question first
        assertThat(ranking.rank(call("q20", 20, "filter", 0))).isGreaterThan(filter)
                .isLessThan(ranking.rank(call("q30", 30, "filter", 0)));
    }

    @Test
    void theChainAheadIsReadFromTheTimingSoCallsMadeAtOnceCountOnceNotTwice() {
        EndOfRunRanking ranking = new EndOfRunRanking();
        // two agents call at once for three steps, then a judge (Reasoning Court's shape): from a first step, 3 steps
        // and the judge are ahead (4), not the 7 calls left
        List<CallRecord> court = new ArrayList<>();
        for (int s = 1; s <= 3; s++) {
            court.add(made("c", "agent-1", s, s * 100L, s * 100L + 90));
            court.add(made("c", "agent-2", s, s * 100L + 5, s * 100L + 95));
        }
        court.add(made("c", "judge", 0, 400, 490));
        // and a question whose single "long" call has 5 calls ahead of it, one after another
        ranking.answered(court);
        ranking.answered(shape("p", "long", "b", "c", "d", "e"));
        ranking.end();

        long agentFirstStep = ranking.rank(call("x", 1, "agent-1", 1));
        long five = ranking.rank(call("y", 2, "long", 0));
        long agentThirdStep = ranking.rank(call("z", 3, "agent-2", 3));
        long judge = ranking.rank(call("w", 0, "judge", 0));
        assertThat(five).isLessThan(agentFirstStep); // 5 ahead against 4: calls at once are not a chain
        assertThat(agentFirstStep).isLessThan(agentThirdStep); // 4 against 2
        assertThat(agentThirdStep).isLessThan(judge); // 2 against 1
    }

    @Test
    void aCallNoAnsweredQuestionHasShownGoesFirstTheQuestionThatMadeFewestCallsFirst() {
        EndOfRunRanking ranking = new EndOfRunRanking();
        ranking.answered(shape("q0", "router", "roadmap", "decision", "filter", "decision", "answer"));
        ranking.end();
        // q9 has made two calls already, q4 none: unknown calls of both go before the longest known one
        ranking.rank(call("q9", 9, "router", 0));
        ranking.rank(call("q9", 9, "surprise", 0));
        long deeper = ranking.rank(call("q9", 9, "surprise", 1));
        long fresh = ranking.rank(call("q4", 4, "new-role", 0));
        long longestKnown = ranking.rank(call("q2", 2, "router", 0));

        assertThat(fresh).isLessThan(deeper);
        assertThat(deeper).isLessThan(longestKnown);
        // a question done with is forgotten: its next unknown call counts from none made
        ranking.done("q9");
        assertThat(ranking.rank(call("q9", 9, "surprise", 2))).isGreaterThan(fresh).isLessThan(deeper);
    }

    @Test
    void ranksStayPositiveAndOrderedAtTheExtremes() {
        EndOfRunRanking ranking = new EndOfRunRanking();
        List<CallRecord> chain = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            chain.add(made("huge", "r", i, i, i)); // one call after another, 300 of them
        }
        ranking.answered(chain);
        ranking.end();
        long top = ranking.rank(call("a", Long.MAX_VALUE, "r", 0));
        long unknown = ranking.rank(call("b", -5, "never-seen", 0));
        assertThat(top).isPositive();
        assertThat(unknown).isPositive().isLessThan(top);
    }

    @Test
    void atTheEndACallThatPicksItsQuestionsPathGoesFirstOfAll() {
        EndOfRunRanking ranking = new EndOfRunRanking();
        ranking.answered(shape("q0", "router", "roadmap", "decision", "filter", "decision", "answer"));
        ranking.answered(shape("q1", "router", "filter", "answer"));
        long branchingBefore = ranking.rank(call("q150", 150, "router", 0).branching());
        long waitedBefore = ranking.rank(call("q151", 151, "filter", 0));
        ranking.end();

        long roadmap = ranking.rank(call("q10", 10, "roadmap", 0)); // 5 ahead, more than a router's mean of 4.5
        long unknown = ranking.rank(call("q11", 11, "never-seen", 0));
        long router = ranking.rank(call("q198", 198, "router", 0).branching());
        long plainRouter = ranking.rank(call("q197", 197, "router", 0));
        long laterRouter = ranking.rank(call("q199", 199, "router", 0).branching());

        assertThat(router).isLessThan(unknown).isLessThan(roadmap);
        assertThat(unknown).isLessThan(roadmap);
        assertThat(roadmap).isLessThan(plainRouter); // the hint, not the role, puts it first
        assertThat(router).isLessThan(laterRouter); // among branching calls, the earlier question first
        // before the end the hint changes nothing: the question's place, and calls ranked then go before all later ones
        assertThat(branchingBefore).isEqualTo(150);
        assertThat(waitedBefore).isEqualTo(151).isLessThan(router);
        // the hint stays with the context as its role, step and place change
        assertThat(call("q", 1, "router", 0).branching().role("r").step(2).order(3).question("x").branches()).isTrue();
        assertThat(call("q", 1, "router", 0).branches()).isFalse();
    }
}
