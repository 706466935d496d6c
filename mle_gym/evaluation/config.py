"""The configuration of an evaluation run: what every episode is, and which episodes.

A :class:`RunConfig` has two parts:

* the *settings* every episode shares (agent and its arguments, sandbox, data
  source, reward mode, step and time budgets), and
* the *plan*: the tasks (gymnasium env ids, sorted) and the seeds (sorted); the
  planned episodes are every (task, seed) pair.

It is stored in ``RUN_DIR/config.json``. How a run is executed (worker count,
local or Ray backend) is not part of it: those can change between sessions of
the same run without changing any result.

Resuming (:func:`merge_for_resume`): the settings must be identical, and the
new plan must contain every episode of the stored plan (it may add tasks or
seeds). Anything else is an :class:`EvalConfigError` naming each difference.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mle_gym.evaluation import layout
from mle_gym.evaluation.errors import EvalConfigError

CONFIG_FORMAT = "mle_gym.eval.config/1"
SETTING_NAMES = (
    "agent",
    "agent_args",
    "sandbox",
    "data",
    "reward_mode",
    "grading",
    "max_steps",
    "time_budget_s",
)


@dataclass(frozen=True)
class RunConfig:
    """Settings shared by every episode, and the plan (tasks x seeds)."""

    tasks: tuple[str, ...]
    seeds: tuple[int, ...]
    agent: str = "scripted"
    agent_args: dict[str, Any] = field(default_factory=dict)
    sandbox: str = "local"
    data: str = "auto"
    reward_mode: str = "auto"
    grading: str | None = None  # MLE-bench tasks' grading (None: their default, mlebench)
    max_steps: int | None = None
    time_budget_s: float | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "tasks", tuple(sorted(dict.fromkeys(self.tasks))))
        object.__setattr__(self, "seeds", tuple(sorted({int(s) for s in self.seeds})))
        object.__setattr__(self, "agent_args", dict(self.agent_args or {}))

    def settings(self) -> dict[str, Any]:
        """The per-episode settings as a JSON-ready dict (keys: :data:`SETTING_NAMES`)."""
        return {name: _plain(getattr(self, name)) for name in SETTING_NAMES}

    def episodes(self) -> list[tuple[str, int]]:
        """Planned (env id, seed) pairs, seed-major: every task of seed 0 first."""
        return [(task, seed) for seed, task in itertools.product(self.seeds, self.tasks)]

    def to_json(self) -> dict[str, Any]:
        """The content of ``config.json``."""
        return {
            "format": CONFIG_FORMAT,
            "tasks": list(self.tasks),
            "seeds": list(self.seeds),
            **self.settings(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RunConfig:
        """Parse ``config.json`` content (raises EvalConfigError if malformed)."""
        if not isinstance(data, dict) or data.get("format") != CONFIG_FORMAT:
            raise EvalConfigError(f"not an mle_gym evaluation config (format {CONFIG_FORMAT})")
        try:
            return cls(
                tasks=tuple(str(t) for t in data["tasks"]),
                seeds=tuple(int(s) for s in data["seeds"]),
                **{name: data[name] for name in SETTING_NAMES if name in data},
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise EvalConfigError(f"malformed evaluation config: {exc}") from exc


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in sorted(value.items())}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def load_config(run_dir: Path) -> RunConfig | None:
    """The stored config of ``run_dir``, or None when there is none."""
    path = layout.config_path(run_dir)
    if not path.exists():
        return None
    data = layout.read_json(path)
    if data is None:
        raise EvalConfigError(f"{path} exists but is not readable JSON")
    return RunConfig.from_json(data)


def save_config(run_dir: Path, config: RunConfig) -> None:
    """Write ``RUN_DIR/config.json`` atomically."""
    layout.write_json_atomic(layout.config_path(run_dir), config.to_json())


def setting_differences(stored: RunConfig, new: RunConfig) -> list[str]:
    """One line per setting that differs, e.g. ``agent: stored 'scripted', now 'random'``."""
    old, cur = stored.settings(), new.settings()
    return [
        f"{name}: stored {old[name]!r}, now {cur[name]!r}"
        for name in SETTING_NAMES
        if old[name] != cur[name]
    ]


def merge_for_resume(stored: RunConfig, new: RunConfig) -> RunConfig:
    """The config to continue ``stored`` with ``new``; see the module docstring."""
    problems = setting_differences(stored, new)
    missing = sorted(set(stored.episodes()) - set(new.episodes()))
    if missing:
        lost_tasks = sorted(set(stored.tasks) - set(new.tasks))
        lost_seeds = sorted(set(stored.seeds) - set(new.seeds))
        detail = []
        if lost_tasks:
            detail.append(f"tasks {', '.join(lost_tasks)}")
        if lost_seeds:
            detail.append(f"seeds {', '.join(map(str, lost_seeds))}")
        problems.append(
            f"plan: the new plan leaves out {len(missing)} planned episode(s) "
            f"({'; '.join(detail)}); a resumed plan may only add tasks or seeds"
        )
    if problems:
        raise EvalConfigError(
            "the run directory holds a run with a different configuration:\n  "
            + "\n  ".join(problems)
            + "\nuse another --out, or repeat the stored settings (omitted options are taken "
            "from config.json when resuming)"
        )
    return new
