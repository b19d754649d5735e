"""VeRL custom reward: custom_reward_function.path=python/veracity_rl/verl_reward.py, .name=compute_score (or
compute_score_async). Scores through POST /v1/rewards of `veracity serve-rewards` at reward_kwargs.url, else
VERACITY_REWARD_URL."""
import asyncio
import json
import os
import urllib.error
import urllib.request

URL = os.environ.get("VERACITY_REWARD_URL", "http://127.0.0.1:5000").rstrip("/") + "/v1/rewards"
TIMEOUT = float(os.environ.get("VERACITY_REWARD_TIMEOUT", "300"))  # VeRL's reward timeout


def _plain(x):  # parquet gives numpy arrays and scalars: back to lists and numbers for JSON
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    return x.tolist() if callable(getattr(x, "tolist", None)) else x


def compute_score(data_source, solution_str, ground_truth, extra_info=None, url=None, **kwargs):
    endpoint = url.rstrip("/") + "/v1/rewards" if url else URL
    item = {"response": solution_str, "label": _plain(ground_truth), "context": {"data_source": str(data_source)}}
    if isinstance((extra_info or {}).get("question"), str):
        item["question"] = extra_info["question"]
    request = urllib.request.Request(endpoint, json.dumps({"items": [item]}).encode(), {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            result = json.load(response)["results"][0]
    except urllib.error.HTTPError as e:  # a 400 says what is wrong with the request
        raise RuntimeError(f"veracity reward server {endpoint}: HTTP {e.code}: {e.read().decode(errors='replace')}") from None
    return {"score": result["reward"], "fallback": bool(result["details"].get("fallback", False))}


async def compute_score_async(data_source, solution_str, ground_truth, extra_info=None, url=None, **kwargs):
    return await asyncio.to_thread(compute_score, data_source, solution_str, ground_truth, extra_info, url, **kwargs)
