"""The configuration of an evaluation run: what every episode is, and which episodes.

A :class:`RunConfig` has two parts:

* the *settings* every episode shares (agent and its arguments, sandbox, data
  source, reward mode, grading, replica seed, step and time budgets), and
* the *plan*: the tasks (gymnasium env ids, sorted) and the seeds (sorted); the
  planned episodes are every (task, seed) pair.

It is stored in ``RUN_DIR/config.json``. How a run is executed
(:class:`ExecutionOptions`: backend, worker count, start method, hard episode
timeout, early stop, progress line, plots) is not part of it: those can change
between sessions of the same run without changing any result. They are stored
in config.json's ``execution`` section, so a resumed session runs as the
previous one did unless told otherwise; they are never compared.

``replica_seed`` (the replica variant, for tasks whose family has the
``replica_seed`` option): ``None`` (the family's default, variant 0), a
non-negative integer (every episode on that variant) or ``"per-seed"`` (the
episode of seed ``k`` on variant ``k``): see :func:`replica_variant`.

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
    "replica_seed",
    "max_steps",
    "time_budget_s",
)
#: the ``replica_seed`` setting that puts the episode of seed k on replica variant k
PER_SEED = "per-seed"
#: the top-level key of config.json holding the :class:`ExecutionOptions`
EXECUTION_KEY = "execution"


def parse_replica_seed(value: Any) -> int | str | None:
    """The ``replica_seed`` setting ``value`` stands for: None, a non-negative integer (also
    given as digits) or :data:`PER_SEED`; EvalConfigError for anything else."""
    if value is None or value == PER_SEED:
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    raise EvalConfigError(
        f"--replica-seed must be a non-negative integer or {PER_SEED}, got {value!r}"
    )


def replica_variant(setting: int | str | None, seed: int) -> int | None:
    """The replica variant the episode of ``seed`` runs on under the ``replica_seed``
    setting: None (the family's default), the setting's number, or ``seed`` itself
    for :data:`PER_SEED`."""
    parsed = parse_replica_seed(setting)
    if parsed == PER_SEED:
        return int(seed)
    return None if parsed is None else int(parsed)


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
    replica_seed: int | str | None = None  # see the module docstring
    max_steps: int | None = None
    time_budget_s: float | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "tasks", tuple(sorted(dict.fromkeys(self.tasks))))
        object.__setattr__(self, "seeds", tuple(sorted({int(s) for s in self.seeds})))
        object.__setattr__(self, "agent_args", dict(self.agent_args or {}))
        object.__setattr__(self, "replica_seed", parse_replica_seed(self.replica_seed))

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


#: the fields of :class:`ExecutionOptions`, in config.json's order
EXECUTION_NAMES = (
    "backend",
    "workers",
    "ray_address",
    "start_method",
    "episode_timeout_s",
    "max_consecutive_failures",
    "progress",
    "plots",
)


@dataclass(frozen=True)
class ExecutionOptions:
    """How the episodes of a run are executed (stored, never compared; module docstring).

    ``workers`` None is the backend's default (local: 1; Ray: the cluster's CPUs);
    ``episode_timeout_s`` None is no hard limit; ``max_consecutive_failures`` 0 never
    stops early (see :mod:`mle_gym.evaluation.failfast`).
    """

    backend: str = "local"
    workers: int | None = None
    ray_address: str | None = None
    start_method: str = "spawn"
    episode_timeout_s: float | None = None
    max_consecutive_failures: int = 3
    progress: bool = True
    plots: bool = True

    def to_json(self) -> dict[str, Any]:
        """The content of config.json's ``execution`` section."""
        return {name: getattr(self, name) for name in EXECUTION_NAMES}

    @classmethod
    def from_json(cls, data: Any) -> ExecutionOptions:
        """Parse an ``execution`` section (unknown keys are ignored; EvalConfigError if
        it is not an object)."""
        if not isinstance(data, dict):
            raise EvalConfigError(f"malformed evaluation config: {EXECUTION_KEY} is not an object")
        return cls(**{name: data[name] for name in EXECUTION_NAMES if name in data})


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in sorted(value.items())}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def load_config(run_dir: Path) -> RunConfig | None:
    """The stored config of ``run_dir``, or None when there is none."""
    data = load_config_json(run_dir)
    return None if data is None else RunConfig.from_json(data)


def load_config_json(run_dir: Path) -> dict[str, Any] | None:
    """The raw content of ``RUN_DIR/config.json``, or None when there is none (an
    EvalConfigError when it exists but is not a JSON object)."""
    path = layout.config_path(run_dir)
    if not path.exists():
        return None
    data = layout.read_json(path)
    if not isinstance(data, dict):
        raise EvalConfigError(f"{path} exists but is not readable JSON")
    return data


def load_execution(run_dir: Path) -> ExecutionOptions | None:
    """The stored execution options of ``run_dir`` (None: no run, or one stored before
    they were)."""
    data = load_config_json(run_dir)
    if data is None or EXECUTION_KEY not in data:
        return None
    return ExecutionOptions.from_json(data[EXECUTION_KEY])


def config_json(
    config: RunConfig,
    execution: ExecutionOptions | None = None,
    existing: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The content of config.json for ``config`` and ``execution`` (None: the stored one
    is kept); top-level sections of ``existing`` that neither stands for are kept."""
    managed = set(config.to_json()) | {EXECUTION_KEY}
    data = {k: v for k, v in (existing or {}).items() if k not in managed}
    data.update(config.to_json())
    if execution is not None:
        data[EXECUTION_KEY] = execution.to_json()
    elif existing and EXECUTION_KEY in existing:
        data[EXECUTION_KEY] = existing[EXECUTION_KEY]
    return data


def save_config(
    run_dir: Path, config: RunConfig, execution: ExecutionOptions | None = None
) -> None:
    """Write ``RUN_DIR/config.json`` atomically (see :func:`config_json`)."""
    existing = layout.read_json(layout.config_path(run_dir))
    content = config_json(config, execution, existing if isinstance(existing, dict) else None)
    layout.write_json_atomic(layout.config_path(run_dir), content)


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
