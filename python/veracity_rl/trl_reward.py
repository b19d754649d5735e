"""TRL reward function: GRPOTrainer(reward_funcs=[veracity_reward], ...) with the gold answers in the dataset column
VERACITY_LABEL_COLUMN (default "label"). Scores through POST /v1/rewards of `veracity serve-rewards`; a batch larger
than the server takes is split, a busy or restarting server retried (reward_client.py)."""
import os

try:
    from . import reward_client
except ImportError:  # loaded by path: the client is the file beside this one
    import importlib.util

    _spec = importlib.util.spec_from_file_location(
        "veracity_rl_reward_client", os.path.join(os.path.dirname(os.path.abspath(__file__)), "reward_client.py"))
    reward_client = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(reward_client)

URL = os.environ.get("VERACITY_REWARD_URL", "http://127.0.0.1:5000").rstrip("/") + "/v1/rewards"
LABEL_COLUMN = os.environ.get("VERACITY_LABEL_COLUMN", "label")


def _text(x):  # a string, or chat messages (TRL's conversational format): the last message's text
    content = x[-1].get("content") if isinstance(x, list) and x else x
    return content if isinstance(content, str) else ""


def veracity_reward(prompts, completions, **columns):
    labels = columns.get(LABEL_COLUMN) or [None] * len(completions)
    todo = [i for i, label in enumerate(labels) if label is not None]  # no label: None, which TRL leaves out
    items = [{"question": _text(prompts[i]), "response": _text(completions[i]), "label": labels[i]} for i in todo]
    results = reward_client.score(URL, items) if items else []
    rewards = [None] * len(completions)
    for i, result in zip(todo, results):
        rewards[i] = result["reward"]
    if callable(columns.get("log_metric")) and results:  # TRL's hook for scalar metrics
        columns["log_metric"]("veracity/fallback_share",
                              sum(bool(r["details"].get("fallback")) for r in results) / len(results))
    return rewards
