/**
 * The simulator's built-in extractive reader: the default answer when no rule matches.
 *
 * <p><b>It measures plumbing, not model quality.</b> It recognises the role prompts of the project's methods and
 * judges by their fixed phrases and answers each in that role's output format, with answers drawn from the
 * documents in the prompt by a simple deterministic heuristic: the sentence with the highest word overlap with the
 * question, and from it a short span (a number or year when the question asks when / how many / what year, else a
 * capitalised name phrase, else a few words). So every method runs end to end with parseable outputs and scores that
 * are plausible and differ between methods; they say nothing about how a real model would do.
 *
 * <p>The reader is made of {@link dev.veracity.sim.reader.PromptReader}s, one per method family (and one for the
 * judges), found with {@link java.util.ServiceLoader} and tried in their {@code order()}, the judges' first (a judge's
 * prompt quotes a method's output). The project's own are listed in veracity-sim's
 * {@code META-INF/services/dev.veracity.sim.reader.PromptReader}; a method plug-in brings the reader of its prompts
 * the same way, in its jar (it depends on veracity-sim, {@code provided}): a standalone simulator finds the readers on
 * its class path, the CLI's ({@code veracity sim}, {@code demo}, {@code reproduce}) also those in its
 * {@code --plugins DIR} jars. A reader that throws is passed over, as if it had not recognised the prompt.
 *
 * <p>A prompt it does not recognise gets the rule set's default answer; the server counts them
 * ({@code SimCounters.unrecognisedPrompts()}) and keeps the last ({@code SimServer.unrecognisedPrompts()}), so a test
 * can check that every prompt of a method was recognised. Everything here is linear in the prompt
 * length (no backtracking regexes over the prompt), so a 10 MB prompt is answered in well under a second.
 */
package dev.veracity.sim.reader;
