/**
 * The method SPI: a {@link dev.veracity.method.QaMethod} answers a {@link dev.veracity.qa.QaItem} through a
 * {@link dev.veracity.method.MethodContext} (model client, trace context, task shape, options) and returns a
 * {@link dev.veracity.method.MethodAnswer}. Each method declares itself in a {@link dev.veracity.method.MethodSpec}
 * (description, paper section, typed {@link dev.veracity.method.OptionSpec}s, and the
 * {@link dev.veracity.method.Capability}s it needs from the runner: documents, retriever, pages, embedder, a model of
 * its own for a {@link dev.veracity.method.ModelRole}); options given on the command line are resolved against it once
 * into {@link dev.veracity.method.MethodOptions}. What a method reports beyond the answer's fields it attaches under a
 * {@link dev.veracity.method.DetailKey} of its own. Prompts are kept verbatim as resources
 * ({@link dev.veracity.method.PromptTemplate}). A method exposes the prompts of its roles
 * ({@link dev.veracity.method.RolePrompt}: {@link dev.veracity.method.AgentPrompt}s for a question under a
 * {@link dev.veracity.method.PromptContext}), built by the code its calls use, for training data; a rollout's agent steps
 * are {@link dev.veracity.method.AgentRecord}s and a tree search's trees {@link dev.veracity.method.RolloutTree}s.
 */
package dev.veracity.method;
