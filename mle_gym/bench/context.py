"""The bench's configuration and the shared context every measurement group gets."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from mle_gym._deprecation import renamed_attribute
from mle_gym.bench.fixtures import BenchWorld

#: the bench's measurement groups, one module of :mod:`mle_gym.bench` each (``--only``); the
#: config field and JSON key that select them keep their first name, ``families``
GROUPS = ("file_tools", "execute", "python_tool", "reset", "episodes", "grading", "memory")


@dataclass(frozen=True)
class BenchConfig:
    """What to measure and how often (``tiny()``: the CI smoke run's sizes).

    repeats: rounds of the cheap measurements (file tools, execute, resets);
    slow_repeats: rounds of the slow ones (the python tool's cold runs, grading, the
    workspace volume);
    data_sizes_mb: task data sizes for the reset latency (the first is the reference);
    grading_rows: rows of the graded submission; parallel: env counts for the
    episode throughput, each env running ``episodes_per_env`` episodes per round
    over ``episode_rounds`` rounds; rss_envs: idle envs for the memory figure,
    measured ``rss_repeats`` times, each in a fresh process.
    """

    backends: tuple[str, ...] = ("local", "docker")
    families: tuple[str, ...] = GROUPS
    repeats: int = 30
    slow_repeats: int = 7
    data_sizes_mb: tuple[float, ...] = (1, 100, 1024)
    grading_rows: int = 1_000_000
    parallel: tuple[int, ...] = (1, 2, 4, 8)
    episodes_per_env: int = 2
    episode_rounds: int = 3
    episode_task: str | None = None
    rss_envs: int = 16
    rss_repeats: int = 3
    workdir: str | None = None

    @classmethod
    def tiny(cls, **overrides: Any) -> BenchConfig:
        """Small sizes and few repeats: every figure is produced, in about a minute a backend."""
        base: dict[str, Any] = {
            "repeats": 5,
            "slow_repeats": 3,
            "data_sizes_mb": (0.25, 0.5, 1),
            "grading_rows": 2000,
            "parallel": (1, 2),
            "episodes_per_env": 1,
            "episode_rounds": 2,
            "rss_envs": 2,
            "rss_repeats": 2,
        }
        base.update(overrides)
        return cls(**base)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        return {k: list(v) if isinstance(v, tuple) else v for k, v in d.items()}


@dataclass
class BenchContext:
    """The configuration, the bench world and its task env ids, and a progress logger."""

    config: BenchConfig
    world: BenchWorld
    small_env: str  # the reference bench task (the smallest data size)
    sized_envs: dict[int, str] = field(default_factory=dict)  # data bytes -> env id
    data_bytes: dict[str, int] = field(default_factory=dict)  # env id -> public bytes
    log: Callable[[str], None] = lambda message: print(message, file=sys.stderr, flush=True)

    def make_env(self, backend: str, env_id: str | None = None, **kwargs: Any) -> Any:
        """A bench env (replica data, the given sandbox backend, a step budget that never
        truncates a measurement)."""
        import gymnasium as gym

        kwargs.setdefault("max_episode_steps", 10**6)
        return gym.make(env_id or self.small_env, data="replica", sandbox=backend, **kwargs)

    @property
    def scratch(self) -> Path:
        return self.world.scratch


def __getattr__(name: str) -> Any:
    """``FAMILIES``: the deprecated former name of :data:`GROUPS`."""
    return renamed_attribute(__name__, name, {"FAMILIES": "GROUPS"}, globals())
