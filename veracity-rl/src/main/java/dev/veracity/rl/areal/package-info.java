/**
 * Online training with AReaL and no Python: {@link dev.veracity.rl.areal.ArealClient} speaks the session protocol
 * of AReaL's online-mode gateway (start_session, set_reward, end_session; the chat completions go through any
 * OpenAI client with the session key), and {@link dev.veracity.rl.areal.OnlineRollout} drives MARCH's or C-3PO's
 * agents against the trainer's policy, one session per question, rewarding each trained interaction by its id.
 */
package dev.veracity.rl.areal;
