package dev.veracity.server;

import dev.veracity.http.HttpProblem;
import dev.veracity.http.JsonCall;
import dev.veracity.http.JsonReply;
import dev.veracity.http.JsonRoute;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.method.QaMethod;
import java.util.UUID;

/**
 * {@code POST /v1/chat/completions}: reads the request ({@link ChatRequestReader}), resolves {@code model} to a method
 * and an upstream model (404 otherwise), prepares the documents and options (400 for what the method cannot answer),
 * then answers as a {@code chat.completion} with the {@code veracity} field and {@code X-Veracity-*} headers, or as a
 * stream ({@link AnswerStream}).
 */
final class ChatCompletionsRoute implements JsonRoute {

    private final ChatRequestReader reader;
    private final ServedMethods methods;
    private final UpstreamClients upstream;
    private final Pipeline pipeline;
    private final AnswerStream streams;
    private final ServeMetrics metrics;

    ChatCompletionsRoute(ChatRequestReader reader, ServedMethods methods, UpstreamClients upstream, Pipeline pipeline,
                         AnswerStream streams, ServeMetrics metrics) {
        this.reader = reader;
        this.methods = methods;
        this.upstream = upstream;
        this.pipeline = pipeline;
        this.streams = streams;
        this.metrics = metrics;
    }

    @Override
    public JsonReply handle(JsonCall call) throws InterruptedException {
        String label = "unknown";
        boolean stream = call.body() != null && call.body().path("stream").asBoolean(false);
        String id = "chatcmpl-" + UUID.randomUUID().toString().replace("-", "");
        Pipeline.Prepared p;
        LlmClient client;
        String upstreamModel;
        try {
            ChatRequest req = reader.read(call.body());
            QaMethod m = methods.byName(req.model().method());
            label = m.name();
            client = upstream.client(req.model().upstream());
            upstreamModel = req.model().upstream() == null ? upstream.defaultModel() : req.model().upstream();
            p = pipeline.prepare(id, req, m);
        } catch (HttpProblem e) {
            metrics.refused(label, stream, e.status());
            throw e;
        }
        CompletionJson json = new CompletionJson(id, System.currentTimeMillis() / 1000, p.request().model().requested());
        if (p.request().stream()) {
            streams.answer(call, p, client, upstreamModel, json);
            return JsonReply.streamed();
        }
        Pipeline.Outcome o;
        metrics.pipelineStarted();
        try {
            o = pipeline.answer(p, client);
        } catch (HttpProblem e) {
            metrics.answered(label, false, Integer.toString(e.status()), call.startedNanos(), -1);
            throw e;
        } catch (InterruptedException e) {
            metrics.answered(label, false, "cancelled", call.startedNanos(), -1);
            throw e;
        } catch (RuntimeException e) {
            metrics.answered(label, false, "500", call.startedNanos(), -1);
            throw e;
        } finally {
            metrics.pipelineEnded();
        }
        var body = json.completion(o.answer().prediction(), o.stats(),
                VeracityReport.field(o, upstreamModel, System.nanoTime() - call.startedNanos()));
        metrics.answered(label, false, "200", call.startedNanos(), o.stats().criticalPath().toNanos());
        return new JsonReply(200, body, VeracityReport.headers(o, upstreamModel, id));
    }
}
