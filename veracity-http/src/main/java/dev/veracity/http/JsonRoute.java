package dev.veracity.http;

/**
 * One endpoint. Runs on its own virtual thread; may block. A refusal is an {@link HttpProblem}; an interrupt means
 * the answer is no longer wanted (deadline passed, client gone, server stopping): stop and return or throw anything.
 */
@FunctionalInterface
public interface JsonRoute {

    JsonReply handle(JsonCall call) throws InterruptedException;
}
