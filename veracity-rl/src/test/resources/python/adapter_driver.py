"""Turns agent records into rLLM Episodes and slime Samples with python/veracity_rl/records.py and prints them.

argv: the folder holding veracity_rl/, a records JSONL file with token ids, one without, a scratch folder.
First as plain dataclasses (neither rllm nor slime is installed), then against stand-in packages rllm.agents.agent
and slime.utils.types written to the scratch folder with the constructors of rLLM 0.3 (Step, Trajectory, Episode)
and slime (Sample, Sample.Status), so the adapter's keyword arguments are checked against those signatures.
"""
import dataclasses
import enum
import json
import os
import sys

shims, records_file, untokenised_file, scratch = sys.argv[1:5]
sys.path.insert(0, shims)
from veracity_rl import records as adapter  # noqa: E402

rows = adapter.read_records(records_file)
out = {
    "episodes": [dataclasses.asdict(e) for e in adapter.to_rllm_episodes(rows)],
    "samples": [dataclasses.asdict(s) for s in adapter.to_slime_samples(rows)],
}
bare = adapter.read_records(untokenised_file)
try:
    adapter.to_rllm_episodes(bare)
    out["untokenised"] = "accepted"
except adapter.RecordError as e:
    out["untokenised"] = str(e)
out["lenient_steps"] = [len(s.prompt_ids) for e in adapter.to_rllm_episodes(bare, require_tokens=False)
                        for t in e.trajectories for s in t.steps]
broken = os.path.join(scratch, "broken.jsonl")
with open(broken, "w", encoding="utf-8") as f:
    f.write(json.dumps({k: v for k, v in rows[0].items() if k != "_where"}) + "\n{oops\n")
try:
    adapter.read_records(broken)
except adapter.RecordError as e:
    out["broken"] = str(e)
mismatch = dict(rows[0], logprobs=[-0.1], _where="row 0")
try:
    adapter.to_slime_samples([mismatch])
except adapter.RecordError as e:
    out["mismatch"] = str(e)

# stand-ins with the real constructors' keyword names
os.makedirs(os.path.join(scratch, "rllm", "agents"), exist_ok=True)
os.makedirs(os.path.join(scratch, "slime", "utils"), exist_ok=True)
for d in ("rllm", "rllm/agents", "slime", "slime/utils"):
    open(os.path.join(scratch, d, "__init__.py"), "w").close()
with open(os.path.join(scratch, "rllm", "agents", "agent.py"), "w") as f:
    f.write('''
from dataclasses import dataclass, field
from typing import Any
@dataclass
class Step:
    prompt_ids: list = field(default_factory=list)
    response_ids: list = field(default_factory=list)
    logprobs: list = field(default_factory=list)
    routing_matrices: Any = None
    chat_completions: list = field(default_factory=list)
    observation: Any = None
    thought: str = ""
    action: Any = None
    model_response: str = ""
    model_output: Any = None
    info: dict = field(default_factory=dict)
    reward: float = 0.0
    done: bool = False
    mc_return: float = 0.0
    advantage: Any = None
    weight_version: Any = None
    def __post_init__(self):
        if len(self.logprobs) > 0:
            assert len(self.response_ids) == len(self.logprobs)
@dataclass
class Trajectory:
    uid: str = ""
    name: str = "default_traj_name"
    task: Any = None
    steps: list = field(default_factory=list)
    reward: Any = None
    info: dict = field(default_factory=dict)
@dataclass
class Episode:
    id: str = ""
    task: Any = None
    termination_reason: Any = None
    is_correct: bool = False
    trajectories: list = field(default_factory=list)
    metrics: dict = field(default_factory=dict)
    info: dict = field(default_factory=dict)
''')
with open(os.path.join(scratch, "slime", "utils", "types.py"), "w") as f:
    f.write('''
from dataclasses import dataclass, field
from enum import Enum
from typing import Any
@dataclass
class Sample:
    group_index: Any = None
    index: Any = None
    prompt: Any = ""
    tokens: list = field(default_factory=list)
    multimodal_inputs: Any = None
    multimodal_train_inputs: Any = None
    response: str = ""
    response_length: int = 0
    label: Any = None
    reward: Any = None
    loss_mask: Any = None
    weight_versions: list = field(default_factory=list)
    rollout_log_probs: Any = None
    rollout_routed_experts: Any = None
    remove_sample: bool = False
    teacher_log_probs: Any = None
    class Status(Enum):
        PENDING = "pending"
        COMPLETED = "completed"
    status: Status = Status.PENDING
    metadata: dict = field(default_factory=dict)
''')
sys.path.insert(0, scratch)
episode = adapter.to_rllm_episodes(rows)[0]
sample = adapter.to_slime_samples(rows)[0]
out["real"] = {"episode": type(episode).__module__ + "." + type(episode).__name__,
               "step": type(episode.trajectories[0].steps[0]).__module__,
               "sample": type(sample).__module__ + "." + type(sample).__name__,
               "status": sample.status.value if isinstance(sample.status, enum.Enum) else None,
               "plain_when_asked": type(adapter.to_rllm_episodes(rows, as_classes=False)[0]).__name__}
print(json.dumps(out))
