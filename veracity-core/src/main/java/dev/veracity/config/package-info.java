/**
 * Configuration from a file, environment variables and flags, and the handling of credentials so that they
 * never appear in traces, logs or errors.
 */
package dev.veracity.config;
