package dev.veracity.opensearch.node;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.ServerSocket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real single-node OpenSearch 2.19.1 with the k-NN plugin, started by a test in a child JVM ({@link OpenSearchNodeMain}
 * on the class path this module lists: OpenSearch brings Lucene 9.12, ours is 10). Uses only the JDK, so a test puts
 * this module's jar alone on its class path (a dependency excluding all of this module's own). Free ports, a temporary home, a 512 MB heap. The child
 * serves until its standard input closes, so it ends with {@link #close} or with the test JVM, whatever kills it.
 */
public final class OpenSearchTestNode implements AutoCloseable {

    private static final String CLASSPATH = "opensearch-node.classpath";
    // by name: loading the class here would need OpenSearch on this class path
    private static final String MAIN = "dev.veracity.opensearch.node.OpenSearchNodeMain";

    private final Process process;
    private final Path home;
    private final int port;
    private final Deque<String> output = new ArrayDeque<>();
    /** How long the node took to start, READY included. */
    private long startMillis;

    private OpenSearchTestNode(Process process, Path home, int port) {
        this.process = process;
        this.home = home;
        this.port = port;
    }

    public static OpenSearchTestNode start() throws Exception {
        return start(List.of());
    }

    /** A node with these node settings besides ours ({@code key=value}, e.g. {@code thread_pool.write.queue_size=1}). */
    public static OpenSearchTestNode start(List<String> settings) throws Exception {
        URL list = OpenSearchTestNode.class.getClassLoader().getResource(CLASSPATH);
        if (list == null) {
            throw new IllegalStateException(CLASSPATH + " is not on the test class path: build with -am so that"
                    + " veracity-opensearch-node is built first");
        }
        Path root = codeSource(list); // target/classes or the module's jar
        Path target = root.getParent();
        List<String> classPath = new ArrayList<>();
        classPath.add(root.toString());
        classPath.add(new String(list.openStream().readAllBytes(), StandardCharsets.UTF_8).strip());
        try (Stream<Path> jars = Files.list(target.resolve("knn-plugin"))) {
            jars.filter(p -> p.toString().endsWith(".jar")).sorted().forEach(p -> classPath.add(p.toString()));
        }
        Path home = Files.createTempDirectory("veracity-opensearch");
        int port = freePort();
        String java = ProcessHandle.current().info().command().orElse("java");
        long t0 = System.nanoTime();
        List<String> command = new ArrayList<>(List.of(java, "-Xms256m", "-Xmx512m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "--enable-native-access=ALL-UNNAMED", "-cp",
                String.join(File.pathSeparator, classPath), MAIN, home.toString(), String.valueOf(port),
                String.valueOf(freePort())));
        command.addAll(settings);
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        OpenSearchTestNode node = new OpenSearchTestNode(p, home, port);
        Runtime.getRuntime().addShutdownHook(new Thread(p::destroyForcibly));
        CountDownLatch ready = new CountDownLatch(1);
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    node.remember(line);
                    if (line.startsWith("READY ")) {
                        ready.countDown();
                    }
                }
            } catch (IOException e) {
                // the node ended
            }
            ready.countDown();
        }, "opensearch-node-output");
        reader.setDaemon(true);
        reader.start();
        if (!ready.await(180, TimeUnit.SECONDS) || !p.isAlive()) {
            node.close();
            throw new IllegalStateException("the OpenSearch node did not start; its last output:\n" + node.tail());
        }
        node.startMillis = (System.nanoTime() - t0) / 1_000_000;
        return node;
    }

    public long startMillis() {
        return startMillis;
    }

    private void remember(String line) {
        synchronized (output) {
            output.addLast(line);
            if (output.size() > 40) {
                output.removeFirst();
            }
        }
    }

    public String tail() {
        synchronized (output) {
            return String.join("\n", output);
        }
    }

    public int port() {
        return port;
    }

    public long pid() {
        return process.pid();
    }

    /** The {@code --index} URL of an index on this node. */
    public String url(String index) {
        return "opensearch://127.0.0.1:" + port + "/" + index;
    }

    /** Stops the node: closes its standard input (it closes itself), then kills it if it lingers; deletes its home. */
    @Override
    public void close() throws Exception {
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            // already gone
        }
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
        try (Stream<Path> files = Files.walk(home)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (UncheckedIOException | IOException e) {
            // a temporary folder: best effort
        }
    }

    public static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static Path codeSource(URL resource) throws Exception {
        if (resource.getProtocol().equals("jar")) {
            return Path.of(((JarURLConnection) resource.openConnection()).getJarFileURL().toURI());
        }
        return Path.of(resource.toURI()).getParent();
    }
}
