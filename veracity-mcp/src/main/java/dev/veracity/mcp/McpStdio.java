package dev.veracity.mcp;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.CountDownLatch;

/**
 * {@code veracity mcp --stdio}: the server on the process's standard streams, as desktop agent hosts launch it. Only
 * protocol messages go to the given output (the process's stdout); everything else must be written to stderr. Runs
 * until the host closes stdin (or reading it fails).
 */
public final class McpStdio {

    private McpStdio() {
    }

    /** Serves until {@code in} ends or fails, then closes the server. */
    public static void serve(VeracityMcp mcp, InputStream in, OutputStream out) throws InterruptedException {
        CountDownLatch ended = new CountDownLatch(1);
        InputStream watched = new FilterInputStream(in) {
            @Override
            public int read() throws IOException {
                try {
                    return ended(super.read());
                } catch (IOException e) {
                    ended.countDown(); // stdin broke: the session is over as at its end
                    throw e;
                }
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                try {
                    return ended(super.read(b, off, len));
                } catch (IOException e) {
                    ended.countDown();
                    throw e;
                }
            }

            private int ended(int n) {
                if (n < 0) {
                    ended.countDown();
                }
                return n;
            }
        };
        McpSyncServer server = mcp.serve(new StdioServerTransportProvider(McpJsonDefaults.getMapper(), watched, out));
        try {
            ended.await();
        } finally {
            server.closeGracefully();
        }
    }
}
