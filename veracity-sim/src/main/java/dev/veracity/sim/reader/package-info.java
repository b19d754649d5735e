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
 * <p>A prompt it does not recognise gets the rule set's default answer. Everything here is linear in the prompt
 * length (no backtracking regexes over the prompt), so a 10 MB prompt is answered in well under a second.
 */
package dev.veracity.sim.reader;
