package dev.veracity.http;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Locale;
import org.eclipse.jetty.server.Request;

/**
 * Reads a request body within the size limit and parses it as JSON. A declared length over the limit is refused
 * before a byte is read; a body without a length is read up to one byte past the limit and refused there, so a
 * client can never make the server hold more than the limit. Parsing is Jackson's streaming parser (linear, depth
 * bounded by its default constraints).
 */
final class RequestBody {

    private RequestBody() {
    }

    static JsonNode readJson(Request request, long maxBytes) {
        return parse(read(request, maxBytes));
    }

    static byte[] read(Request request, long maxBytes) {
        long declared = request.getLength();
        if (declared > maxBytes) {
            throw tooLarge(declared, maxBytes);
        }
        // Not closed: closing a request's stream before its end fails the request inside Jetty, which would then
        // answer 500 by itself; an unread rest is discarded (or the connection closed) once we have answered.
        InputStream in = Request.asInputStream(request);
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
        // a broken pipe instead of this answer. Without it Jetty drains what it can and closes the connection only
        // when the rest is too large to drain, which a client may notice only on its next request.
        return HttpProblem.tooLarge("body_too_large", String.format(Locale.ROOT,
                "%s this server takes at most %,d bytes: send smaller batches or shorter texts", what, max));
    }
}
