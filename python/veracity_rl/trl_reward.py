"""TRL reward function: GRPOTrainer(reward_funcs=[veracity_reward], ...) with the gold answers in the dataset column
VERACITY_LABEL_COLUMN (default "label"). Scores through POST /v1/rewards of `veracity serve-rewards`."""
import json
import os
import urllib.error
import urllib.request

URL = os.environ.get("VERACITY_REWARD_URL", "http://127.0.0.1:5000").rstrip("/") + "/v1/rewards"
TIMEOUT = float(os.environ.get("VERACITY_REWARD_TIMEOUT", "300"))
LABEL_COLUMN = os.environ.get("VERACITY_LABEL_COLUMN", "label")


def _text(x):  # a string, or chat messages (TRL's conversational format): the last message's text
    content = x[-1].get("content") if isinstance(x, list) and x else x
    return content if isinstance(content, str) else ""


def veracity_reward(prompts, completions, **columns):
    labels = columns.get(LABEL_COLUMN) or [None] * len(completions)
    todo = [i for i, label in enumerate(labels) if label is not None]  # no label: None, which TRL leaves out
    items = [{"question": _text(prompts[i]), "response": _text(completions[i]), "label": labels[i]} for i in todo]
    request = urllib.request.Request(URL, json.dumps({"items": items}).encode(), {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            results = json.load(response)["results"]
    except urllib.error.HTTPError as e:  # a 400 says what is wrong with the batch
        raise RuntimeError(f"veracity reward server {URL}: HTTP {e.code}: {e.read().decode(errors='replace')}") from None
    rewards = [None] * len(completions)
    for i, result in zip(todo, results):
        rewards[i] = result["reward"]
    if callable(columns.get("log_metric")) and results:  # TRL's hook for scalar metrics
        columns["log_metric"]("veracity/fallback_share",
                              sum(bool(r["details"].get("fallback")) for r in results) / len(results))
    return rewards
