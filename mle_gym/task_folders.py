"""The task index: every task folder's names, read from its task.yaml without its family.

A task is a folder, ``<task root>/<benchmark>/<task_id>/``, in the task roots of
:func:`mle_gym.paths.task_assets_dirs`. The index reads each folder's task.yaml for its
id, benchmark, version, ``family:`` and step budget only (what registering a gym id
needs): nothing is checked beyond these, no family is imported, and :mod:`mle_gym.tasks`
has the task's family parse the whole file when the task is first used.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import yaml

from mle_gym import paths
from mle_gym.task_spec import Limits, TaskError, TaskNames, TaskSpec, load_folder_module

__all__ = [
    "TaskEntry",
    "candidates",
    "clear",
    "find_entry",
    "index_errors",
    "read_task_yaml",
    "resolve",
    "similar_names",
    "spec_of",
    "task_folder_module",
    "task_index",
    "use_parser",
    "whole_number",
]


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


@dataclass(frozen=True)
class TaskEntry(TaskNames):
    """A task folder as the index has it (task.yaml read, not yet checked by its family)."""

    folder: Path
    id: str
    benchmark: str
    version: int
    family: str | None  # ``family:`` as task.yaml writes it (None: the benchmark's default)
    max_steps: int


def whole_number(value: Any) -> int | None:
    """``value`` as task.yaml's checker reads a whole number (an int, or a string of
    digits), or None if it is not one."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("+-").isdigit():
        return int(value.strip())
    return None


def _entry(folder: Path) -> TaskEntry:
    """The index entry of ``folder``; TaskError if task.yaml lacks what ids are made of."""
    where = folder / "task.yaml"
    raw = read_task_yaml(folder)
    task_id, benchmark = raw.get("id"), raw.get("benchmark")
    version = whole_number(raw.get("version", 0))
    if not isinstance(task_id, str) or not task_id:
        raise TaskError(f"{where}: missing required field 'id'")
    if not isinstance(benchmark, str) or not benchmark:
        raise TaskError(f"{where}: missing required field 'benchmark'")
    if version is None:
        raise TaskError(f"{where}: version: must be an integer (got {raw.get('version')!r})")
    if folder.name != task_id:
        raise TaskError(f"{where}: id '{task_id}' differs from folder name '{folder.name}'")
    family = raw.get("family") or None
    if family is not None and not isinstance(family, str):
        raise TaskError(f"{where}: family must be a string, got {family!r}")
    limits = raw.get("limits")
    steps = (
        whole_number(limits.get("max_steps", Limits.max_steps))
        if isinstance(limits, dict)
        else None
    )
    return TaskEntry(
        folder=folder,
        id=task_id,
        benchmark=benchmark,
        version=version,
        family=family,
        # a bad value is the family's to report when the task is loaded
        max_steps=steps if steps is not None and steps > 0 else Limits.max_steps,
    )


Index = tuple[dict[str, tuple[TaskEntry, ...]], tuple[str, ...]]


@functools.lru_cache(maxsize=4)
def _index(dirs: tuple[Path, ...]) -> Index:
    found: dict[str, list[TaskEntry]] = {}
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
            found.setdefault(entry.key, []).append(entry)
    return {key: tuple(entries) for key, entries in found.items()}, tuple(errors)


def _current() -> Index:
    return _index(tuple(paths.task_assets_dirs()))


def task_index() -> dict[str, TaskEntry]:
    """Every task folder in :func:`mle_gym.paths.task_assets_dirs` whose task.yaml names
    an id, benchmark and version, keyed by ``key``; no family is imported. Where task
    roots hold the same task twice, the first root's folder is the entry
    (:func:`candidates` lists them all)."""
    return {key: entries[0] for key, entries in _current()[0].items()}


def candidates(key: str) -> tuple[TaskEntry, ...]:
    """Every folder of the task ``key``, in the order of the task roots (usually one)."""
    return _current()[0].get(key, ())


def clear() -> None:
    """Forget what was read: the index and the parsed specs."""
    _index.cache_clear()
    with _LOCK:
        _SPECS.clear()


# -- specs: each folder parsed once, by the parser mle_gym.tasks puts in ---------------------

