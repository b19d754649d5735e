"""Veracity's agent records (records.jsonl of `veracity rl rollout`, `rollout c3po`, `rl records`, MARCH's
march-records.jsonl) as the multi-agent trainers take them:

  to_rllm_episodes(records) -> rLLM Episodes (rllm 0.3, rllm/agents/agent.py): one Episode per question
      (id "QUESTION:ROLLOUT"), one Trajectory per role (name = role, so GRPO groups are "QUESTION:ROLE"), one Step
      per record (prompt_ids, response_ids, logprobs, chat_completions, model_response, reward, advantage, info).
      The path for multi-agent PPO/GRPO on VeRL through rLLM's trainer.
  to_slime_samples(records) -> slime Samples (slime/utils/types.py): tokens = prompt ids + response ids,
      response_length, loss_mask (1 per response token), rollout_log_probs, reward, group_index per (question, role).
      The path for Megatron through slime (a custom generate function returning these Samples).

Standard library only. The real classes are built when rllm / slime are importable (as_classes=True), else plain
dataclasses with the same fields (RllmStep, ...). Tokens are never re-made: a record without prompt_ids/response_ids
(a run without --return-token-ids) is refused, or kept with empty ids when require_tokens=False.
"""
import dataclasses
import importlib
import json
from collections import OrderedDict


class RecordError(ValueError):
    """A record that cannot become a training sample; the message names the file and line, or the record."""


@dataclasses.dataclass
class RllmStep:  # rllm.agents.agent.Step, the fields this adapter fills
    prompt_ids: list = dataclasses.field(default_factory=list)
    response_ids: list = dataclasses.field(default_factory=list)
    logprobs: list = dataclasses.field(default_factory=list)
    chat_completions: list = dataclasses.field(default_factory=list)
    model_response: str = ""
    info: dict = dataclasses.field(default_factory=dict)
    reward: float = 0.0
    done: bool = False
    advantage: object = None


@dataclasses.dataclass
class RllmTrajectory:  # rllm.agents.agent.Trajectory
    uid: str = ""
    name: str = ""
    task: object = None
    steps: list = dataclasses.field(default_factory=list)
    reward: object = None
    info: dict = dataclasses.field(default_factory=dict)


@dataclasses.dataclass
class RllmEpisode:  # rllm.agents.agent.Episode
    id: str = ""
    task: object = None
    is_correct: bool = False
    trajectories: list = dataclasses.field(default_factory=list)
    metrics: dict = dataclasses.field(default_factory=dict)
    info: dict = dataclasses.field(default_factory=dict)


@dataclasses.dataclass
class SlimeSample:  # slime.utils.types.Sample, the fields this adapter fills (status: Sample.Status.COMPLETED)
    group_index: int = 0
    index: int = 0
    prompt: object = ""
    tokens: list = dataclasses.field(default_factory=list)
    response: str = ""
    response_length: int = 0
    label: object = None
    reward: object = None
    loss_mask: list = dataclasses.field(default_factory=list)
    rollout_log_probs: list = None
    status: str = "completed"
    metadata: dict = dataclasses.field(default_factory=dict)


def read_records(path):
    """The records of a JSONL file, in order; a bad line is a RecordError naming FILE:LINE."""
    out = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as e:
                raise RecordError(f"{path}:{number}: not JSON ({e.msg})") from None
            if not isinstance(row, dict):
                raise RecordError(f"{path}:{number}: not a JSON object")
            row["_where"] = f"{path}:{number}"
            out.append(row)
    return out


def _checked(r, require_tokens):
    where = r.get("_where") or f"record {r.get('question_id')}/{r.get('node_id')}"
    for key in ("question_id", "role", "node_id"):
        if not isinstance(r.get(key), str):
            raise RecordError(f"{where}: needs a string \"{key}\"")
    ids = {k: r.get(k) for k in ("prompt_ids", "response_ids", "logprobs")}
    for k, v in ids.items():
        number = int if k != "logprobs" else (int, float)
        if v is not None and not (isinstance(v, list) and all(isinstance(x, number) and not isinstance(x, bool) for x in v)):
            raise RecordError(f"{where}: \"{k}\" must be a list of numbers")
    if ids["prompt_ids"] is None or ids["response_ids"] is None:
        if require_tokens:
            raise RecordError(f"{where}: no prompt_ids/response_ids (rerun with --return-token-ids against a server that"
                              " returns them, e.g. vLLM >= 0.10.2; tokens are never re-made here)")
    elif ids["logprobs"] is not None and len(ids["logprobs"]) != len(ids["response_ids"]):
        raise RecordError(f"{where}: {len(ids['logprobs'])} logprobs for {len(ids['response_ids'])} response ids")
    reward = r.get("reward")
    if reward is not None and (isinstance(reward, bool) or not isinstance(reward, (int, float))):
        raise RecordError(f"{where}: \"reward\" must be a number or null")
    return where


