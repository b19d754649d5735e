package dev.veracity.opensearch.node;

import java.io.IOException;
import java.nio.file.Path;
import org.codelibs.opensearch.runner.OpenSearchRunner;

/**
 * A single OpenSearch node for tests, run as a child JVM:
 * {@code OpenSearchNodeMain HOME HTTP_PORT TRANSPORT_PORT [KEY=VALUE ...]} (the last are node settings, e.g. a small
 * write queue).
 * Prints {@code READY <port>} once the cluster is at least yellow, then serves until its standard input closes (the
 * parent exited or closed the pipe), so a test that dies leaves no node behind.
 */
public final class OpenSearchNodeMain {

    /** Only what a retrieval index uses: HTTP, the common analysers, painless (k-NN extends it). */
    private static final String MODULES = String.join(",",
            "org.opensearch.transport.Netty4Plugin",
            "org.opensearch.analysis.common.CommonAnalysisPlugin",
            "org.opensearch.painless.PainlessPlugin",
            "org.opensearch.index.mapper.MapperExtrasPlugin");

    private static final String KNN = "org.opensearch.knn.plugin.KNNPlugin";

    private OpenSearchNodeMain() {
    }

    public static void main(String[] args) throws Exception {
        Path home = Path.of(args[0]);
        String httpPort = args[1];
        String transportPort = args[2];
        OpenSearchRunner runner = new OpenSearchRunner();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> close(runner)));
        runner.onBuild((number, settings) -> {
            settings.put("http.port", httpPort);
            settings.put("transport.port", transportPort);
            settings.put("network.host", "127.0.0.1");
            settings.put("discovery.type", "single-node");
            // a nearly full test disk must not turn indexes read-only
            settings.put("cluster.routing.allocation.disk.threshold_enabled", false);
            settings.put("action.auto_create_index", false);
            for (int i = 3; i < args.length; i++) {
                int eq = args[i].indexOf('=');
                settings.put(args[i].substring(0, eq), args[i].substring(eq + 1));
            }
        }).build(OpenSearchRunner.newConfigs().basePath(home.toString()).numOfNode(1).clusterName("veracity-test")
                .moduleTypes(MODULES).pluginTypes(KNN).disableESLogger());
        runner.ensureYellow();
        System.out.println("READY " + httpPort);
        System.out.flush();
        while (System.in.read() >= 0) {
            // serve until the parent closes the pipe
        }
        close(runner);
        System.exit(0);
    }

    private static void close(OpenSearchRunner runner) {
        try {
            runner.close();
        } catch (IOException | RuntimeException e) {
            System.err.println("closing the node failed: " + e.getMessage());
        }
    }
}
