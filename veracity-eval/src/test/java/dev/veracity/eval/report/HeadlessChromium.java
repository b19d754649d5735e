package dev.veracity.eval.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Headless Chromium driven over the DevTools protocol (a WebSocket, the JDK's own client): open a page, evaluate
 * script in it, move and click the mouse as a user would, take a screenshot, and list every request the page made.
 * The timeouts only keep a broken browser from hanging the build; nothing is timed. The one way the tests drive a
 * browser: this module's report tests and the CLI's (through this module's test-jar).
 */
public final class HeadlessChromium implements AutoCloseable {

    /** Where CI installs Chromium ({@code apt-get install chromium}). */
    public static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final long TIMEOUT_SECONDS = 45;
    private static final Pattern LISTENING = Pattern.compile("DevTools listening on (ws://\\S+)");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    private final List<String> requests = Collections.synchronizedList(new ArrayList<>());
    private final AtomicReference<CompletableFuture<Void>> loaded = new AtomicReference<>(new CompletableFuture<>());
    private final List<String> log = Collections.synchronizedList(new ArrayList<>());
    private String session;

    private HeadlessChromium(Process process, WebSocket.Builder builder, URI uri) {
        this.process = process;
        this.socket = builder.buildAsync(uri, new Listener()).orTimeout(TIMEOUT_SECONDS, TimeUnit.SECONDS).join();
    }

    /** Skips the calling test where Chromium is not installed (CI installs it). */
    public static void assumeInstalled() {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(CHROMIUM),
                CHROMIUM + " is not installed here; CI installs it (apt-get install chromium)");
    }

    /** Starts Chromium with a fresh profile under {@code profile}, its window {@code width} x {@code height}. */
    public static HeadlessChromium start(Path profile, int width, int height) throws IOException {
        Files.createDirectories(profile);
        Process p = new ProcessBuilder(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--hide-scrollbars", "--remote-debugging-port=0", "--user-data-dir=" + profile,
                "--window-size=" + width + "," + height, "about:blank").redirectErrorStream(true).start();
        CompletableFuture<String> url = new CompletableFuture<>();
        List<String> startup = Collections.synchronizedList(new ArrayList<>());
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    startup.add(line);
                    Matcher m = LISTENING.matcher(line);
                    if (m.find()) {
                        url.complete(m.group(1));
                    }
                }
            } catch (IOException ignored) {
                // the browser went away; the future below says so
            }
            url.completeExceptionally(new IllegalStateException("chromium exited: " + String.join("\n", startup)));
        }, "chromium-output");
        reader.setDaemon(true);
        reader.start();
        String ws;
        try {
            ws = url.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (Exception e) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new IllegalStateException("chromium did not start: " + String.join("\n", startup), e);
        }
        HeadlessChromium c = new HeadlessChromium(p, HttpClient.newHttpClient().newWebSocketBuilder(), URI.create(ws));
        String target = c.call(null, "Target.createTarget", JSON.createObjectNode().put("url", "about:blank"))
                .path("targetId").asText();
        c.session = c.call(null, "Target.attachToTarget", JSON.createObjectNode().put("targetId", target)
                .put("flatten", true)).path("sessionId").asText();
        c.send("Page.enable", JSON.createObjectNode());
        c.send("Network.enable", JSON.createObjectNode());
        c.send("Runtime.enable", JSON.createObjectNode());
        c.send("Emulation.setDeviceMetricsOverride", JSON.createObjectNode().put("width", width).put("height", height)
                .put("deviceScaleFactor", 1).put("mobile", false));
        return c;
    }

    /** No network at all: a page that needed one would fail to load its part. */
    public void offline() {
        send("Network.emulateNetworkConditions", JSON.createObjectNode().put("offline", true).put("latency", 0)
                .put("downloadThroughput", -1).put("uploadThroughput", -1));
    }

    /** Opens {@code page} and waits for its load event (its scripts have run). */
    public void open(Path page) {
        open(page.toUri());
    }

    /** Opens the page at {@code url} (a server's, e.g. {@code http://127.0.0.1:PORT/}) and waits for its load event. */
    public void open(URI url) {
        CompletableFuture<Void> load = new CompletableFuture<>();
        loaded.set(load);
        send("Page.navigate", JSON.createObjectNode().put("url", url.toString()));
        load.orTimeout(TIMEOUT_SECONDS, TimeUnit.SECONDS).join();
    }

    /** The value of a script expression (JSON-serialisable; a promise is awaited). */
    public JsonNode eval(String expression) {
        JsonNode r = send("Runtime.evaluate", JSON.createObjectNode().put("expression", expression)
                .put("returnByValue", true).put("awaitPromise", true));
        if (r.has("exceptionDetails")) {
            throw new AssertionError("script failed: " + r.get("exceptionDetails") + "\n" + expression);
        }
        return r.path("result").path("value");
    }

    /**
     * The text of the open page as rendered into its DOM (after its scripts ran): tags, styles and scripts dropped, a
     * blank where each tag was, entities read, blanks folded to one space; closed {@code <details>} included.
     */
    public String text() {
        return eval("document.documentElement.outerHTML").asText()
                .replaceAll("(?s)<(style|script)\\b.*?</\\1>", " ").replaceAll("<[^>]*>", " ")
                .replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'")
                .replace("&nbsp;", " ").replace("&amp;", "&").replaceAll("\\s+", " ");
    }

    /** Moves the mouse to page point ({@code x}, {@code y}) (CSS pixels of the viewport). */
    public void hover(double x, double y) {
        mouse("mouseMoved", x, y, 0);
    }

    /** A left click at ({@code x}, {@code y}). */
    public void click(double x, double y) {
        mouse("mouseMoved", x, y, 0);
        mouse("mousePressed", x, y, 1);
        mouse("mouseReleased", x, y, 1);
    }

    /** A click on the centre of the first element matching {@code selector}, scrolled into view first. */
    public void click(String selector) {
        JsonNode r = eval("(() => { const e = document.querySelector(" + JSON.valueToTree(selector) + ");"
                + " e.scrollIntoView({block: 'center'}); const b = e.getBoundingClientRect();"
                + " return [b.left + b.width / 2, b.top + b.height / 2]; })()");
        click(r.get(0).asDouble(), r.get(1).asDouble());
    }

    private void mouse(String type, double x, double y, int clicks) {
        ObjectNode p = JSON.createObjectNode().put("type", type).put("x", x).put("y", y);
        if (clicks > 0) {
            p.put("button", "left").put("clickCount", clicks);
        }
        send("Input.dispatchMouseEvent", p);
    }

    /** A PNG of the whole page into {@code png}. */
    public Path screenshot(Path png) throws IOException {
        JsonNode r = send("Page.captureScreenshot", JSON.createObjectNode().put("format", "png")
                .put("captureBeyondViewport", true));
        Files.createDirectories(png.getParent());
        Files.write(png, Base64.getDecoder().decode(r.path("data").asText()));
        return png;
    }

    /** Every URL the pages asked for since the start. */
    public List<String> requests() {
        synchronized (requests) {
            return List.copyOf(requests);
        }
    }

    /** The console messages and page errors so far. */
    public List<String> log() {
        synchronized (log) {
            return List.copyOf(log);
        }
    }

    private JsonNode send(String method, ObjectNode params) {
        return call(session, method, params);
    }

    private JsonNode call(String sessionId, String method, ObjectNode params) {
        int id = ids.incrementAndGet();
        ObjectNode msg = JSON.createObjectNode().put("id", id).put("method", method);
        msg.set("params", params);
        if (sessionId != null) {
            msg.put("sessionId", sessionId);
        }
        CompletableFuture<JsonNode> reply = new CompletableFuture<>();
        pending.put(id, reply);
        socket.sendText(msg.toString(), true).orTimeout(TIMEOUT_SECONDS, TimeUnit.SECONDS).join();
        JsonNode r = reply.orTimeout(TIMEOUT_SECONDS, TimeUnit.SECONDS).join();
        if (r.has("error")) {
            throw new IllegalStateException(method + ": " + r.get("error"));
        }
        return r.path("result");
    }

    @Override
    public void close() {
        try {
            call(null, "Browser.close", JSON.createObjectNode());
        } catch (RuntimeException ignored) {
            // the browser may close the socket before it answers
        }
        socket.abort();
        try {
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    private final class Listener implements WebSocket.Listener {

        private final StringBuilder text = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            text.append(data);
            if (last) {
                String message = text.toString();
                text.setLength(0);
                try {
                    handle(JSON.readTree(message));
                } catch (IOException e) {
                    log.add("unreadable DevTools message: " + e.getMessage());
                }
            }
            ws.request(1);
            return null;
        }

        private void handle(JsonNode m) {
            if (m.has("id")) {
                CompletableFuture<JsonNode> f = pending.remove(m.get("id").asInt());
                if (f != null) {
                    f.complete(m);
                }
                return;
            }
            switch (m.path("method").asText()) {
                case "Network.requestWillBeSent" -> requests.add(m.at("/params/request/url").asText());
                case "Page.loadEventFired" -> loaded.get().complete(null);
                case "Runtime.consoleAPICalled" -> log.add("console: " + m.at("/params/args").toString());
                case "Runtime.exceptionThrown" -> log.add("error: " + m.at("/params/exceptionDetails").toString());
                default -> {
                }
            }
        }
    }
}
