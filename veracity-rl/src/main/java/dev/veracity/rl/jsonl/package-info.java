/**
 * JSONL files in and out of the RL commands: every non-blank line one JSON object, every problem reported as
 * {@code file:line: what is wrong} ({@link dev.veracity.rl.jsonl.BadInputException}), output written to a temporary
 * file and moved in place only when complete ({@link dev.veracity.rl.jsonl.AtomicJsonlWriter}).
 */
package dev.veracity.rl.jsonl;
