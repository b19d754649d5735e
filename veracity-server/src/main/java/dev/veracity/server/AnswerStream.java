package dev.veracity.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.http.EventStream;
import dev.veracity.http.HttpProblem;
import dev.veracity.http.JsonCall;
import dev.veracity.llm.client.LlmClient;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A streamed answer ({@code stream: true}) as the official clients read it: the method runs on its own virtual thread
 * while the request's thread waits; every {@code keepAlive} without an answer it writes a {@code : keep-alive} comment,
 * so that proxies see traffic and a client that has gone is noticed (the write fails) and its method cancelled, upstream
 * calls included. Then the chunks: the role, the answer's pieces, the finish with the {@code veracity} field, the usage
 * when {@code stream_options.include_usage} asked for it, and {@code data: [DONE]}.
 * <p>The stream opens (status 200) only at the first keep-alive: an answer or a failure within it is sent as a plain
 * HTTP answer would be, so a failure before then keeps its status (502, 503, 504). Once open, a failure is the stream's
 * last event, {@code data: {"error": ...}}, which OpenAI's clients raise.
 */
final class AnswerStream {

    private final Pipeline pipeline;
    private final ExecutorService workers;
    private final Duration keepAlive;
    private final ServeMetrics metrics;

    AnswerStream(Pipeline pipeline, ExecutorService workers, Duration keepAlive, ServeMetrics metrics) {
        this.pipeline = pipeline;
        this.workers = workers;
        this.keepAlive = keepAlive;
        this.metrics = metrics;
    }

    /** Answers the request as a stream; returns once the stream has ended or the client has gone. */
    void answer(JsonCall call, Pipeline.Prepared p, LlmClient client, String upstreamModel, CompletionJson json)
            throws InterruptedException {
        String method = p.method().name();
        boolean usage = p.request().includeUsage();
        Future<Pipeline.Outcome> work = workers.submit(() -> {
            metrics.pipelineStarted();
            try {
                return pipeline.answer(p, client);
            } finally {
                metrics.pipelineEnded();
            }
        });
        EventStream events = null;
        Pipeline.Outcome o;
        try {
            while (true) {
                try {
                    o = work.get(keepAlive.toNanos(), TimeUnit.NANOSECONDS);
                    break;
                } catch (TimeoutException stillWorking) {
                    if (events == null) {
                        events = call.openEvents(VeracityReport.streamHeaders(method, upstreamModel, p.requestId()));
                    }
                    events.comment("keep-alive");
                }
            }
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            HttpProblem problem = cause instanceof HttpProblem hp ? hp : cause instanceof InterruptedException
                    ? new HttpProblem(503, "cancelled", "the answer was cancelled: send the request again") : null;
            metrics.answered(method, true, problem == null ? "500" : Integer.toString(problem.status()),
                    call.startedNanos(), -1);
            if (problem != null) {
                throw problem;
            }
            throw cause instanceof RuntimeException re ? re : new IllegalStateException(cause);
        } catch (InterruptedException e) {
            work.cancel(true); // the deadline passed or the server is stopping: stop the method and its calls
            metrics.answered(method, true, "cancelled", call.startedNanos(), -1);
            throw e;
        } catch (IOException gone) {
            work.cancel(true); // the client has gone: nobody will read the answer
            metrics.answered(method, true, "client_gone", call.startedNanos(), -1);
            return;
        }
        try {
            if (events == null) {
                events = call.openEvents(VeracityReport.streamHeaders(method, upstreamModel, p.requestId()));
            }
            events.data(json.roleChunk(usage).toString());
            for (String piece : CompletionJson.pieces(o.answer().prediction())) {
                events.data(json.contentChunk(piece, usage).toString());
            }
            ObjectNode veracity = VeracityReport.field(o, upstreamModel, System.nanoTime() - call.startedNanos());
            events.data(json.finishChunk(veracity, usage).toString());
            if (usage) {
                events.data(json.usageChunk(o.stats()).toString());
            }
            events.data("[DONE]");
            metrics.answered(method, true, "200", call.startedNanos(), o.stats().criticalPath().toNanos());
        } catch (IOException gone) {
            metrics.answered(method, true, "client_gone", call.startedNanos(), -1);
        }
    }
}
