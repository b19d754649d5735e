/**
 * The persistent response cache: every sample keyed by the whole request and its sample index
 * ({@link dev.veracity.llm.cache.CacheKey}), stored in SQLite, so that a rerun is free and returns identical
 * outputs. Modes: off, read-only, read-write ({@link dev.veracity.llm.cache.CacheMode}).
 */
package dev.veracity.llm.cache;
