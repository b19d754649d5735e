package dev.veracity.mcp;

import dev.veracity.http.ErrorBody;
import dev.veracity.http.JsonServer;
import dev.veracity.http.ServerLog;
import dev.veracity.server.AccessGate;
import dev.veracity.server.ServeSettings;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.DefaultServerTransportSecurityValidator;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.eclipse.jetty.ee10.servlet.ErrorHandler;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * {@code veracity mcp --port N}: the server on the SDK's streamable HTTP transport at {@code /mcp}, a servlet mounted
 * on {@code veracity serve}'s HTTP server ({@link JsonServer}: virtual threads, errors as JSON, {@code /health},
 * {@code /metrics}, a graceful stop) behind serve's door ({@link AccessGate}: API keys as
 * {@code Authorization: Bearer KEY}, 401 otherwise; per-key rate and requests in flight, 429). Without keys it
 * listens on a loopback address only, unless {@link ServeSettings#insecureListen()}, and then refuses a request whose
 * {@code Host} or {@code Origin} is not this machine (a web page's script reaching it by DNS rebinding). At most the
 * limits' requests are handled at once (more wait the queue wait, then get 429); a tool call is cancelled (its thread
 * interrupted: the method stops calling upstream) at the request deadline and at the end of the stop's grace. An open
 * event stream ({@code GET /mcp}) holds one of its key's places in flight, and one of the server's, while it is open.
 */
public final class McpHttpServer implements AutoCloseable {

    /** The MCP endpoint. */
    public static final String ENDPOINT = "/mcp";

    /** The names a loopback listener is reached by: any port, as the port may be picked at start. */
    private static final List<String> LOOPBACK_HOSTS = List.of("localhost:*", "127.0.0.1:*", "[::1]:*");

    private final JsonServer http;
    private final McpSyncServer mcp;

    private McpHttpServer(JsonServer http, McpSyncServer mcp) {
        this.http = http;
        this.mcp = mcp;
    }

    /** As {@link #start(VeracityMcp, ServeSettings, ServerLog)}, logging nothing. */
    public static McpHttpServer start(VeracityMcp veracity, ServeSettings settings) throws IOException {
        return start(veracity, settings, ServerLog.none());
    }

    /**
     * Starts listening on the settings' host and port (0: a free one), with their keys, limits and log.
     *
     * @throws IllegalArgumentException without API keys on a non-loopback address (unless insecureListen)
     * @throws java.net.BindException   when the port is taken (naming host:port)
     */
    public static McpHttpServer start(VeracityMcp veracity, ServeSettings settings, ServerLog log) throws IOException {
        settings.requireSafeListen();
        HttpServletStreamableServerTransportProvider.Builder transport = HttpServletStreamableServerTransportProvider
                .builder().mcpEndpoint(ENDPOINT)
                .maxRequestSize((int) Math.min(Integer.MAX_VALUE, settings.limits().maxBodyBytes()));
        if (settings.keys().isEmpty() && InetAddress.getByName(settings.host()).isLoopbackAddress()) {
            // no key to prove who calls: only this machine's names, not a page's that rebinds its name to 127.0.0.1
            transport.securityValidator(DefaultServerTransportSecurityValidator.builder().allowedHosts(LOOPBACK_HOSTS)
                    .allowedOrigins(LOOPBACK_HOSTS.stream().map(h -> "http://" + h).toList()).build());
        }
        HttpServletStreamableServerTransportProvider provider = transport.build();
        // each tool call on its request's own (virtual) thread: the deadline and the stop interrupt that thread
        McpSyncServer mcp = veracity.serve(provider, true);
        ServletContextHandler context = new ServletContextHandler();
        ServletHolder holder = new ServletHolder(provider);
        holder.setAsyncSupported(true);
        context.addServlet(holder, ENDPOINT);
        context.setErrorHandler(new JsonErrors());
        try {
            JsonServer http = JsonServer.builder().name("veracity-mcp").host(settings.host()).port(settings.port())
                    .limits(settings.limits()).log(log).gate(AccessGate.of(settings)).mount(ENDPOINT, context)
                    .start();
            return new McpHttpServer(http, mcp);
        } catch (IOException | RuntimeException e) {
            mcp.close();
            throw e;
        }
    }

    public int port() {
        return http.port();
    }

    /** {@code http://HOST:PORT/mcp}. */
    public String url() {
        return http.baseUrl() + ENDPOINT;
    }

    public void awaitStopped() throws InterruptedException {
        http.awaitStopped();
    }

    /**
     * Stops: no new request, the tool calls in flight get the stop's grace to finish, then are cancelled; then the MCP
     * sessions are closed.
     */
    @Override
    public void close() {
        try {
            http.close();
        } finally {
            mcp.close();
        }
    }

    /** What the servlet refuses by itself (an unknown session, a foreign Host): serve's JSON error, not HTML. */
    private static final class JsonErrors extends ErrorHandler {
        @Override
        protected boolean generateAcceptableResponse(Request request, Response response, Callback callback,
                                                     String contentType, List<Charset> charsets, int code,
                                                     String message, Throwable cause) {
            String reason = message == null || message.isBlank() ? "HTTP " + code : message;
            String kind = switch (code) {
                case 403, 421 -> "forbidden_origin";
                case 404 -> "not_found";
                case 503 -> "stopping";
                default -> "mcp_transport";
            };
            byte[] body = ErrorBody.of(code, kind, reason).toString().getBytes(StandardCharsets.UTF_8);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
            response.write(true, ByteBuffer.wrap(body), callback);
            return true;
        }
    }
}
