"""Veracity's shims for the Python RL trainers.

verl_reward.compute_score / compute_score_async: VeRL's custom_reward_function (calls `veracity serve-rewards`).
trl_reward.veracity_reward: a TRL GRPOTrainer reward function (calls `veracity serve-rewards`).
records.to_rllm_episodes / to_slime_samples: agent records (records.jsonl) as rLLM Episodes (multi-agent PPO/GRPO on
VeRL) and slime Samples (Megatron).
Standard library only; each file also works alone, loaded by path (as VeRL loads it).
"""
