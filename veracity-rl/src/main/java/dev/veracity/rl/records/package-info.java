/**
 * Multi-agent rollout records ({@link dev.veracity.method.AgentRecord}, one schema for every method): built from any
 * eval run's traces ({@link dev.veracity.rl.records.RunRecords}) and inspected for learning signal
 * ({@link dev.veracity.rl.records.RecordsInspection}: reward spread per role, GRPO groups with no variance, advantage
 * spread per trainer flavor).
 */
package dev.veracity.rl.records;
