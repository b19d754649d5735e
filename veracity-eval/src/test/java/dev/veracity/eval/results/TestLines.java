package dev.veracity.eval.results;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;

/** Result lines written as JSON text in a test, read as the readers read them. */
public final class TestLines {

    private static final ObjectMapper JSON = new ObjectMapper();

    private TestLines() {
    }

    /** Each text as a result line. */
    public static List<ResultLine> of(String... json) {
        return Arrays.stream(json).map(TestLines::line).toList();
    }

    /** One text (or JSON tree) as a result line. */
    public static ResultLine line(Object json) {
        try {
            String text = json instanceof String s ? s : JSON.writeValueAsString(json);
            return ResultsJson.line(text, "a test line");
        } catch (ResultsJson.MalformedLine | IOException e) {
            throw new IllegalArgumentException("not a result line: " + json + " (" + e.getMessage() + ")");
        }
    }
}
