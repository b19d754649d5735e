"""Calls one shim with a whole batch, as its trainer does, against the server at VERACITY_REWARD_URL, and prints what
it returned: {"calls": [[reward or {"score", "fallback"} per row], ...]} or {"error": "..."} for a RuntimeError.

argv: the folder holding veracity_rl/, "trl" or "verl_batch", a JSONL file of {"question", "response", "label"} rows,
the number of calls (each with the whole batch).
TRL calls reward_funcs(prompts=..., completions=..., completion_ids=..., **columns) with all the completions of a step
(trl/trainer/grpo_trainer.py, _calculate_rewards); VeRL's batch reward manager calls compute_score(data_sources=...,
solution_strs=..., ground_truths=..., extra_infos=..., **reward_kwargs) with the whole batch
(verl/workers/reward_manager/batch.py, VeRL commit b178a3cd), the function loaded by path.
"""
import importlib.util
import json
import os
import sys

shims, kind, rows_file, calls = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
rows = [json.loads(line) for line in open(rows_file, encoding="utf-8")]
if kind == "trl":
    sys.path.insert(0, shims)
    from veracity_rl.trl_reward import veracity_reward  # noqa: E402

    def call():
        return veracity_reward(prompts=[r["question"] for r in rows], completions=[r["response"] for r in rows],
                               completion_ids=None, label=[r["label"] for r in rows], trainer_state=None)
else:
    spec = importlib.util.spec_from_file_location("custom_module", os.path.join(shims, "veracity_rl", "verl_reward.py"))
    verl = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(verl)

    def call():
        return verl.compute_score_batch(data_sources=["table"] * len(rows), solution_strs=[r["response"] for r in rows],
                                        ground_truths=[r["label"] for r in rows],
                                        extra_infos=[{"question": r["question"], "index": i} for i, r in enumerate(rows)])
try:
    print(json.dumps({"calls": [call() for _ in range(calls)]}))
except RuntimeError as e:
    print(json.dumps({"error": str(e)}))
