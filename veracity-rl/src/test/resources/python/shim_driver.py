"""Calls both shims as their trainers do, against the server at VERACITY_REWARD_URL, and prints what they return.

argv: the folder holding veracity_rl/, a JSONL file of {"question", "response", "label"} rows.
VeRL loads its reward function by path (verl/trainer/ppo/reward.py get_custom_reward_fn -> verl/utils/import_utils.py
load_module: spec_from_file_location, VeRL commit b178a3cd) and calls it with keywords; TRL calls reward_funcs(prompts=..., completions=..., completion_ids=..., **columns) with the
dataset's columns plus trainer_state, log_extra and log_metric (trl/trainer/grpo_trainer.py, _calculate_rewards).
"""
import asyncio
import importlib.util
import json
import os
import sys

shims, rows_file = sys.argv[1], sys.argv[2]
rows = [json.loads(line) for line in open(rows_file, encoding="utf-8")]

spec = importlib.util.spec_from_file_location("custom_module", os.path.join(shims, "veracity_rl", "verl_reward.py"))
verl = importlib.util.module_from_spec(spec)
spec.loader.exec_module(verl)
sys.path.insert(0, shims)
from veracity_rl.trl_reward import veracity_reward  # noqa: E402  (the package import a TRL script would write)

out = {"verl": [verl.compute_score(data_source="table", solution_str=r["response"], ground_truth=r["label"],
                                   extra_info={"question": r["question"], "index": i}) for i, r in enumerate(rows)]}


async def all_async():
    return await asyncio.gather(*[verl.compute_score_async(data_source="table", solution_str=r["response"],
                                                           ground_truth=r["label"], extra_info=None) for r in rows])


out["verl_async"] = asyncio.run(all_async())
# VeRL passes custom_reward_function.reward_kwargs as keywords: url= wins over the environment
env_url, verl.URL = verl.URL, "http://127.0.0.1:9/v1/rewards"  # nothing listens there
out["verl_url_kwarg"] = verl.compute_score(data_source="table", solution_str=rows[0]["response"],
                                           ground_truth=rows[0]["label"], url=os.environ["VERACITY_REWARD_URL"] + "/")
verl.URL = env_url
metrics = []
columns = {"label": [r["label"] for r in rows] + [None], "trainer_state": None,
           "log_extra": lambda column, values: None, "log_metric": lambda name, value: metrics.append([name, value])}
out["trl"] = veracity_reward(prompts=[r["question"] for r in rows] + ["no label"],
                             completions=[r["response"] for r in rows] + ["x"], completion_ids=None, **columns)
out["trl_chat"] = veracity_reward(prompts=[[{"role": "user", "content": r["question"]}] for r in rows] + [[]],
                                  completions=[[{"role": "assistant", "content": r["response"]}] for r in rows] + [[]],
                                  completion_ids=None, **columns)
out["metrics"] = metrics
try:
    verl.compute_score(data_source="table", solution_str="x", ground_truth="{broken")
except RuntimeError as e:
    out["bad_label"] = str(e)
print(json.dumps(out))
