package dev.veracity.http;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Locale;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.server.Request;

/**
 * Reads a request body within the size limit and parses it as JSON. A declared length over the limit is refused
 * before a byte is read; a body without a length is read up to one byte past the limit and refused there, so a
 * client can never make the server hold more than the limit. Parsing is Jackson's streaming parser (linear, depth
 * bounded by its default constraints).
 * <p>After refusing a body, the server reads and throws away what is left of it ({@link #discardRest}), up to
 * {@link #DISCARD_LIMIT}: a client that writes its whole body before it reads (Python's urllib, so the openai client)
 * would otherwise find the connection closed under it and report a broken pipe instead of the 413.
 */
final class RequestBody {

    /**
     * The most of a refused body that is read and thrown away so that its client reads the 413 (Tomcat's
     * {@code maxSwallowSize} does the same, 2 MB by default): enough for a 50 MB body over the 16 MiB default. A larger
     * rest closes the connection at once.
     */
    static final long DISCARD_LIMIT = 64L << 20;

    /** The 413's header stating the body limit in bytes, so that a client can split its batch to fit. */
    static final String MAX_BODY_HEADER = "X-Max-Body-Bytes";

    private RequestBody() {
    }

    /**
     * The body, read from {@code in} ({@link Request#asInputStream} of the request, kept to discard the rest of a
     * refused body from where this stopped).
     */
    static byte[] read(Request request, InputStream in, long maxBytes) {
        long declared = request.getLength();
        if (declared > maxBytes) {
            throw tooLarge(declared, maxBytes);
        }
        // Not closed: closing a request's stream before its end fails the request inside Jetty, which would then
        // answer 500 by itself; an unread rest is discarded (or the connection closed) once we have answered.
        try {
            if (declared >= 0) {
                // the usual case: exactly the declared bytes (a body shorter than declared is cut off by Jetty)
                return in.readNBytes((int) declared);
            }
            byte[] bytes = in.readNBytes((int) maxBytes + 1);
            if (bytes.length > maxBytes) {
                throw tooLarge(-1, maxBytes);
            }
            return bytes;
        } catch (IOException e) {
            throw new UncheckedIOException("the request body could not be read: " + e.getMessage(), e);
        }
    }

    /**
     * Whether the rest of a refused body is worth reading to throw it away: not when its client has not sent it (it
     * waits for {@code 100 Continue}, which a refusal before any read never sends) or declared more than
     * {@link #DISCARD_LIMIT}.
     */
    static boolean worthDiscarding(Request request) {
        long declared = request.getLength();
        if (declared > DISCARD_LIMIT) {
            return false;
        }
        boolean nothingRead = declared >= 0; // a declared length over the limit is refused before any read
        return !(nothingRead && request.getHeaders().contains(HttpHeader.EXPECT, HttpHeaderValue.CONTINUE.asString()));
    }

    /**
     * Reads and throws away the rest of a refused body from the stream it was read from: at most {@link #DISCARD_LIMIT} bytes and for at most
     * {@code within} (each read is further bounded by the connection's idle timeout).
     *
     * @return whether the body's end was reached, so that the connection can serve the client's next request
     */
    static boolean discardRest(InputStream in, Duration within) {
        long end = System.nanoTime() + within.toNanos();
        long left = DISCARD_LIMIT;
        byte[] sink = new byte[64 << 10];
        try {
            while (left > 0 && System.nanoTime() - end < 0) {
                int n = in.read(sink, 0, (int) Math.min(sink.length, left));
                if (n < 0) {
                    return true;
                }
                left -= n;
            }
            return false;
        } catch (IOException | RuntimeException e) {
            return false; // the client went away or stalled: the connection is closed either way
        }
    }

    static JsonNode parse(byte[] bytes) {
        if (bytes.length == 0) {
            throw new HttpProblem(400, "bad_json", "the body is empty: send a JSON object");
        }
        try {
            JsonNode node = Json.MAPPER.readTree(bytes);
            if (node == null || node.isMissingNode()) {
                throw new HttpProblem(400, "bad_json", "the body holds no JSON value: send a JSON object");
            }
            return node;
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            String where = at == null ? "" : String.format(Locale.ROOT, " at line %d, column %d", at.getLineNr(), at.getColumnNr());
            throw new HttpProblem(400, "bad_json", "the body is not JSON" + where + ": " + plain(e.getOriginalMessage()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Jackson's message without its note that it leaves the source out, which says nothing to the client. */
    static String plain(String jacksonMessage) {
        return jacksonMessage == null ? "" : jacksonMessage.replace(REDACTED, "");
    }

    private static final String REDACTED = "Source: REDACTED (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled); ";

    private static HttpProblem tooLarge(long declared, long max) {
        String what = declared >= 0 ? String.format(Locale.ROOT, "the body has %,d bytes;", declared) : "the body is longer;";
        // No "Connection: close" here: with it Jetty closes at once, and a client still uploading a large body gets
        // a broken pipe instead of this answer. The dispatcher reads and discards the rest (discardRest) instead.
        return HttpProblem.tooLarge("body_too_large", String.format(Locale.ROOT,
                "%s this server takes at most %,d bytes: send smaller batches or shorter texts", what, max))
                .withHeader(MAX_BODY_HEADER, Long.toString(max));
    }
}
