package dev.veracity.server;

import dev.veracity.http.JsonCall;
import dev.veracity.http.JsonReply;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The web playground of {@code veracity serve}: {@code GET /} is a page that asks the server's own
 * {@code POST /v1/chat/completions} (streamed) and shows the answer beside what the method did, read from the answer's
 * {@code veracity} field ({@link VeracityReport}). Its page, script and style sheet are classpath resources served from
 * here and nothing else is loaded: the {@link #CSP} lets the page reach its own origin only, and forbids inline script,
 * so model output and documents (untrusted) can never run as script. The files hold nothing secret, so they need no
 * API key ({@link AccessGate#OPEN_PATHS}); the page asks for one when the API answers 401.
 */
final class Playground {

    /** The page's paths and their files (under {@code playground/} beside this class). */
    static final Map<String, Asset> ASSETS = Map.of(
            "/", new Asset("index.html", "text/html; charset=utf-8"),
            "/playground/app.js", new Asset("app.js", "text/javascript; charset=utf-8"),
            "/playground/style.css", new Asset("style.css", "text/css; charset=utf-8"));

    /** Own origin only: no outside script, style, image, font or connection, no inline script, no framing. */
    static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
            + "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    private final Map<String, byte[]> bodies = new LinkedHashMap<>();

    Playground() {
        ASSETS.forEach((path, asset) -> bodies.put(path, read(asset.file())));
    }

    /** One file of the page and its media type. */
    record Asset(String file, String contentType) {
    }

    JsonReply serve(JsonCall call) {
        Asset asset = Objects.requireNonNull(ASSETS.get(call.path()), call.path());
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Security-Policy", CSP);
        headers.put("X-Content-Type-Options", "nosniff");
        headers.put("Referrer-Policy", "no-referrer");
        headers.put("Cache-Control", "no-cache");
        return call.send(200, asset.contentType(), bodies.get(call.path()), headers);
    }

    private static byte[] read(String file) {
        try (InputStream in = Playground.class.getResourceAsStream("playground/" + file)) {
            if (in == null) {
                throw new IllegalStateException("the playground's " + file + " is missing from the jar");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
