/**
 * Shared storage plumbing: the SQLite files behind the response cache and the traces.
 */
package dev.veracity.store;
