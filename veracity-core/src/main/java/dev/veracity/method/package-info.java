/**
 * The method SPI: a {@link dev.veracity.method.QaMethod} answers a {@link dev.veracity.qa.QaItem} through a
 * {@link dev.veracity.method.MethodContext} (model client, trace context, task shape, options) and returns a
 * {@link dev.veracity.method.MethodAnswer}. Prompts are kept verbatim as resources
 * ({@link dev.veracity.method.PromptTemplate}).
 */
package dev.veracity.method;
