package dev.veracity.rl.jsonl;

import java.nio.file.Path;

/**
 * Input a command cannot use: the message names the file, the line where there is one, and what is wrong, in one
 * line. An {@link IllegalArgumentException}, so the command line prints it and exits with code 2.
 */
public final class BadInputException extends IllegalArgumentException {

    public BadInputException(String message) {
        super(message);
    }

    public BadInputException(String message, Throwable cause) {
        super(message, cause);
    }

    /** {@code file:line: problem}. */
    public static BadInputException at(Path file, long line, String problem) {
        return new BadInputException(file + ":" + line + ": " + problem);
    }
}
