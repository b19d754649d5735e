/**
 * The reward server ({@code veracity serve-rewards}): one {@link dev.veracity.rl.reward.Reward} over HTTP in the
 * protocols the trainers speak, on the shared plumbing of {@code veracity-http}.
 * <ul>
 *   <li>{@link dev.veracity.rl.server.RewardServer} and {@link dev.veracity.rl.server.RewardServerSettings}: start,
 *       limits, deadline, fallback score;</li>
 *   <li>the doors: OpenRLHF ({@code POST /get_reward}, {@code POST /}), slime ({@code POST /slime}) and the native
 *       batch ({@code POST /v1/rewards}), each checking a whole request before scoring any of it;</li>
 *   <li>scoring within the deadline (the fallback score, flagged, for what is late; its work cancelled), the chat
 *       template's prompt prefix and end tokens removed from OpenRLHF's queries, the reward metrics.</li>
 * </ul>
 */
package dev.veracity.rl.server;
