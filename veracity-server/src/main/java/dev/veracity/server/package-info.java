/**
 * {@code veracity serve}: the answering methods behind an OpenAI-compatible HTTP API, so that any OpenAI client gets
 * a method's answer by changing its base URL. Built on {@code veracity-http} ({@link dev.veracity.http.JsonServer}).
 * <ul>
 *   <li>{@link dev.veracity.server.ChatServer}: the server, its routes and what it holds;</li>
 *   <li>requests: {@link dev.veracity.server.ChatRequestReader} (strict reading, OpenAI-shaped 400s),
 *       {@link dev.veracity.server.ModelName} ({@code method[@upstream-model]}),
 *       {@link dev.veracity.server.RequestDocuments} (documents from the body or a message);</li>
 *   <li>answering: {@link dev.veracity.server.Pipeline} (documents from the request or the index, the method, the
 *       question's call records through {@link dev.veracity.trace.RequestTraces}),
 *       {@link dev.veracity.server.UpstreamClients} (one client per upstream model),
 *       {@link dev.veracity.server.UpstreamErrors} (failures as 502 / 503 / 504);</li>
 *   <li>answers: {@link dev.veracity.server.CompletionJson} (chat.completion and its chunks),
 *       {@link dev.veracity.server.VeracityReport} (the {@code veracity} field and {@code X-Veracity-*} headers),
 *       {@link dev.veracity.server.AnswerStream} (server-sent events with keep-alive comments);</li>
 *   <li>safety: {@link dev.veracity.server.ApiKeys}, {@link dev.veracity.server.KeyLimiter},
 *       {@link dev.veracity.server.AccessGate};</li>
 *   <li>operations: {@link dev.veracity.server.ModelsRoute}, {@link dev.veracity.server.HealthRoutes},
 *       {@link dev.veracity.server.UpstreamProbe}, {@link dev.veracity.server.ServeMetrics};</li>
 *   <li>people: {@link dev.veracity.server.Playground} (the web page at {@code GET /} that asks this API and draws the
 *       {@code veracity} field);</li>
 *   <li>other doors: {@link dev.veracity.server.MethodService} (the pipeline, the upstream clients and the report
 *       without the chat endpoint, for {@code veracity mcp}), {@link dev.veracity.server.AccessGate#of}.</li>
 * </ul>
 */
package dev.veracity.server;
