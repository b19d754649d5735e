/** An AiServices assistant that answers with a Veracity method over a Veracity index, its verdicts in the metadata. */
package dev.veracity.examples.assistant;
