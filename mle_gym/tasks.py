"""Tasks: a task is a folder, ``task_assets/<benchmark>/<task_id>/``; a family reads it.

The folder holds ``task.yaml`` and ``description.md`` (the task as the agent reads
it), plus whatever its family needs (``prepare.py``, ``grade.py``, ``starter/``...;
``docs/adding-a-task.md``). Nothing about a task is hard-coded elsewhere:
registration, ``mle-gym list`` and the tests discover tasks from these folders alone.

Discovery has two levels, so that ``import mle_gym`` loads no family:

* the **index** (:mod:`mle_gym.task_folders`, :func:`task_index`): each folder's id,
  benchmark, version, family name and step budget, read from task.yaml without its
  family. Registration uses it.
* the **spec** (:func:`load_task`, :func:`get_task`, :func:`all_tasks`): the whole
  task.yaml, checked and parsed by the task's family (``TaskFamily.parse_task``) into
  a :class:`TaskSpec` — or the family's subclass of it, which adds the family's own
  fields (``MLEBenchTask.submission``...). A spec is built the first time it is asked
  for, so only the families of the tasks in use are imported.

This module knows no family by name: the family of a task is ``family:`` in its
task.yaml or its benchmark's default (:mod:`mle_gym.families`).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from mle_gym import task_folders
from mle_gym._deprecation import moved_names
from mle_gym.families import PREFERRED_BENCHMARK, default_family
from mle_gym.task_folders import TaskEntry, find_entry, index_errors, read_task_yaml, task_index
from mle_gym.task_spec import Limits, TaskError, TaskSpec

__all__ = [
    "SPLITS",
    "SPLIT_ALIASES",
    "Limits",
    "TaskEntry",
    "TaskError",
    "TaskSpec",
    "all_tasks",
    "benchmark_names",
    "canonical_benchmark",
    "canonical_split",
    "clear_caches",
    "evaluation_set",
    "get_task",
    "get_task_noting",
    "load_task",
    "read_task_yaml",
    "task_errors",
    "task_index",
]

log = logging.getLogger(__name__)


def family_name(raw: dict[str, Any], where: Path) -> str:
    """``family:`` of a task.yaml, or the default family of its benchmark."""
    family = raw.get("family") or default_family(str(raw.get("benchmark") or ""))
    if not isinstance(family, str):
        raise TaskError(f"{where}: family must be a string, got {family!r}")
    return family


# -- specs: a task.yaml checked and parsed by its family ------------------------------------


def load_task(folder: Path) -> TaskSpec:
    """Parse ``folder/task.yaml`` with its family; raise :class:`TaskError` with the field
    at fault (``docs/task.schema.json`` publishes every family's schema). A family whose
    parser fails in any other way is reported as a TaskError too, so that one broken
    folder cannot make the catalog unusable."""
    from mle_gym.families import family_class

    where = folder / "task.yaml"
    raw = read_task_yaml(folder)
    if not (folder / "description.md").is_file():
        raise TaskError(f"{folder}: no description.md")
    family = family_name(raw, where)
    cls = family_class(family)
    try:
        spec = cls.parse_task(folder, raw, family=family)
    except TaskError:
        raise
    except Exception as exc:
        log.debug("the %s family failed on %s", family, where, exc_info=True)
        raise TaskError(
            f"{where}: the {family} family could not read it ({type(exc).__name__}: {exc})"
        ) from exc
    if folder.name != spec.id:
        raise TaskError(f"{where}: id '{spec.id}' differs from folder name '{folder.name}'")
    return spec


_WARNED: set[tuple[str, ...]] = set()


def clear_caches() -> None:
    """Forget every task.yaml read so far: the index and the parsed specs (for code that
    edits task folders in place)."""
    task_folders.clear()


def _specs(keys: list[str] | None = None) -> tuple[dict[str, TaskSpec], list[str]]:
    specs: dict[str, TaskSpec] = {}
    problems = index_errors() if keys is None else []
    for key in task_index() if keys is None else keys:
        spec, errors = task_folders.resolve(key)
        problems += errors
        if spec is not None:
            specs[key] = spec
    return specs, problems


def all_tasks() -> dict[str, TaskSpec]:
    """Every valid task in :func:`mle_gym.paths.task_assets_dirs`, keyed by ``spec.key``.

    Invalid folders are skipped (logged once, and listed by :func:`task_errors`), so one
    broken task folder cannot make the whole library unusable.
    """
    specs, problems = _specs()
    if problems and tuple(problems) not in _WARNED:
        _WARNED.add(tuple(problems))
        log.warning(
            "%d invalid task folder(s) skipped (`mle-gym list` says why), e.g. %s",
            len(problems),
            problems[0],
        )
    return specs


def task_errors() -> list[str]:
    """Why each invalid task folder was skipped (empty when all are valid)."""
    return _specs()[1]


def get_task(name: str) -> TaskSpec:
    """Find a task by env id (``MLEBench/x-v0``), key (``mlebench/x``) or bare id (``x``).

    A bare id must be unambiguous across benchmarks, except that it names the task of
    :data:`mle_gym.families.PREFERRED_BENCHMARK` when one of the tasks sharing it is that
    benchmark's. Only this task's family is imported; a folder its family rejects raises
    :class:`TaskError` saying why.
    """
    preferred = PREFERRED_BENCHMARK.lower()
    entry = find_entry(name, prefer=lambda e: e.benchmark.lower() == preferred)
    spec, problems = task_folders.resolve(entry.key)
    if spec is None:
        raise TaskError(problems[0] if problems else f"unknown task '{name}'")
    return spec


def get_task_noting(name: str) -> tuple[TaskSpec, str | None]:
    """The task ``name`` designates (as :func:`get_task`) and, when ``name`` is a bare id
    that tasks of other benchmarks share, a note saying which one it was taken to be and
    how to name the others (None otherwise): what a command line tells its user."""
    spec = get_task(name)
    if "/" in name.split(":", 1)[-1]:
        return spec, None
    others = sorted(
        e.env_id for e in task_index().values() if e.id == spec.id and e.env_id != spec.env_id
    )
    if not others:
        return spec, None
    return spec, (
        f"{name} is {spec.env_id}; {', '.join(others)} "
        f"{'has' if len(others) == 1 else 'have'} the same id (name it by its env id)"
    )


# the index builds specs with the family-aware loader (families sit above the index)
task_folders.use_parser(load_task)

SPLIT_ALIASES = {"lite": "low"}
#: MLE-bench's splits (its complexity levels and the dev set); task folders may add others
SPLITS = ("low", "medium", "high", "dev")


def _folded(name: str) -> str:
    """``name`` as benchmark names are compared: case-insensitive, ``-``, ``_`` and spaces
    ignored (``MLE-bench``, ``MLEBench`` and ``mlebench`` are one name)."""
    return "".join(c for c in name.casefold() if c not in "-_ ")


def benchmark_names() -> list[str]:
    """The benchmark names of the tasks (as their task.yaml spells them), sorted."""
    return sorted({entry.benchmark for entry in task_index().values()})


def canonical_benchmark(name: str) -> str:
    """The benchmark ``name`` designates, as task.yaml spells it: any spelling equal but for
    case, hyphens, underscores and spaces (``MLE-bench`` -> ``MLEBench``, ``ML-Bench`` ->
    ``MLBench``). ValueError naming the valid ones for any other name."""
    found = [b for b in benchmark_names() if _folded(b) == _folded(name)]
    if found:
        return found[0]
    raise ValueError(
        f"unknown benchmark {name!r}; choose one of {', '.join(benchmark_names())} "
        "(case and hyphens do not matter: MLE-bench, ML-Bench also work)"
    )


def canonical_split(name: str) -> str:
    """The split ``name`` designates (``lite`` is ``low``; case-insensitive): one of
    :data:`SPLITS` or a split some task declares. ValueError naming the valid ones
    otherwise."""
    wanted = name.strip().lower()
    wanted = SPLIT_ALIASES.get(wanted, wanted)
    if wanted in SPLITS:
        return wanted
    declared = {s.split for s in all_tasks().values() if s.split}
    if wanted in declared:
        return wanted
    others = sorted(declared - set(SPLITS))
    choices = ["lite (= low)", *SPLITS[1:], *others]
    raise ValueError(f"unknown split {name!r}; choose one of {', '.join(choices)}")


def evaluation_set(
    split: str | None = None, benchmark: str | None = None, *, include_leaky: bool = False
) -> list[TaskSpec]:
    """Tasks of an evaluation set, sorted by env id.

    ``split`` filters by split (``lite`` is MLE-bench's name for ``low``; see
    :func:`canonical_split`); ``benchmark`` by benchmark name (any spelling
    :func:`canonical_benchmark` takes). An unknown split or benchmark is a ValueError
    naming the valid ones. Tasks with known test-label leakage are left out unless
    ``include_leaky`` — the default evaluation sets never contain them.
    """
    bench = canonical_benchmark(benchmark) if benchmark else None
    keys = [  # by the index first: other benchmarks' families are never loaded
        key for key, entry in task_index().items() if bench is None or entry.benchmark == bench
    ]
    specs = list(_specs(keys)[0].values())
    wanted = canonical_split(split) if split else None
    out = []
    for spec in specs:
        if wanted and (spec.split or "") != wanted:
            continue
        if spec.leaky and not include_leaky:
            continue
        out.append(spec)
    return sorted(out, key=lambda s: s.env_id)


# names that moved out of this module: the CSV submission spec, MLE-bench's leaderboard
__getattr__ = moved_names(
    __name__,
    {
        "SubmissionSpec": "mle_gym.grading.submission:SubmissionSpec",
        "TARGET_KINDS": "mle_gym.grading.submission:TARGET_KINDS",
        "Leaderboard": "mle_gym.families.mlebench.task:Leaderboard",
        "GRADER_KINDS": "mle_gym.families.mlebench.task:GRADER_KINDS",
    },
)
