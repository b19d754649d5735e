package dev.veracity.llm.llamacpp;

import dev.veracity.llm.ErrorKind;
import dev.veracity.llm.FinishReason;
import dev.veracity.llm.LlmException;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Reads one sample from a {@link TokenStream}: checks the deadline between tokens, ends at the first stop
 * sequence, counts the tokens and works out why generation ended.
 *
 * <p><b>Token count.</b> In streaming mode llama.cpp sends one result per decoded token, including the end-of-
 * sequence token (with empty text), then a final result with no token. The exception: a token that ends inside a
 * multi-byte UTF-8 character is held back, and its bytes arrive with the next token's result (or are dropped if
 * generation ends first). The binding exposes neither token ids nor llama.cpp's own count, so:
 * <ul>
 *   <li>when the token limit ended generation, the count is the limit, which llama.cpp enforces on every decoded
 *       token (held-back ones included); it is marked exact when every token was seen;</li>
 *   <li>otherwise (end of sequence, stop sequence) it is the results seen: exact when every piece is ASCII, a
 *       lower bound (marked inexact) when a piece holds a non-ASCII character that may span several tokens.</li>
 * </ul>
 *
 * <p><b>Finish reason.</b> STOP when a stop sequence matched or the last token was the end-of-sequence token (an
 * empty piece before the limit); LENGTH when the token limit ended it (the backend caps the limit at the end of
 * the context, so running out of context is LENGTH too). One case cannot be told apart: a model that ends with an
 * unfinished UTF-8 character followed by end-of-sequence reads as LENGTH.
 */
final class GenerationLoop {

    /**
     * One finished sample.
     *
     * @param text   the generated text, cut before the first stop sequence
     * @param finish why it ended
     * @param tokens tokens generated (see the class comment)
     * @param exact  whether {@code tokens} is exact
     */
    record Result(String text, FinishReason finish, int tokens, boolean exact) {
    }

    private final List<String> stops;
    private final int longestStop;
    private final int nPredict;
    private final long deadlineNanos;
    private final LongSupplier clock;

    /**
     * @param stops         stop sequences (empty strings are ignored)
     * @param nPredict      the token limit given to llama.cpp
     * @param deadlineNanos when to give up, on the {@code clock}'s scale
     * @param clock         {@link System#nanoTime} in production
     */
    GenerationLoop(List<String> stops, int nPredict, long deadlineNanos, LongSupplier clock) {
        this.stops = stops.stream().filter(s -> !s.isEmpty()).toList();
        this.longestStop = this.stops.stream().mapToInt(String::length).max().orElse(0);
        this.nPredict = nPredict;
        this.deadlineNanos = deadlineNanos;
        this.clock = clock;
    }

    /**
     * Reads the stream to its end, a stop sequence, the deadline or an interrupt; the stream is cancelled on every
     * early exit so llama.cpp's slot is free for the next call.
     *
     * @param describe what this sample is, for error messages
     */
    Result run(TokenStream stream, String describe) {
        StringBuilder text = new StringBuilder();
        int tokens = 0;
        boolean exact = true;
        boolean lastPieceEmpty = false;
        boolean done = false;
        try {
            while (stream.hasNext()) {
                if (clock.getAsLong() - deadlineNanos > 0) {
                    throw new LlmException(ErrorKind.TIMEOUT, describe + " passed its deadline after " + tokens
                            + " tokens");
                }
                if (Thread.currentThread().isInterrupted()) {
                    throw new LlmException(ErrorKind.CANCELLED, describe + " was interrupted after " + tokens
                            + " tokens");
                }
                TokenStream.Piece piece = stream.next();
                int searchFrom = Math.max(0, text.length() - longestStop + 1);
                if (piece.last()) {
                    done = true;
                    appendFinal(text, piece.text());
                } else {
                    tokens++;
                    text.append(piece.text());
                    exact &= isAscii(piece.text());
                    lastPieceEmpty = piece.text().isEmpty();
                }
                int stop = firstStop(text, searchFrom);
                if (stop >= 0) {
                    return new Result(text.substring(0, stop), FinishReason.STOP, tokens, exact);
                }
            }
            done = true;
            if (tokens < nPredict && lastPieceEmpty) {
                return new Result(text.toString(), FinishReason.STOP, tokens, exact);
            }
            // llama.cpp ran out of budget: it decoded exactly nPredict tokens, some perhaps held back unseen.
            return new Result(text.toString(), FinishReason.LENGTH, nPredict, tokens == nPredict);
        } finally {
            if (!done || stream.hasNext()) {
                stream.cancel();
            }
        }
    }

    /**
     * The final result repeats nothing in current llama.cpp (its text is empty in streaming mode); some versions
     * repeat the whole text there, which must not be appended twice.
     */
    private static void appendFinal(StringBuilder text, String finalText) {
        if (finalText.isEmpty()) {
            return;
        }
        if (finalText.startsWith(text.toString())) {
            text.setLength(0);
        }
        text.append(finalText);
    }

    /** The earliest index at which any stop sequence occurs in {@code text} at or after {@code from}, or -1. */
    private int firstStop(StringBuilder text, int from) {
        int best = -1;
        for (String s : stops) {
            int i = text.indexOf(s, from);
            if (i >= 0 && (best < 0 || i < best)) {
                best = i;
            }
        }
        return best;
    }

    private static boolean isAscii(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }
}
