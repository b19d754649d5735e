"""Veracity's shims for the Python RL trainers.

verl_reward.compute_score / compute_score_async / compute_score_batch: VeRL's custom_reward_function (calls
`veracity serve-rewards`).
trl_reward.veracity_reward: a TRL GRPOTrainer reward function (calls `veracity serve-rewards`).
reward_client.score: the HTTP client both share (splits a batch to the server's limits, retries 429 / 503 with back-off).
records.to_rllm_episodes / to_slime_samples: agent records (records.jsonl) as rLLM Episodes (multi-agent PPO/GRPO on
VeRL) and slime Samples (Megatron).
Standard library only; each file also works loaded by path (as VeRL loads it), the shims with reward_client.py beside.
"""
