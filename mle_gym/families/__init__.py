"""Task families: per-benchmark episode behaviour behind one hook interface.

Each family is a package with the same layout (``docs/families.md``)::

    families/<name>/
      family.py    the TaskFamily subclass (the hooks of mle_gym.families.base)
      task.py      the family's task.yaml model and TaskSpec subclass
      options.py   its options: the gym.make keywords beyond the env's own
      prepare.py   preparing and resolving its data
      grading.py   grading an episode
      prompts.py   the text the agent reads
      policy.py    the scripted reference policy

A task's family is ``task.family`` (``family:`` in task.yaml; by default
:data:`DEFAULT_BY_BENCHMARK` of its benchmark, else ``mlebench``). It is either a
name registered in :data:`FAMILIES` or an import path ``package.module:Class``.
This registry names the built-in families by import path only: a family module is
imported when one of its tasks is first loaded, so ``import mle_gym`` loads none.
See :mod:`mle_gym.families.base` for the contract.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from mle_gym._lazy import lazy_attributes

if TYPE_CHECKING:
    from mle_gym.families.base import Episode, GradeLike, TaskFamily
    from mle_gym.task_spec import TaskSpec

#: registered family names -> "module:Class"
FAMILIES: dict[str, str] = {
    "mlebench": "mle_gym.families.mlebench.family:MLEBenchFamily",
    "mlagentbench": "mle_gym.families.mlagentbench.family:MLAgentBenchFamily",
    "mlbench": "mle_gym.families.mlbench.family:MLBenchFamily",
}

#: the family of a task whose task.yaml has no ``family:`` key, by benchmark (lower case)
DEFAULT_BY_BENCHMARK: dict[str, str] = {
    "mlebench": "mlebench",
    "mlagentbench": "mlagentbench",
    "ml-bench": "mlbench",
    "mlbench": "mlbench",
}


#: the benchmark whose task a bare task id names when several benchmarks have that id
#: (``spaceship-titanic`` is MLE-bench's; MLAgentBench's needs its prefix)
PREFERRED_BENCHMARK = "MLEBench"


def default_family(benchmark: str) -> str:
    """The family name used when task.yaml does not say."""
    return DEFAULT_BY_BENCHMARK.get(benchmark.lower(), "mlebench")


def family_class(name: str) -> type[TaskFamily]:
    """The class of family ``name`` (a registered name or ``module:Class``)."""
    from mle_gym.families.base import TaskFamily
    from mle_gym.task_spec import TaskError

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
    task: TaskSpec, options: Mapping[str, Any] | None = None, *, replica_seed: int | None = None
) -> TaskFamily:
    """The family instance serving ``task`` (one per env); ``options`` are the family's
    options (its ``gym.make`` keywords), checked by the family. (``replica_seed=``: the
    former keyword; pass it in ``options``.)"""
    cls = family_class(task.family)
    if replica_seed is None:
        return cls(task, options)
    from mle_gym._deprecation import warn_deprecated

    warn_deprecated(
        "make_family(..., replica_seed=...) is deprecated: pass it in options (the family's "
        "replica_seed option); the old name will be removed in the next release",
        2,
    )
    merged = dict(options or {})
    if "replica_seed" in cls.option_names():
        merged.setdefault("replica_seed", replica_seed)
    return cls(task, merged)


def family_options_of(
    task: TaskSpec,
    keywords: Mapping[str, Any],
    mapping: Mapping[str, Any] | None,
    env_parameters: list[str],
) -> dict[str, Any]:
    """The options of ``task``'s family from an env's keyword arguments beyond its own
    (``keywords``) and its ``family_options`` (``mapping``).

    A keyword the family does not take is a TypeError naming it, the keyword(s) it most
    likely stands for (``data_sorce`` -> ``data``; :func:`mle_gym.arg_checks.did_you_mean`
    over the env's and the family's keywords) and what the env (``env_parameters``) and the
    family take — a misspelt ``sandbox=`` must not read as a family option —, except
    ``replica_seed`` (the env's former keyword, which families without replicas ignored):
    ignored with a DeprecationWarning. An option given both ways is a ValueError. Values
    are the family's to check.
    """
    from mle_gym._deprecation import warn_deprecated
    from mle_gym.arg_checks import suggestions

    known = family_class(task.family).option_names()
    keywords = dict(keywords)
    if "replica_seed" in keywords and "replica_seed" not in known:
        warn_deprecated(
            f"replica_seed is not an option of the {task.family} family of {task.env_id}; "
            "it is ignored (an error in the next release)",
            3,
        )
        del keywords["replica_seed"]
    unknown = sorted(set(keywords) - set(known))
    if unknown:
        hints = suggestions(unknown, [*env_parameters, *known])
        raise TypeError(
            f"{task.env_id}: unexpected keyword argument(s) {unknown}{hints}; the env takes "
            f"{', '.join(env_parameters)}, and its family ({task.family}) "
            + (f"takes {', '.join(known)}" if known else "takes no options")
        )
    given = dict(mapping or {})
    twice = sorted(set(given) & set(keywords))
    if twice:
        raise ValueError(f"options given both as keywords and in family_options: {twice}")
    return {**given, **keywords}


# the contract's names (mle_gym.families.base), imported on first use
__getattr__ = lazy_attributes(
    __name__, {name: "base" for name in ("Episode", "GradeLike", "TaskFamily")}
)


__all__ = [
    "DEFAULT_BY_BENCHMARK",
    "FAMILIES",
    "PREFERRED_BENCHMARK",
    "Episode",
    "GradeLike",
    "TaskFamily",
    "default_family",
    "family_class",
    "family_options_of",
    "make_family",
]
