"""Tasks: a task is a folder, ``task_assets/<benchmark>/<task_id>/``; a family reads it.

The folder holds ``task.yaml`` and ``description.md`` (the task as the agent reads
it), plus whatever its family needs (``prepare.py``, ``grade.py``, ``starter/``...;
``docs/adding-a-task.md``). Nothing about a task is hard-coded elsewhere:
registration, ``mle-gym list`` and the tests discover tasks from these folders alone.

Discovery has two levels, so that ``import mle_gym`` loads no family:

* the **index** (:func:`task_index`): each folder's id, benchmark, version, family
  name and step budget, read from task.yaml without its family. Registration uses it.
* the **spec** (:func:`load_task`, :func:`get_task`, :func:`all_tasks`): the whole
  task.yaml, checked and parsed by the task's family (``TaskFamily.parse_task``) into
  a :class:`TaskSpec` — or the family's subclass of it, which adds the family's own
  fields (``MLEBenchTask.submission``...). A spec is built the first time it is asked
  for, so only the families of the tasks in use are imported.

This module knows no family by name: the family of a task is ``family:`` in its
task.yaml or its benchmark's default (:mod:`mle_gym.families`).
"""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from mle_gym import paths
from mle_gym._deprecation import moved_names
from mle_gym.families import default_family
from mle_gym.spec import Limits, TaskError, TaskNames, TaskSpec

__all__ = [
    "Limits",
    "TaskEntry",
    "TaskError",
    "TaskSpec",
    "all_tasks",
    "evaluation_set",
    "get_task",
    "load_task",
    "task_errors",
    "task_index",
]

log = logging.getLogger(__name__)


# libyaml's safe loader when PyYAML was built with it (every task.yaml is read at
# import to register the env ids: ~10x faster than the pure-Python loader).
_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_task_yaml(folder: Path) -> dict[str, Any]:
    """``folder/task.yaml`` as a mapping; raise :class:`TaskError` if it is not one."""
    where = folder / "task.yaml"
    try:
        raw = yaml.load(where.read_text(encoding="utf-8"), Loader=_YAML_LOADER)
    except FileNotFoundError as exc:
        raise TaskError(f"{folder}: no task.yaml") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise TaskError(f"{where}: cannot be read: {exc}") from exc
    except yaml.YAMLError as exc:
        raise TaskError(f"{where}: not valid YAML: {exc}") from exc
    if not isinstance(raw, dict):
        raise TaskError(f"{where}: expected a mapping at top level")
    return raw


def family_name(raw: dict[str, Any], where: Path) -> str:
    """``family:`` of a task.yaml, or the default family of its benchmark."""
    family = raw.get("family") or default_family(str(raw.get("benchmark") or ""))
    if not isinstance(family, str):
        raise TaskError(f"{where}: family must be a string, got {family!r}")
    return family


# -- the index: what registration needs, without any family ---------------------------------


@dataclass(frozen=True)
class TaskEntry(TaskNames):
    """A task folder as the index has it (task.yaml read, not yet checked by its family)."""

    folder: Path
    id: str
    benchmark: str
    version: int
    family: str
    max_steps: int


def _entry(folder: Path) -> TaskEntry:
    """The index entry of ``folder``; TaskError if task.yaml lacks what ids are made of."""
    where = folder / "task.yaml"
    raw = read_task_yaml(folder)
    task_id, benchmark, version = raw.get("id"), raw.get("benchmark"), raw.get("version", 0)
    if not isinstance(task_id, str) or not task_id:
        raise TaskError(f"{where}: missing required field 'id'")
    if not isinstance(benchmark, str) or not benchmark:
        raise TaskError(f"{where}: missing required field 'benchmark'")
    if isinstance(version, bool) or not isinstance(version, int):
        raise TaskError(f"{where}: version: must be an integer (got {version!r})")
    if folder.name != task_id:
        raise TaskError(f"{where}: id '{task_id}' differs from folder name '{folder.name}'")
    limits = raw.get("limits")
    steps = limits.get("max_steps", Limits.max_steps) if isinstance(limits, dict) else None
    ok_steps = isinstance(steps, int) and not isinstance(steps, bool) and steps > 0
    return TaskEntry(
        folder=folder,
        id=task_id,
        benchmark=benchmark,
        version=version,
        family=family_name(raw, where),
        # a bad value is the family's to report when the task is loaded
        max_steps=steps if ok_steps else Limits.max_steps,  # type: ignore[arg-type]
    )


@functools.lru_cache(maxsize=4)
def _index(dirs: tuple[Path, ...]) -> tuple[dict[str, TaskEntry], tuple[str, ...]]:
    found: dict[str, TaskEntry] = {}
    errors: list[str] = []
    for root in dirs:
        if not root.is_dir():
            continue
        for yaml_path in sorted(root.glob("*/*/task.yaml")):
            try:
                entry = _entry(yaml_path.parent)
            except TaskError as exc:
                errors.append(str(exc))
                continue
            if entry.key in found:
                errors.append(
                    f"task {entry.key} defined twice: {found[entry.key].folder} and {entry.folder}"
                )
                continue
            found[entry.key] = entry
    return found, tuple(errors)


