"""Task families: per-benchmark episode behaviour behind one hook interface.

A task's family is ``task.family`` (``family:`` in task.yaml; by default
:data:`DEFAULT_BY_BENCHMARK` of its benchmark, else ``mlebench``). It is either a
name registered in :data:`FAMILIES` or an import path ``package.module:Class``.
Family modules are imported only when an env is built, so ``import mle_gym``
stays light. See :mod:`mle_gym.families.base` for the contract and
``docs/families.md`` for a short guide.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from mle_gym.families.base import Episode, GradeLike, TaskFamily
from mle_gym.tasks import TaskError, TaskSpec

#: registered family names -> "module:Class"
FAMILIES: dict[str, str] = {
    "mlebench": "mle_gym.families.mlebench:MLEBenchFamily",
    "mlagentbench": "mle_gym.families.mlagentbench:MLAgentBenchFamily",
    "mlbench": "mle_gym.families.mlbench:MLBenchFamily",
}

#: the family of a task whose task.yaml has no ``family:`` key, by benchmark (lower case)
DEFAULT_BY_BENCHMARK: dict[str, str] = {
    "mlebench": "mlebench",
    "mlagentbench": "mlagentbench",
    "ml-bench": "mlbench",
    "mlbench": "mlbench",
}


def default_family(benchmark: str) -> str:
    """The family name used when task.yaml does not say."""
    return DEFAULT_BY_BENCHMARK.get(benchmark.lower(), "mlebench")


def family_class(name: str) -> type[TaskFamily]:
    """The class of family ``name`` (a registered name or ``module:Class``)."""
    target = FAMILIES.get(name, name)
    module_name, sep, attr = target.partition(":")
    if not sep:
        raise TaskError(
            f"unknown task family {name!r}; registered: {sorted(FAMILIES)} "
            f"(or give an import path 'package.module:Class')"
        )
    try:
        cls = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise TaskError(f"task family {name!r} cannot be loaded from {target}: {exc}") from exc
    if not (isinstance(cls, type) and issubclass(cls, TaskFamily)):
        raise TaskError(f"task family {name!r} ({target}) is not a TaskFamily subclass")
    return cls


def make_family(
    task: TaskSpec, options: Mapping[str, Any] | None = None, *, replica_seed: int = 0
) -> TaskFamily:
    """The family instance serving ``task`` (one per env)."""
    return family_class(task.family)(task, options, replica_seed=replica_seed)


__all__ = [
    "DEFAULT_BY_BENCHMARK",
    "FAMILIES",
    "Episode",
    "GradeLike",
    "TaskFamily",
    "default_family",
    "family_class",
    "make_family",
]
