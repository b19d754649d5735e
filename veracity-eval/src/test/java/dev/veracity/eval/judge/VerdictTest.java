package dev.veracity.eval.judge;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class VerdictTest {

    private static List<Vote> votes(Outcome... os) {
        List<Vote> out = new ArrayList<>();
        for (int i = 0; i < os.length; i++) {
            out.add(new Vote(null, i, os[i], "raw" + i, os[i] == Outcome.UNPARSEABLE ? "" : "why " + os[i]));
        }
        return out;
    }

    private static final Outcome C = Outcome.CORRECT;
    private static final Outcome I = Outcome.INCORRECT;
    private static final Outcome U = Outcome.UNPARSEABLE;

    @Test
    void majorityOverParseableVotes() {
        assertThat(Verdict.majority(votes(C)).outcome()).isEqualTo(C);
        assertThat(Verdict.majority(votes(I)).outcome()).isEqualTo(I);
        assertThat(Verdict.majority(votes(C, C, I)).outcome()).isEqualTo(C);
        assertThat(Verdict.majority(votes(C, I, I)).outcome()).isEqualTo(I);
        // unparseable votes do not count: 2 C vs 1 I among 8
        Verdict v = Verdict.majority(votes(U, C, U, U, I, U, C, U));
        assertThat(v.outcome()).isEqualTo(C);
        assertThat(v.unparseableSamples()).isEqualTo(5);
        assertThat(v.correctVotes()).isEqualTo(2);
        assertThat(v.incorrectVotes()).isEqualTo(1);
        assertThat(v.explanation()).isEqualTo("why CORRECT");
    }

    @Test
    void tiesAreIncorrect() {
        assertThat(Verdict.majority(votes(C, I)).outcome()).isEqualTo(I);
        assertThat(Verdict.majority(votes(C, C, C, C, I, I, I, I)).outcome()).isEqualTo(I);
        assertThat(Verdict.majority(votes(U, C, I, U)).outcome()).isEqualTo(I);
    }

    @Test
    void allUnparseableIsUnparseable() {
        Verdict v = Verdict.majority(votes(U, U, U));
        assertThat(v.outcome()).isEqualTo(U);
        assertThat(v.parsed()).isFalse();
        assertThat(v.unparseableSamples()).isEqualTo(3);
        assertThat(Verdict.majority(List.of()).outcome()).isEqualTo(U);
    }

    @Test
    void statsCountVerdictsAndSamples() {
        JudgeStats s = new JudgeStats();
        s.record(Verdict.majority(votes(C, U, C)));
        s.record(Verdict.majority(votes(I)));
        s.record(Verdict.majority(votes(U, U)));
        assertThat(s.verdicts()).isEqualTo(3);
        assertThat(s.correct()).isEqualTo(1);
        assertThat(s.incorrect()).isEqualTo(1);
        assertThat(s.unparseable()).isEqualTo(1);
        assertThat(s.samples()).isEqualTo(6);
        assertThat(s.unparseableSamples()).isEqualTo(3);
        assertThat(s.sampleParseFailureRate()).isEqualTo(0.5);
        assertThat(s.toJson()).isEqualTo("{\"verdicts\":3,\"correct\":1,\"incorrect\":1,\"unparseable\":1,"
                + "\"samples\":6,\"unparseable_samples\":3}");
        assertThat(s.toString()).contains("unparseable=1", "unparseableSamples=3");
    }
}