def _info(r):
    skip = {"prompt_ids", "response_ids", "logprobs", "messages", "response", "reward", "advantage", "_where"}
    return {k: v for k, v in r.items() if k not in skip}


def _by_question(records):
    """Records grouped by (run, question_id), runs of one question numbered in order of appearance."""
    groups = OrderedDict()
    for r in records:
        groups.setdefault((r.get("run"), r["question_id"]), []).append(r)
    rollout = {}
    for (run, question) in groups:
        rollout[(run, question)] = sum(1 for (_, q) in rollout if q == question)
    return groups, rollout


def _classes(module, names, as_classes, fallback):
    if as_classes:
        try:
            m = importlib.import_module(module)
            return tuple(getattr(m, n) for n in names)
        except (ImportError, AttributeError):
            pass
    return fallback


def to_rllm_episodes(records, require_tokens=True, as_classes=True):
    """rLLM Episodes, one per question and run: a Trajectory per role, a Step per record (file order)."""
    step_cls, traj_cls, episode_cls = _classes("rllm.agents.agent", ("Step", "Trajectory", "Episode"), as_classes,
                                               (RllmStep, RllmTrajectory, RllmEpisode))
    for r in records:
        _checked(r, require_tokens)
    groups, rollout = _by_question(records)
    episodes = []
    for (run, question), rows in groups.items():
        by_role = OrderedDict()
        for r in rows:
            by_role.setdefault(r["role"], []).append(r)
        trajectories = []
        for role, steps in by_role.items():
            made = [step_cls(prompt_ids=r.get("prompt_ids") or [], response_ids=r.get("response_ids") or [],
                             logprobs=r.get("logprobs") or [],
                             chat_completions=list(r.get("messages") or []) + [
                                 {"role": "assistant", "content": r.get("response", "")}],
                             model_response=r.get("response", ""), info=_info(r),
                             reward=float(r["reward"]) if r.get("reward") is not None else 0.0,
                             done=True, advantage=r.get("advantage")) for r in steps]
            rewards = {r.get("reward") for r in steps}
            trajectories.append(traj_cls(uid=f"{question}:{rollout[(run, question)]}:{role}", name=role,
                                         task={"question_id": question}, steps=made,
                                         reward=float(rewards.pop()) if len(rewards) == 1 and None not in rewards else None,
                                         info={"run": run, "method": rows[0].get("method")}))
        episodes.append(episode_cls(id=f"{question}:{rollout[(run, question)]}", task={"question_id": question},
                                    trajectories=trajectories, info={"run": run, "method": rows[0].get("method")}))
    return episodes


def to_slime_samples(records, require_tokens=True, as_classes=True):
    """slime Samples, one per record; group_index numbers the (question, role) groups, as GRPO compares them."""
    (sample_cls,) = _classes("slime.utils.types", ("Sample",), as_classes, (SlimeSample,))
    completed = getattr(getattr(sample_cls, "Status", None), "COMPLETED", "completed")
    groups = OrderedDict()
    samples = []
    for index, r in enumerate(records):
        _checked(r, require_tokens)
        group = groups.setdefault((r.get("run"), r["question_id"], r["role"]), len(groups))
        prompt_ids, response_ids = r.get("prompt_ids") or [], r.get("response_ids") or []
        samples.append(sample_cls(group_index=group, index=index, prompt=list(r.get("messages") or []),
                                  tokens=list(prompt_ids) + list(response_ids), response=r.get("response", ""),
                                  response_length=len(response_ids), reward=r.get("reward"),
                                  loss_mask=[1] * len(response_ids), rollout_log_probs=r.get("logprobs"),
                                  status=completed, metadata=_info(r)))
    return samples
