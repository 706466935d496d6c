"""A random agent: harmless random tool calls, sometimes a sample-based submission.

It is the floor every learned policy must beat, and a smoke test of the env.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mle_gym.agents.base import Agent

_COMMANDS = ("ls -la", "head -n 3 data/train.csv", "python -c 'print(1 + 1)'", "wc -l data/*.csv")


class RandomAgent(Agent):
    """Chooses uniformly among a few harmless calls; submits with small probability."""

    name = "random"

    def __init__(self, seed: int | None = None, submit_prob: float = 0.1) -> None:
        self.rng = np.random.default_rng(seed)
        self.submit_prob = submit_prob
        self.sample_file = "data/sample_submission.csv"
        self.submission_file = "submission.csv"

    def reset(self, task_info: dict[str, Any]) -> None:
        task = task_info.get("task")
        # tasks with a CSV submission and a sample of it (MLE-bench's) name both; others
        # get the defaults (never the previous task's)
        sample = getattr(task, "sample_submission_file", None)
        submission = getattr(task, "submission", None)
        self.sample_file = f"data/{sample}" if sample else "data/sample_submission.csv"
        self.submission_file = submission.file if submission is not None else "submission.csv"

    def act(self, observation: str, info: dict[str, Any]) -> Any:
        if self.rng.random() < self.submit_prob:
            return {"tool": "submit", "args": {}}
        choice = int(self.rng.integers(0, 5))
        if choice == 0:
            return {"tool": "list_files", "args": {"path": "."}}
        if choice == 1:
            return {"tool": "read_file", "args": {"path": self.sample_file, "end_line": 5}}
        if choice == 2:
            cmd = _COMMANDS[int(self.rng.integers(0, len(_COMMANDS)))]
            return {"tool": "execute", "args": {"command": cmd}}
        if choice == 3:
            return {
                "tool": "execute",
                "args": {"command": f"cp {self.sample_file} {self.submission_file}"},
            }
        return {"tool": "validate_submission", "args": {}}
