"""Veracity's reward shims for the Python RL trainers: each calls a running `veracity serve-rewards`.

verl_reward.compute_score / compute_score_async: VeRL's custom_reward_function.
trl_reward.veracity_reward: a TRL GRPOTrainer reward function.
Standard library only; each file also works alone, loaded by path (as VeRL loads it).
"""
