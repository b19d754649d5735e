package dev.veracity.sim;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Reads a server-sent event stream the strict way: every event exactly one {@code data: } line and a blank line. */
final class Sse {
    static final String DONE = "[DONE]";

    private Sse() {
    }

    /** The events' data, in order ({@code [DONE]} included), asserting a 200 event stream framed as OpenAI frames it. */
    static List<String> data(HttpResponse<String> r) {
        assertThat(r.statusCode()).as("status of %s", r.body()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).contains("text/event-stream; charset=utf-8");
        String body = r.body();
        assertThat(body).endsWith("\n\n");
        List<String> out = new ArrayList<>();
        for (String event : body.substring(0, body.length() - 2).split("\n\n", -1)) {
            assertThat(event).as("an event is one data line").startsWith("data: ").doesNotContain("\n");
            out.add(event.substring("data: ".length()));
        }
        return out;
    }

    /** The JSON events of a complete stream: all but the final {@code [DONE]}, which must be there, once. */
    static List<JsonNode> chunks(HttpResponse<String> r) {
        List<String> data = data(r);
        assertThat(data.getLast()).isEqualTo(DONE);
        List<JsonNode> out = new ArrayList<>();
        for (String d : data.subList(0, data.size() - 1)) {
            assertThat(d).isNotEqualTo(DONE);
            try {
                out.add(Http.JSON.readTree(d));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return out;
    }

    /** The single choice an event carries. */
    static JsonNode choice(JsonNode chunk) {
        assertThat(chunk.get("choices")).hasSize(1);
        return chunk.get("choices").get(0);
    }
}
