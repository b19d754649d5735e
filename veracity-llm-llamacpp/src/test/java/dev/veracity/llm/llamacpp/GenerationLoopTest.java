package dev.veracity.llm.llamacpp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.veracity.llm.ErrorKind;
import dev.veracity.llm.FinishReason;
import dev.veracity.llm.LlmException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The token loop against scripted streams: counting, stop sequences, finish reasons, deadlines. */
class GenerationLoopTest {

    /** Streams the given pieces, then llama.cpp's empty final result. */
    private static class Scripted implements TokenStream {
        final Deque<Piece> pieces = new ArrayDeque<>();
        int read;
        boolean cancelled;

        Scripted(String... texts) {
            for (String t : texts) {
                pieces.add(new Piece(t, false));
            }
            pieces.add(new Piece("", true));
        }

        @Override
        public boolean hasNext() {
            return !cancelled && !pieces.isEmpty();
        }

        @Override
        public Piece next() {
            read++;
            return pieces.removeFirst();
        }

        @Override
        public void cancel() {
            cancelled = true;
        }
    }

    private static GenerationLoop loop(int nPredict, String... stops) {
        return new GenerationLoop(List.of(stops), nPredict, Long.MAX_VALUE, () -> 0L);
    }

    @Test
    void theTokenLimitEndsWithLength() {
        Scripted s = new Scripted(" apples", " and", " pears");

        GenerationLoop.Result r = loop(3).run(s, "test");

        assertThat(r).isEqualTo(new GenerationLoop.Result(" apples and pears", FinishReason.LENGTH, 3, true));
        assertThat(s.cancelled).isFalse();
    }

    @Test
    void theEndOfSequenceTokenEndsWithStopAndIsCounted() {
        GenerationLoop.Result r = loop(10).run(new Scripted(" apples", ""), "test");

        assertThat(r).isEqualTo(new GenerationLoop.Result(" apples", FinishReason.STOP, 2, true));
    }

    @Test
    void tokensHeldBackAtTheLimitAreCountedButNotExactly() {
        // Six tokens, the last four of them bytes of unfinished UTF-8 characters llama.cpp never sent.
        GenerationLoop.Result r = loop(6).run(new Scripted(" apples", " pears"), "test");

        assertThat(r).isEqualTo(new GenerationLoop.Result(" apples pears", FinishReason.LENGTH, 6, false));
    }

    @Test
    void aStopSequenceSpanningPiecesCutsTheTextAndCancels() {
        Scripted s = new Scripted(" app", "les an", "d pe", "ars", " more");

        GenerationLoop.Result r = loop(10, "and p").run(s, "test");

        assertThat(r).isEqualTo(new GenerationLoop.Result(" apples ", FinishReason.STOP, 3, true));
        assertThat(s.cancelled).isTrue();
        assertThat(s.read).isEqualTo(3);
    }

    @Test
    void theEarliestStopSequenceWins() {
        GenerationLoop.Result r = loop(10, "pears", "and", "").run(new Scripted(" apples and pears"), "test");

        assertThat(r.text()).isEqualTo(" apples ");
        assertThat(r.finish()).isEqualTo(FinishReason.STOP);
    }

    @Test
    void aStopSequenceAtTheVeryStartGivesAnEmptyText() {
        assertThat(loop(10, "ap").run(new Scripted("ap", "ples"), "test").text()).isEmpty();
    }

    @Test
    void nonAsciiPiecesMakeTheCountALowerBound() {
        // llama.cpp holds back a token that ends inside a UTF-8 character; its bytes come with the next piece.
        GenerationLoop.Result r = loop(10).run(new Scripted(" caf", "é", ""), "test");

        assertThat(r.tokens()).isEqualTo(3);
        assertThat(r.exact()).isFalse();
    }

    @Test
    void aFinalResultRepeatingTheWholeTextIsNotAppendedTwice() {
        Scripted s = new Scripted();
        s.pieces.clear();
        s.pieces.add(new TokenStream.Piece(" apples", false));
        s.pieces.add(new TokenStream.Piece(" apples and", true));

        assertThat(loop(10).run(s, "test").text()).isEqualTo(" apples and");
    }

    @Test
    void passingTheDeadlineCancelsAndThrowsTimeout() {
        AtomicLong now = new AtomicLong();
        Scripted s = new Scripted(" a", " b", " c", " d") {
            @Override
            public Piece next() {
                now.addAndGet(10);
                return super.next();
            }
        };

        LlmException e = catchThrowableOfType(LlmException.class,
                () -> new GenerationLoop(List.of(), 10, 25, now::get).run(s, "sample 0"));

        assertThat(e.kind()).isEqualTo(ErrorKind.TIMEOUT);
        assertThat(e.getMessage()).contains("sample 0").contains("3 tokens");
        assertThat(s.cancelled).isTrue();
    }

    @Test
    void anInterruptCancelsAndThrowsCancelled() {
        Scripted s = new Scripted(" a", " b");
        Thread.currentThread().interrupt();
        try {
            LlmException e = catchThrowableOfType(LlmException.class, () -> loop(10).run(s, "test"));
            assertThat(e.kind()).isEqualTo(ErrorKind.CANCELLED);
            assertThat(s.cancelled).isTrue();
        } finally {
            assertThat(Thread.interrupted()).as("the interrupt flag is kept").isTrue();
        }
    }
}
