package dev.veracity.sim.reader;

import java.util.Optional;

/**
 * The simulator's built-in reader (see the package documentation: it measures plumbing, not model quality).
 * Recognises a role prompt by its fixed phrases and answers in that role's format from the prompt's documents.
 */
public final class ExtractiveReader {

    private ExtractiveReader() {
    }

    /**
     * The reader's answer to {@code prompt} (for chat, the messages' contents joined), or empty when the prompt is
     * not one it recognises. Deterministic, linear in the prompt length, never throws.
     */
    public static Optional<String> respond(String prompt) {
        if (prompt == null || prompt.isEmpty()) {
            return Optional.empty();
        }
        try {
            Optional<String> out = JudgeReader.read(prompt);
            if (out.isEmpty()) {
                out = CourtReader.read(prompt);
            }
            if (out.isEmpty()) {
                out = MarchReader.read(prompt);
            }
            if (out.isEmpty()) {
                out = MadamReader.read(prompt);
            }
            if (out.isEmpty()) {
                out = TruthRlReader.read(prompt);
            }
            if (out.isEmpty()) {
                out = C3poReader.read(prompt);
            }
            if (out.isEmpty()) {
                out = BaselineReader.read(prompt);
            }
            return out;
        } catch (RuntimeException e) {
            return Optional.empty(); // a heuristic slip must not fail the request: fall back to the default answer
        }
    }
}
