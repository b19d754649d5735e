package dev.veracity.methods.c3po;

import java.util.Objects;

/**
 * A parser's result: the action, or the failure that kept it from being one. Exactly one of the two is set.
 *
 * @param value   the parsed action, or null
 * @param failure why there is none, or null
 */
public record Parsed<T>(T value, ParseFailure failure) {

    public Parsed {
        if ((value == null) == (failure == null)) {
            throw new IllegalArgumentException("a parse has a value or a failure, not both or neither");
        }
    }

    public static <T> Parsed<T> ok(T value) {
        return new Parsed<>(Objects.requireNonNull(value, "value"), null);
    }

    public static <T> Parsed<T> failed(ParseFailure failure) {
        return new Parsed<>(null, Objects.requireNonNull(failure, "failure"));
    }

    public boolean ok() {
        return value != null;
    }
}
