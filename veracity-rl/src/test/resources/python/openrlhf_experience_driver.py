"""OpenRLHF's path from the remote reward's answer to the training batch, restated so that the reward server's answers
go through it as they do in a training run, with torch (Debian's python3-torch runs it).

Restated (not copied) from OpenRLHF 0.11.0, commit 3c3be6234e0cb353e76bb8019947db9dfe99fca7:
  openrlhf/utils/agent.py          SingleTurnAgentExecutor.execute and _fetch_rewards_via_http: one sample per request,
                                   {"query": [q], "prompts": [p], "labels": [l]}; the answer's "rewards", "scores"
                                   (else "rewards") and "extra_logs" (or {}) become the sample's reward, scores, extra_logs.
  openrlhf/trainer/ppo_utils/samples_generator.py  _process_response_into_experience: info = {"response_clip_ratio":
                                   tensor([clipped])}, then "reward", "score" and every extra_logs key as
                                   torch.tensor([value]); rewards/scores as torch.tensor([value]).
  openrlhf/trainer/ppo_utils/experience.py  Experience._merge_item / concat_experiences (the experience maker's
                                   split_rollout_samples joins each micro-batch of samples: tensors padded on the right
                                   and concatenated, lists chained, dicts merged key by key over the keys present),
                                   split_experience_batch (each tensor and each info[key] must have batch_size rows,
                                   else "Size of info[k] (n) does not match batch_size (m)") and make_experience_batch
                                   (the replay buffer's re-batching: the first item's info keys, read from every item).
  openrlhf/utils/utils.py          zero_pad_sequences.
Only the fields this path touches are kept; model forwards, advantages and Ray are not part of it.

argv: the reward server's base URL, a JSONL file of {"query", "prompt", "label"} samples, the micro-batch size.
Prints {"ok": true, "info": {key: [value per sample]}, "rewards": [...]} after concat, split and re-batch of every
micro-batch, or {"ok": false, "error": "..."} with the exception OpenRLHF would raise.
"""
import dataclasses
import itertools
import json
import sys
import urllib.request

import torch
import torch.nn.functional as F


def zero_pad_sequences(sequences, side="left", value=0, stack=False):
    max_len = max(seq.size(-1) for seq in sequences)
    padded = [F.pad(seq, (max_len - seq.size(-1), 0) if side == "left" else (0, max_len - seq.size(-1)), value=value)
              for seq in sequences]
    return torch.stack(padded, dim=0) if stack else torch.cat(padded, dim=0)


@dataclasses.dataclass
class Experience:
    sequences: torch.Tensor = None  # step tensor (B, T)
    rewards: torch.Tensor = None  # episode tensor (B,)
    scores: torch.Tensor = None  # episode tensor (B,)
    prompts: list = dataclasses.field(default_factory=list)
    labels: list = dataclasses.field(default_factory=list)
    info: dict = dataclasses.field(default_factory=dict)

    STEP = ("sequences",)
    EPISODE = ("rewards", "scores")

    @staticmethod
    def merge_item(items, pad_value=0):
        if isinstance(items[0], torch.Tensor):
            return zero_pad_sequences(items, side="right", value=pad_value)
        if isinstance(items[0], list):
            return list(itertools.chain.from_iterable(items))
        if isinstance(items[0], dict):
            result = {}
            for d in items:
                for key, value in d.items():
                    result.setdefault(key, []).append(value)
            return {key: Experience.merge_item(values, pad_value) for key, values in result.items()}
        if items[0] is None:
            return None
        raise ValueError(f"Unsupported type: {type(items[0])}")

    @staticmethod
    def concat_experiences(experiences, pad_token_id):
        result = {}
        for f in dataclasses.fields(Experience):
            values = [getattr(e, f.name) for e in experiences]
            result[f.name] = Experience.merge_item(values, pad_token_id if f.name == "sequences" else 0)
        return Experience(**result)


