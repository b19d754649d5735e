/**
 * The answering methods, one package per paper, and the {@link dev.veracity.methods.Methods} registry by name.
 */
package dev.veracity.methods;
