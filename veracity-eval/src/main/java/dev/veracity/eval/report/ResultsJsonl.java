package dev.veracity.eval.report;

import dev.veracity.eval.results.ResultLine;
import dev.veracity.eval.results.ResultsJson;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A run's {@code results.jsonl} read one line at a time, with the rule loading and every later pass share: a blank
 * line is nothing, a line that is not a result line (a line cut off when the run was killed) is skipped.
 */
final class ResultsJsonl {

    /** Receives each line with its number (from 1); returns false to stop reading. */
    @FunctionalInterface
    interface LineVisitor {
        boolean visit(int lineNo, String line);
    }

    private ResultsJsonl() {
    }

    /** Reads {@code file} line by line until the end or until {@code each} returns false. */
    static void forEachLine(Path file, LineVisitor each) {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            int lineNo = 0;
            for (String line; (line = in.readLine()) != null; ) {
                if (!each.visit(++lineNo, line)) {
                    return;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * The result line, or null when the line is not one (not JSON, or a field of the wrong type).
     *
     * @throws IllegalArgumentException when the line is of a newer schema than this build reads
     */
    static ResultLine parse(String line, Object where) {
        try {
            return ResultsJson.line(line, where);
        } catch (ResultsJson.MalformedLine e) {
            return null;
        }
    }
}