def split_experience_batch(experience):
    batch_size = len(experience.sequences)
    items = []
    for i in range(batch_size):
        kwargs = {}
        for f in dataclasses.fields(Experience):
            value = getattr(experience, f.name)
            if value is None:
                kwargs[f.name] = None
            elif isinstance(value, torch.Tensor):
                if len(value) != batch_size:
                    raise ValueError(f"Size of {f.name} ({len(value)}) does not match batch_size ({batch_size})")
                kwargs[f.name] = value[i]
            elif isinstance(value, dict):
                d = {}
                for k, v in value.items():
                    if len(v) != batch_size:
                        raise ValueError(f"Size of {f.name}[{k}] ({len(v)}) does not match batch_size ({batch_size})")
                    d[k] = v[i]
                kwargs[f.name] = d
            elif isinstance(value, list):
                kwargs[f.name] = [value[i]] if len(value) == batch_size else value
        items.append(Experience(**kwargs))
    return items


def make_experience_batch(items):
    kwargs = {}
    for f in dataclasses.fields(Experience):
        first = getattr(items[0], f.name)
        if first is None:
            kwargs[f.name] = None
        elif isinstance(first, torch.Tensor):
            tensors = [getattr(item, f.name) for item in items]
            if f.name in Experience.STEP:
                kwargs[f.name] = zero_pad_sequences(tensors, "right", stack=True)
            elif f.name in Experience.EPISODE or first.dim() == 0:
                kwargs[f.name] = torch.stack(tensors)
            else:
                raise ValueError(f"Unsupported tensor field batching rule for {f.name}")
        elif isinstance(first, dict):
            kwargs[f.name] = {}
            for key in first.keys():
                vals = [getattr(item, f.name)[key] for item in items]
                if not all(isinstance(v, type(vals[0])) for v in vals):
                    raise TypeError(f"Inconsistent types in {f.name}[{key}]")
                kwargs[f.name][key] = torch.tensor(vals) if all(isinstance(v, (int, float)) for v in vals) else vals
        elif isinstance(first, list):
            kwargs[f.name] = list(itertools.chain.from_iterable(getattr(item, f.name) for item in items))
    return Experience(**kwargs)


def fetch_reward(url, query, prompt, label):  # _fetch_rewards_via_http with one endpoint and one sample
    payload = json.dumps({"query": [query], "prompts": [prompt], "labels": [label]}).encode()
    request = urllib.request.Request(url, payload, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=180) as response:
        return json.load(response)


def to_experience(sample, rewards_info):  # execute's output, then _process_response_into_experience
    reward_val = rewards_info.get("rewards")
    score_val = rewards_info.get("scores")
    if score_val is None:
        score_val = reward_val
    extra_logs = rewards_info.get("extra_logs") or {}
    tokens = [ord(c) % 1000 for c in sample["query"]][:64]  # stand-in token ids: only their count matters here
    info = {"response_clip_ratio": torch.tensor([False])}
    if reward_val is not None:
        info["reward"] = torch.tensor([reward_val])
    if score_val is not None:
        info["score"] = torch.tensor([score_val])
    for key, value in extra_logs.items():
        if isinstance(value, torch.Tensor):
            value = value.flatten()[0].item()
        info[key] = torch.tensor([value])
    return Experience(sequences=torch.tensor(tokens, dtype=torch.long).unsqueeze(0),
                      rewards=torch.tensor([reward_val]) if reward_val is not None else None,
                      scores=torch.tensor([score_val]) if score_val is not None else None,
                      prompts=[sample["prompt"]], labels=[sample["label"]], info=info)


def main():
    base, samples_file, micro = sys.argv[1], sys.argv[2], int(sys.argv[3])
    samples = [json.loads(line) for line in open(samples_file, encoding="utf-8") if line.strip()]
    rollout = [to_experience(s, fetch_reward(base + "/get_reward", s["query"], s["prompt"], s["label"])) for s in samples]
    try:
        items = []
        for i in range(0, len(rollout), micro):  # split_rollout_samples without dynamic batching
            concat = Experience.concat_experiences(rollout[i:i + micro], pad_token_id=0)
            items.extend(split_experience_batch(concat))
        batch = make_experience_batch(items)
    except (ValueError, TypeError, KeyError) as e:
        print(json.dumps({"ok": False, "error": f"{type(e).__name__}: {e}"}))
        return
    # make_experience_batch keeps each info key as the list of the samples' tensors: one number per sample
    info = {k: [float(x) for t in (v if isinstance(v, list) else [v]) for x in t.flatten().tolist()]
            for k, v in batch.info.items()}
    print(json.dumps({"ok": True, "info": info, "rewards": batch.rewards.flatten().tolist()}))


main()
