package dev.veracity.rl.areal;

/** AReaL's gateway refused a request or did not answer; the message is one line with the path and the reason. */
public final class ArealException extends RuntimeException {

    public ArealException(String message) {
        super(message);
    }

    public ArealException(String message, Throwable cause) {
        super(message, cause);
    }
}
