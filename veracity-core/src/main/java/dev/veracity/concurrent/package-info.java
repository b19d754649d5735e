/** Concurrency helpers on virtual threads for running independent agent calls at once. */
package dev.veracity.concurrent;
