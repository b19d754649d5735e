package dev.veracity.sim;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * Sends a generation as server-sent events, the way OpenAI and vLLM stream ({@code stream: true}): each event is a
 * {@code data: <json>} line and a blank line and carries one choice. Chat first sends a role event per choice; then
 * every choice gets one event per token, all choices advancing together (a batch); a choice's finish event follows
 * its last token; then the usage event when {@code stream_options.include_usage} asks; then {@code data: [DONE]}.
 *
 * <p>Paced by the latency model from when the request got its slot: the first tokens {@code timeToFirstToken}
 * later, each next one {@code perOutputToken} after the one before, and a choice's finish event one step after its
 * last token (when the end of sequence is generated). So a stream ends after the service time a non-streamed
 * answer waits, and holds its slot as long.
 */
final class EventStream {

    /** Waits until {@code elapsed} has passed since the stream's start (or aborts the request when the server closes). */
    @FunctionalInterface
    interface Clock {
        void waitUntil(Duration elapsed);
    }

    private static final byte[] DATA = "data: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] END = "\n\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DONE = "data: [DONE]\n\n".getBytes(StandardCharsets.US_ASCII);

    /** A choice ready to stream: the pieces its text goes out in, where each starts, and the tokens they carry. */
    private record Streamed(Generator.Choice choice, List<String> pieces, int[] offsets, List<String> tokens) {
        static Streamed of(Generator.Choice c) {
            List<String> pieces = Tokenizer.pieces(c.text());
            int[] offsets = new int[pieces.size()];
            for (int j = 1; j < offsets.length; j++) {
                offsets[j] = offsets[j - 1] + pieces.get(j - 1).length();
            }
            return new Streamed(c, pieces, offsets, Tokenizer.tokens(c.text()));
        }
    }

    private final OutputStream out;
    private final String id;
    private final long created;
    private final GenerationRequest req;
    private final Generator.Generation gen;
    private final List<Streamed> choices;
    private final boolean chat;
    /** With the MALFORMED_JSON fault: the event sent with its JSON cut in half, the last one sent; else -1. */
    private final int cutAt;
    private int sent;

    EventStream(OutputStream out, String id, long created, GenerationRequest req, Generator.Generation gen, boolean malformed) {
        this.out = out;
        this.id = id;
        this.created = created;
        this.req = req;
        this.gen = gen;
        this.choices = gen.choices().stream().map(Streamed::of).toList();
        this.chat = req.endpoint() == Endpoint.CHAT_COMPLETIONS;
        this.cutAt = malformed ? eventCount() / 2 : -1;
    }

    private int eventCount() {
        int events = (chat ? 2 : 1) * choices.size() + (req.includeUsage() ? 1 : 0);
        for (Streamed s : choices) {
            events += s.pieces().size();
        }
        return events;
    }

    /**
     * Sends every event, paced by {@code latency} on {@code clock}; {@code beforeLast} runs just before the last
     * bytes go out (a client that has read them may send its next request at once).
     */
    void send(LatencyModel latency, Clock clock, Runnable beforeLast) throws IOException {
        int steps = 0;
        for (Streamed s : choices) {
            steps = Math.max(steps, s.pieces().size());
        }
        for (int step = 0; step <= steps; step++) {
            clock.waitUntil(latency.serviceTime(step));
            if (step == 0 && chat) {
                for (Streamed s : choices) {
                    if (!event(OpenAiJson.roleChunk(id, created, req, s.choice().index()), beforeLast)) {
                        return;
                    }
                }
            }
            for (Streamed s : choices) {
                if (step < s.pieces().size() && !event(tokenChunk(s, step), beforeLast)) {
                    return;
                }
                if (step == s.pieces().size() && !event(OpenAiJson.finishChunk(id, created, req, s.choice()), beforeLast)) {
                    return;
                }
            }
        }
        if (req.includeUsage() && !event(OpenAiJson.usageChunk(id, created, req, gen), beforeLast)) {
            return;
        }
        beforeLast.run();
        out.write(DONE);
        out.flush();
    }

    private byte[] tokenChunk(Streamed s, int position) {
        String token = position < s.tokens().size() ? s.tokens().get(position) : null; // whitespace alone has none
        return OpenAiJson.tokenChunk(id, created, req, s.choice(), s.pieces().get(position), token, position,
                s.offsets()[position]);
    }

    /** Writes one event and flushes it (the JDK server sends a chunk per flush); false once the stream is cut. */
    private boolean event(byte[] json, Runnable beforeLast) throws IOException {
        boolean cut = sent++ == cutAt;
        if (cut) {
            beforeLast.run();
            json = Arrays.copyOf(json, json.length / 2); // an unterminated object: no JSON parser accepts it
        }
        out.write(DATA);
        out.write(json);
        out.write(END);
        out.flush();
        return !cut;
    }
}