#: builds a folder's spec, raising TaskError (``mle_gym.tasks.load_task``: the folder's family
#: parses it; the catalog sits above the families, this index below them)
Parser = Callable[[Path], TaskSpec]
_PARSER: list[Parser] = []
# parsed specs by (task roots, folder); parsing happens under the lock, so every thread
# gets the same spec object of a task
_SPECS: dict[tuple[tuple[Path, ...], Path], TaskSpec | TaskError] = {}
_LOCK = threading.RLock()


def use_parser(parse: Parser) -> None:
    """Set how :func:`spec_of` builds a folder's spec (``mle_gym.tasks`` does, at import)."""
    _PARSER[:] = [parse]


def spec_of(folder: Path) -> TaskSpec | TaskError:
    """``folder``'s spec, or the TaskError saying why it has none; parsed once per set of
    task roots (until :func:`clear`)."""
    if not _PARSER:  # `import mle_gym` imports mle_gym.tasks, which puts it in
        raise RuntimeError("no task parser: import mle_gym first")
    key = (tuple(paths.task_assets_dirs()), folder)
    with _LOCK:
        if key not in _SPECS:
            try:
                _SPECS[key] = _PARSER[0](folder)
            except TaskError as exc:
                _SPECS[key] = exc
        return _SPECS[key]


def resolve(key: str) -> tuple[TaskSpec | None, list[str]]:
    """The spec of task ``key`` — the first of its folders (in task-root order) that its
    family accepts — and the problems of its other folders (why each was rejected, or
    that it defines the task a second time)."""
    chosen: TaskSpec | None = None
    problems: list[str] = []
    for entry in candidates(key):
        spec = spec_of(entry.folder)
        if isinstance(spec, TaskError):
            problems.append(str(spec))
        elif chosen is None:
            chosen = spec
        else:
            problems.append(f"task {key} defined twice: {chosen.folder} and {entry.folder}")
    return chosen, problems


def index_errors() -> list[str]:
    """Why each folder the index could not read was left out."""
    return list(_current()[1])


def find_entry(name: str, prefer: Callable[[TaskEntry], bool] | None = None) -> TaskEntry:
    """The entry named by env id (``MLEBench/x-v0``), key (``mlebench/x``) or bare id
    (``x``). A bare id must be unambiguous, unless exactly one of the entries sharing it is
    one ``prefer`` picks; TaskError otherwise, or for an unknown name."""
    index = task_index()
    name = name.split(":", 1)[-1]
    for entry in index.values():
        if name in (entry.env_id, entry.key) or name.lower() == entry.key.lower():
            return entry
    matches = [e for e in index.values() if e.id == name]
    if len(matches) == 1:
        return matches[0]
    preferred = [e for e in matches if prefer is not None and prefer(e)]
    if len(preferred) == 1:
        return preferred[0]
    if len(matches) > 1:
        options = ", ".join(e.env_id for e in matches)
        raise TaskError(f"task id '{name}' is ambiguous; use one of: {options}")
    near = similar_names(name)
    hint = f"did you mean {' or '.join(near)}? " if near else ""
    raise TaskError(f"unknown task '{name}'; {hint}`mle-gym list` shows the available tasks")


def similar_names(name: str, limit: int = 3) -> list[str]:
    """The env ids of up to ``limit`` tasks whose names are close to ``name`` (a misspelt
    env id, key or bare id), closest first: a did-you-mean for an unknown name. A name with
    a ``/`` is compared with env ids and keys, a bare one with task ids (case-insensitive)."""
    import difflib

    entries = list(task_index().values())
    wanted = name.split(":", 1)[-1].lower()
    forms: dict[str, list[str]] = {}
    for entry in entries:
        names = (entry.env_id, entry.key) if "/" in wanted else (entry.id,)
        for form in names:
            forms.setdefault(form.lower(), []).append(entry.env_id)
    out: list[str] = []
    for form in difflib.get_close_matches(wanted, list(forms), n=limit, cutoff=0.75):
        out += [env_id for env_id in forms[form] if env_id not in out]
    return out[:limit]


def task_folder_module(name: str, module: str) -> ModuleType:
    """The module ``<module>.py`` of the task folder ``name`` (as :func:`find_entry` takes
    it), imported once per process: the object ``TaskSpec.module`` returns for that task,
    without the task's family. TaskError if there is no such task or file."""
    entry = find_entry(name)
    found = load_folder_module(entry.folder, entry.benchmark, entry.id, module)
    if found is None:
        raise TaskError(f"{entry.folder} has no {module}.py")
    return found
