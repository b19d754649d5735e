package dev.veracity.mcp;

import dev.veracity.http.ErrorBody;
import dev.veracity.http.HttpProblem;
import dev.veracity.http.RequestGate;
import dev.veracity.server.AccessGate;
import dev.veracity.server.ServeSettings;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.QoSHandler;
import org.eclipse.jetty.util.Callback;

/**
 * {@code veracity mcp --port N}: the server on the SDK's streamable HTTP transport at {@code /mcp}, a servlet on
 * Jetty (the project's server), behind {@code veracity serve}'s door ({@link AccessGate}: API keys as
 * {@code Authorization: Bearer KEY}, 401 otherwise; per-key rate and requests in flight, 429). Without keys it
 * listens on a loopback address only, unless {@link ServeSettings#insecureListen()}. At most the limits' requests
 * are handled at once (more wait the queue wait, then get 429). An open event stream ({@code GET /mcp}) holds one of
 * its key's places in flight, and one of the server's, while it is open.
 */
public final class McpHttpServer implements AutoCloseable {

    /** The MCP endpoint. */
    public static final String ENDPOINT = "/mcp";

    private final Server jetty;
    private final McpSyncServer mcp;
    private final ServerConnector connector;
    private final String host;

    private McpHttpServer(Server jetty, McpSyncServer mcp, ServerConnector connector, String host) {
        this.jetty = jetty;
        this.mcp = mcp;
        this.connector = connector;
        this.host = host;
    }

    /**
     * Starts listening on the settings' host and port (0: a free one), with their keys, per-key limits and body size.
     *
     * @throws IllegalArgumentException without API keys on a non-loopback address (unless insecureListen)
     * @throws IOException              when the port is taken
     */
    public static McpHttpServer start(VeracityMcp veracity, ServeSettings settings) throws IOException {
        settings.requireSafeListen();
        HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider.builder()
                .mcpEndpoint(ENDPOINT).maxRequestSize((int) Math.min(Integer.MAX_VALUE, settings.limits().maxBodyBytes()))
                .build();
        McpSyncServer mcp = veracity.serve(transport);
        Server jetty = new Server();
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false); // as serve: nothing about the server's software in its answers
        ServerConnector connector = new ServerConnector(jetty, new HttpConnectionFactory(http));
        // a tool call's answer stream is silent while the method works (no progress token): it may stay so for the
        // request deadline, not only the idle time of a connection that sends nothing
        connector.setIdleTimeout(Math.max(settings.limits().idleTimeout().toMillis(),
                settings.limits().requestDeadline().toMillis()));
        connector.setHost(settings.host());
        connector.setPort(settings.port());
        jetty.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        ServletHolder holder = new ServletHolder(transport);
        holder.setAsyncSupported(true);
        context.addServlet(holder, ENDPOINT);
        // requests at once (--max-concurrent-requests): more wait up to the queue wait, then get 429, as serve's do
        QoSHandler places = new QoSHandler(context);
        places.setMaxRequestCount(settings.limits().maxConcurrentRequests());
        places.setMaxSuspend(settings.limits().queueWait());
        places.setRejectStatusCode(429);
        jetty.setHandler(new Gated(AccessGate.of(settings), places));
        try {
            jetty.start();
        } catch (IOException e) {
            mcp.close();
            throw e;
        } catch (Exception e) {
            mcp.close();
            throw new IOException("cannot start the MCP server on " + settings.host() + ":" + settings.port() + ": "
                    + e.getMessage(), e);
        }
        return new McpHttpServer(jetty, mcp, connector, settings.host());
    }

    public int port() {
        return connector.getLocalPort();
    }

    /** {@code http://HOST:PORT/mcp}. */
    public String url() {
        String h = host.contains(":") ? "[" + host + "]" : host;
        return "http://" + h + ":" + port() + ENDPOINT;
    }

    public void awaitStopped() throws InterruptedException {
        jetty.join();
    }

    @Override
    public void close() {
        try {
            mcp.closeGracefully();
        } finally {
            try {
                jetty.stop();
            } catch (Exception e) {
                // stopping: nothing more to do
            }
        }
    }

    /** Every request through the gate first: a refusal is serve's JSON error, before the body is read. */
    private static final class Gated extends Handler.Wrapper {
        private final RequestGate gate;

        Gated(RequestGate gate, Handler next) {
            super(next);
            this.gate = gate;
        }

        @Override
        public boolean handle(Request request, Response response, Callback callback) throws Exception {
            RequestGate.Admission admission;
            try {
                admission = gate.admit(request.getMethod(), Request.getPathInContext(request),
                        name -> request.getHeaders().get(name));
            } catch (HttpProblem p) {
                response.setStatus(p.status());
                p.headers().forEach((k, v) -> response.getHeaders().put(k, v));
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
                response.write(true, StandardCharsets.UTF_8.encode(ErrorBody.of(p).toString()), callback);
                return true;
            }
            Callback released = Callback.from(callback, admission::close);
            try {
                if (super.handle(request, response, released)) {
                    return true;
                }
            } catch (Exception | Error e) {
                admission.close();
                throw e;
            }
            admission.close();
            return false;
        }
    }
}