def task_index() -> dict[str, TaskEntry]:
    """Every task folder in :func:`mle_gym.paths.task_assets_dirs` whose task.yaml names
    an id, benchmark and version, keyed by ``key``; no family is imported."""
    return dict(_index(tuple(paths.task_assets_dirs()))[0])


# -- specs: a task.yaml checked and parsed by its family ------------------------------------


def load_task(folder: Path) -> TaskSpec:
    """Parse ``folder/task.yaml`` with its family; raise :class:`TaskError` with the field
    at fault (``docs/task.schema.json`` publishes every family's schema)."""
    from mle_gym.families import family_class

    where = folder / "task.yaml"
    raw = read_task_yaml(folder)
    if not (folder / "description.md").is_file():
        raise TaskError(f"{folder}: no description.md")
    family = family_name(raw, where)
    spec = family_class(family).parse_task(folder, raw, family=family)
    if folder.name != spec.id:
        raise TaskError(f"{where}: id '{spec.id}' differs from folder name '{folder.name}'")
    return spec


@functools.cache
def _spec(folder: Path) -> TaskSpec | TaskError:
    try:
        return load_task(folder)
    except TaskError as exc:
        return exc


def _clear_caches() -> None:
    """Forget what was read (tests that edit task folders in place call this)."""
    _index.cache_clear()
    _spec.cache_clear()


def _specs() -> tuple[dict[str, TaskSpec], list[str]]:
    index, errors = _index(tuple(paths.task_assets_dirs()))
    specs: dict[str, TaskSpec] = {}
    problems = list(errors)
    for key, entry in index.items():
        spec = _spec(entry.folder)
        if isinstance(spec, TaskError):
            problems.append(str(spec))
        else:
            specs[key] = spec
    return specs, problems


def all_tasks() -> dict[str, TaskSpec]:
    """Every valid task in :func:`mle_gym.paths.task_assets_dirs`, keyed by ``spec.key``.

    Invalid folders are skipped (logged, and listed by :func:`task_errors`), so one
    broken task folder cannot make the whole library unusable.
    """
    specs, problems = _specs()
    if problems:
        log.warning(
            "%d invalid task folder(s) skipped (`mle-gym list` says why), e.g. %s",
            len(problems),
            problems[0],
        )
    return specs


def task_errors() -> list[str]:
    """Why each invalid task folder was skipped (empty when all are valid)."""
    return _specs()[1]


def _entry_named(name: str) -> TaskEntry:
    index = task_index()
    name = name.split(":", 1)[-1]
    for entry in index.values():
        if name in (entry.env_id, entry.key) or name.lower() == entry.key.lower():
            return entry
    matches = [e for e in index.values() if e.id == name]
    if len(matches) == 1:
        return matches[0]
    # A bare id keeps naming the default family's task when another benchmark reuses it
    # (MLAgentBench/spaceship-titanic needs its prefix, MLE-bench's does not).
    preferred = [e for e in matches if e.family == default_family("")]
    if len(preferred) == 1:
        return preferred[0]
    if len(matches) > 1:
        options = ", ".join(e.env_id for e in matches)
        raise TaskError(f"task id '{name}' is ambiguous; use one of: {options}")
    raise TaskError(f"unknown task '{name}'; `mle-gym list` shows the available tasks")


def get_task(name: str) -> TaskSpec:
    """Find a task by env id (``MLEBench/x-v0``), key (``mlebench/x``) or bare id (``x``).

    A bare id must be unambiguous across benchmarks, except that it names the task of
    the default family (:func:`mle_gym.families.default_family`) when one of the tasks
    sharing it is that family's. Only this task's family is
    imported; a folder its family rejects raises :class:`TaskError` saying why.
    """
    spec = _spec(_entry_named(name).folder)
    if isinstance(spec, TaskError):
        raise spec
    return spec


SPLIT_ALIASES = {"lite": "low"}


def evaluation_set(
    split: str | None = None, benchmark: str | None = None, *, include_leaky: bool = False
) -> list[TaskSpec]:
    """Tasks of an evaluation set, sorted by env id.

    ``split`` filters by split (``lite`` is MLE-bench's name for ``low``); ``benchmark``
    by benchmark name (case-insensitive). Tasks with known test-label leakage are left
    out unless ``include_leaky`` — the default evaluation sets never contain them.
    """
    wanted = SPLIT_ALIASES.get(split, split) if split else None
    out = []
    for spec in all_tasks().values():
        if benchmark and spec.benchmark.lower() != benchmark.lower():
            continue
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
