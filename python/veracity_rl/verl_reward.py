"""VeRL custom reward: custom_reward_function.path=python/veracity_rl/verl_reward.py, .name=compute_score (or
compute_score_async; compute_score_batch with reward_model.reward_manager=batch). Scores through POST /v1/rewards of
`veracity serve-rewards` at reward_kwargs.url, else VERACITY_REWARD_URL; a batch larger than the server takes is split,
a busy or restarting server retried (reward_client.py, the file beside this one)."""
import asyncio
import os

try:
    from . import reward_client
except ImportError:  # loaded by path, as VeRL loads it: the client is the file beside this one
    import importlib.util

    _spec = importlib.util.spec_from_file_location(
        "veracity_rl_reward_client", os.path.join(os.path.dirname(os.path.abspath(__file__)), "reward_client.py"))
    reward_client = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(reward_client)

URL = os.environ.get("VERACITY_REWARD_URL", "http://127.0.0.1:5000").rstrip("/") + "/v1/rewards"


def _plain(x):  # parquet gives numpy arrays and scalars: back to lists and numbers for JSON
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    return x.tolist() if callable(getattr(x, "tolist", None)) else x


def _item(data_source, solution_str, ground_truth, extra_info):
    item = {"response": solution_str, "label": _plain(ground_truth), "context": {"data_source": str(data_source)}}
    if isinstance((extra_info or {}).get("question"), str):
        item["question"] = extra_info["question"]
    return item


def _score(result):  # the same keys for every sample, as VeRL's reward_extra_info needs
    return {"score": result["reward"], "fallback": bool(result["details"].get("fallback", False))}


def _endpoint(url):
    return url.rstrip("/") + "/v1/rewards" if url else URL


def compute_score(data_source, solution_str, ground_truth, extra_info=None, url=None, **kwargs):
    return _score(reward_client.score(_endpoint(url), [_item(data_source, solution_str, ground_truth, extra_info)])[0])


async def compute_score_async(data_source, solution_str, ground_truth, extra_info=None, url=None, **kwargs):
    return await asyncio.to_thread(compute_score, data_source, solution_str, ground_truth, extra_info, url, **kwargs)


def compute_score_batch(data_sources, solution_strs, ground_truths, extra_infos=None, url=None, **kwargs):
    """VeRL's batch reward manager: the whole batch in one call, split to the server's limit."""
    extra_infos = [None] * len(solution_strs) if extra_infos is None else extra_infos
    items = [_item(*row) for row in zip(data_sources, solution_strs, ground_truths, extra_infos)]
    return [_score(r) for r in reward_client.score(_endpoint(url), items)] if items else []
