package dev.veracity.eval.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code datasets fetch} against a loopback HTTP server: verified, mismatched, missing, unreachable. */
class DatasetFetcherTest {

    @TempDir
    Path dir;

    private HttpServer server;
    private final AtomicInteger requests = new AtomicInteger();
    private static final byte[] BODY = "{\"question\": \"who?\", \"answer\": [\"me\"]}\n".getBytes(StandardCharsets.UTF_8);
    // sha256 of BODY, computed independently of the fetcher
    private static final String SHA = sha(BODY);

    private static String sha(byte[] b) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(b));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/NQ-open.dev.jsonl", ex -> {
            requests.incrementAndGet();
            ex.sendResponseHeaders(200, BODY.length);
            ex.getResponseBody().write(BODY);
            ex.close();
        });
        server.createContext("/missing", ex -> {
            ex.sendResponseHeaders(404, -1);
            ex.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    private DatasetSpec nq(Download d) {
        return Datasets.spec("nq-open").withDownloads(d);
    }

    @Test
    void fetchesIntoTheCacheAndVerifiesTheChecksum() throws Exception {
        DatasetCache cache = new DatasetCache(dir.resolve("cache"), null);
        Download d = new Download("NQ-open.dev.jsonl", url("/NQ-open.dev.jsonl"), SHA, "page", "note");
        DatasetFetcher.Fetched got = new DatasetFetcher(cache).fetch(nq(d), d);
        assertThat(got.file()).isEqualTo(dir.resolve("cache/nq-open/NQ-open.dev.jsonl").toAbsolutePath());
        assertThat(Files.readAllBytes(got.file())).isEqualTo(BODY);
        assertThat(got.verified()).isTrue();
        assertThat(got.sha256()).isEqualTo(SHA);
        assertThat(cache.find(nq(d))).contains(got.file());
        assertThat(Datasets.load("nq-open", got.file())).hasSize(1);
        // a second fetch finds the verified file and asks nothing
        DatasetFetcher.Fetched again = new DatasetFetcher(cache).fetch(nq(d), d);
        assertThat(again.alreadyPresent()).isTrue();
        assertThat(requests).hasValue(1);
        assertThat(Files.list(got.file().getParent()).toList()).containsExactly(got.file()); // no .part left
    }

    @Test
    void aChecksumMismatchKeepsNothing() throws Exception {
        DatasetCache cache = new DatasetCache(dir.resolve("cache"), null);
        Download d = new Download("NQ-open.dev.jsonl", url("/NQ-open.dev.jsonl"), "0".repeat(64), "page", "");
        assertThatThrownBy(() -> new DatasetFetcher(cache).fetch(nq(d), d))
                .hasMessage("NQ-open.dev.jsonl from " + url("/NQ-open.dev.jsonl") + " has sha256 " + SHA + ", expected "
                        + "0".repeat(64) + "; the file was not kept");
        assertThat(Files.list(dir.resolve("cache/nq-open")).toList()).isEmpty();
    }

    @Test
    void notFoundAndUnreachableAreOneLineAndKeepNothing() throws Exception {
        DatasetCache cache = new DatasetCache(dir.resolve("cache"), null);
        Download missing = new Download("NQ-open.dev.jsonl", url("/missing"), null, "page", "");
        assertThatThrownBy(() -> new DatasetFetcher(cache).fetch(nq(missing), missing))
                .hasMessage("fetching " + url("/missing") + " failed: HTTP 404 (nothing was kept)");
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        Download offline = new Download("NQ-open.dev.jsonl", "http://127.0.0.1:" + closed + "/x", null, "page", "");
        assertThatThrownBy(() -> new DatasetFetcher(cache).fetch(nq(offline), offline))
                .hasMessageStartingWith("cannot reach 127.0.0.1 to fetch NQ-open.dev.jsonl (")
                .hasMessageContaining("no network here? download http://127.0.0.1:" + closed + "/x and put it at ")
                .hasMessageNotContaining("\n");
        Download noUrl = new Download("dev.json", null, null, "https://example.org/page", "unpack it");
        assertThatThrownBy(() -> new DatasetFetcher(cache).fetch(nq(noUrl), noUrl))
                .hasMessage("nq-open: dev.json has no direct download; get it from https://example.org/page (unpack it) and"
                        + " put it at " + dir.resolve("cache/nq-open/dev.json").toAbsolutePath());
        assertThat(Files.list(dir.resolve("cache/nq-open")).toList()).isEmpty();
    }

    @Test
    void theCacheFollowsTheEnvironmentAndFindsSampleFolders() throws Exception {
        assertThat(DatasetCache.fromEnvironment(Map.of(DatasetCache.ENV, dir.toString())).root()).isEqualTo(dir.toAbsolutePath());
        assertThat(DatasetCache.fromEnvironment(Map.of()).root())
                .isEqualTo(Path.of(System.getProperty("user.home"), ".cache", "veracity", "datasets"));
        Path sample = dir.resolve("work/shared/data/ramdocs/RAMDocs_test.jsonl");
        Files.createDirectories(sample.getParent());
        Files.writeString(sample, "{}\n");
        Path checkout = Files.createDirectories(dir.resolve("work/repo/module"));
        DatasetCache cache = new DatasetCache(dir.resolve("empty-cache"), checkout);
        assertThat(cache.find(Datasets.spec("ramdocs"))).contains(sample.normalize());
        assertThat(cache.present(Datasets.spec("nq-open"))).isEmpty();
        // every registered official file with a checksum has a URL to check it against
        assertThat(Datasets.specs().stream().flatMap(s -> s.downloads().stream()).filter(f -> f.sha256() != null).toList())
                .isNotEmpty().allMatch(f -> f.url() != null && f.url().contains("/" + f.file()));
        assertThat(List.of("ramdocs", "nq-open", "hotpotqa", "fever")).allMatch(n -> Datasets.spec(n).downloads().getFirst().sha256() != null);
    }
}
