"""Task definitions: a task is a folder, ``task_assets/<benchmark>/<task_id>/``.

The folder holds ``task.yaml`` (checked by the models of :mod:`mle_gym.task_schema`,
published as ``docs/task.schema.json``, and parsed into :class:`TaskSpec`),
``description.md`` (the task as the agent reads it), ``prepare.py`` (turns raw
data into public/private folders, and/or generates an offline replica),
optionally ``grade.py`` (a task-specific grader), ``solution.py`` (the
reference solution the scripted agent runs) and ``starter/`` (files copied into
every workspace).

Nothing about a task is hard-coded elsewhere: registration, ``mle-gym list``,
and the tests discover tasks from these folders alone.
"""

from __future__ import annotations

import functools
import importlib.util
import logging
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import yaml

from mle_gym import paths

if TYPE_CHECKING:
    from mle_gym.sandbox.base import SandboxLimits
    from mle_gym.task_schema import FamilyTaskFile, MLEBenchTaskFile

log = logging.getLogger(__name__)


class TaskError(ValueError):
    """A task folder is missing or its task.yaml is malformed."""


TARGET_KINDS = ("binary", "integer", "numeric", "probability", "label")
GRADER_KINDS = ("generic", "module", "raw", "missing")


@dataclass(frozen=True)
class SubmissionSpec:
    """What the agent must hand in."""

    file: str
    id_column: str
    target_columns: tuple[str, ...]
    target_kind: str  # one of TARGET_KINDS
    allow_empty: bool = False  # label targets may be blank (e.g. "no objects")
    max_mb: int = 200  # the largest submission file accepted


@dataclass(frozen=True)
class Leaderboard:
    """Human leaderboard figures (Kaggle), for medals and percentile rewards."""

    teams: int
    gold: float
    silver: float
    bronze: float
    median: float
    sample_submission_score: float | None
    score_at_rank_fraction: tuple[float, ...]


@dataclass(frozen=True)
class Limits:
    """Budgets and sandbox limits; every field can be overridden by gym.make kwargs."""

    max_steps: int = 50
    time_budget_s: float = 7200.0
    exec_timeout_s: float = 600.0
    memory_mb: int = 4096
    pids: int = 512
    cpus: float = 1.0
    cpu_time_s: int = 3600
    disk_mb: int = 10240

    def sandbox_limits(self) -> SandboxLimits:
        """The limits a sandbox enforces (memory, processes, CPUs, CPU time per process)."""
        from mle_gym.sandbox.base import SandboxLimits

        return SandboxLimits(
            memory_mb=self.memory_mb, pids=self.pids, cpus=self.cpus, cpu_time_s=self.cpu_time_s
        )


@dataclass(frozen=True)
class TaskSpec:
    """A parsed ``task.yaml`` plus the folder it came from."""

    id: str
    benchmark: str
    title: str
    version: int
    folder: Path
    metric: str
    lower_is_better: bool
    submission: SubmissionSpec
    answers_file: str
    sample_submission_file: str
    split: str | None = None
    leaderboard: Leaderboard | None = None
    data: dict[str, Any] = field(default_factory=dict)
    limits: Limits = field(default_factory=Limits)
    leakage: str | None = None
    grader: str = "generic"
    family: str = "mlebench"
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def leaky(self) -> bool:
        """True if the task's test labels are known to leak (excluded from default eval sets)."""
        return bool(self.leakage)

    @property
    def kaggle_supported(self) -> bool:
        """True if ``mle-gym prepare`` can prepare this task's real Kaggle data."""
        cfg = self.data.get("kaggle")
        return isinstance(cfg, dict) and bool(cfg.get("supported", True))

    def grader_problem(self) -> str | None:
        """Why this task cannot be graded here, or None if it can."""
        if self.family != "mlebench":
            from mle_gym.families import family_class

            return family_class(self.family)(self).problem()
        if self.grader == "missing":
            return f"no grader is implemented for {self.key} (metric {self.metric!r})"
        if self.grader in ("module", "raw"):
            if not (self.folder / "grade.py").is_file():
                return f"{self.folder}/grade.py is missing"
            return None
        from mle_gym.grading.metrics import get_metric

        try:
            get_metric(self.metric)
        except KeyError:
            return f"metric {self.metric!r} of {self.key} is not implemented"
        return None

    @property
    def env_id(self) -> str:
        """The gymnasium id, ``<Benchmark>/<task_id>-v<version>``."""
        return f"{self.benchmark}/{self.id}-v{self.version}"

    @property
    def key(self) -> str:
        """Unique key ``<benchmark>/<task_id>`` (lower-case benchmark)."""
        return f"{self.benchmark.lower()}/{self.id}"

    @property
    def sources(self) -> tuple[str, ...]:
        """Data sources this task supports, in order of preference."""
        return tuple(s for s in ("kaggle", "bundled", "replica") if s in self.data)

    def description(self) -> str:
        """The task text the agent reads."""
        return (self.folder / "description.md").read_text(encoding="utf-8")

    def module(self, name: str) -> ModuleType | None:
        """Import ``<folder>/<name>.py`` (``prepare``, ``grade``...), or None if absent."""
        return _load_module(self.folder / f"{name}.py", f"{self.benchmark}.{self.id}.{name}")

    @property
    def starter_dir(self) -> Path | None:
        """Files copied into every workspace, if the task has any."""
        d = self.folder / "starter"
        return d if d.is_dir() else None

    @property
    def solution_file(self) -> Path | None:
        """The reference solution script, if the task has one."""
        f = self.folder / "solution.py"
        return f if f.is_file() else None


@functools.cache
def _load_module(path: Path, qualname: str) -> ModuleType | None:
    if not path.is_file():
        return None
    mod_name = "mle_gym_task_" + "".join(c if c.isalnum() else "_" for c in qualname)
    spec = importlib.util.spec_from_file_location(mod_name, path)
    if spec is None or spec.loader is None:  # pragma: no cover - only on broken files
        raise TaskError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[mod_name] = module  # dataclasses and pickling look modules up here
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(mod_name, None)
        raise
    return module


# libyaml's safe loader when PyYAML was built with it (every task.yaml is parsed at
# import to register the env ids: ~10x faster than the pure-Python loader).
_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_task_yaml(folder: Path) -> dict[str, Any]:
    """``folder/task.yaml`` as a mapping; raise :class:`TaskError` if it is not one."""
    where = folder / "task.yaml"
    try:
        raw = yaml.load(where.read_text(encoding="utf-8"), Loader=_YAML_LOADER)
    except FileNotFoundError as exc:
        raise TaskError(f"{folder}: no task.yaml") from exc
    except yaml.YAMLError as exc:
        raise TaskError(f"{where}: not valid YAML: {exc}") from exc
    if not isinstance(raw, dict):
        raise TaskError(f"{where}: expected a mapping at top level")
    return raw


def load_task(folder: Path) -> TaskSpec:
    """Parse ``folder/task.yaml``; raise :class:`TaskError` with the field at fault.

    The file is checked against :class:`mle_gym.task_schema.MLEBenchTaskFile` (MLE-bench
    tasks) or :class:`~mle_gym.task_schema.FamilyTaskFile` plus the family's own
    ``check_task`` (other families); ``docs/task.schema.json`` publishes the schema.
    """
    where = folder / "task.yaml"
    raw = read_task_yaml(folder)
    if not (folder / "description.md").is_file():
        raise TaskError(f"{folder}: no description.md")
    family = _family_name(raw, where)
    spec = (
        _load_mlebench_task(folder, raw, where)
        if family == "mlebench"
        else _load_family_task(folder, raw, where, family)
    )
    if folder.name != spec.id:
        raise TaskError(f"{where}: id '{spec.id}' differs from folder name '{folder.name}'")
    if family != "mlebench":
        from mle_gym.families import family_class

        family_class(family).check_task(spec)  # raises TaskError naming the field at fault
    return spec


def _limits(model: MLEBenchTaskFile | FamilyTaskFile) -> Limits:
    return Limits(**model.limits.model_dump())


def _submission(model: MLEBenchTaskFile | FamilyTaskFile) -> SubmissionSpec:
    sub = model.submission
    return SubmissionSpec(
        file=sub.file,
        id_column=sub.id_column,
        target_columns=tuple(sub.target_columns),
        target_kind=sub.target_kind,
        allow_empty=sub.allow_empty,
        max_mb=sub.max_mb,
    )


def _load_mlebench_task(folder: Path, raw: dict[str, Any], where: Path) -> TaskSpec:
    from mle_gym.task_schema import MLEBenchTaskFile, validate_task_file

    model = validate_task_file(MLEBenchTaskFile, raw, where)
    board = model.leaderboard
    grader = model.grader or ("module" if (folder / "grade.py").is_file() else "generic")
    return TaskSpec(
        id=model.id,
        benchmark=model.benchmark,
        title=model.title or model.id,
        version=model.version,
        folder=folder,
        metric=model.metric,
        lower_is_better=model.lower_is_better,
        submission=_submission(model),
        answers_file=model.files.answers,
        sample_submission_file=model.files.sample_submission,
        split=model.split,
        leaderboard=None
        if board is None
        else Leaderboard(
            teams=board.teams,
            gold=board.gold,
            silver=board.silver,
            bronze=board.bronze,
            median=board.median,
            sample_submission_score=board.sample_submission_score,
            score_at_rank_fraction=tuple(board.score_at_rank_fraction),
        ),
        data=dict(raw.get("data") or {}),
        limits=_limits(model),
        leakage=model.leakage,
        grader=grader,
        raw=raw,
    )


def _family_name(raw: dict[str, Any], where: Path) -> str:
    """``family:`` of task.yaml, or the default family of its benchmark."""
    from mle_gym.families import default_family

    family = raw.get("family") or default_family(str(raw.get("benchmark") or ""))
    if not isinstance(family, str):
        raise TaskError(f"{where}: family must be a string, got {family!r}")
    return family


def _load_family_task(folder: Path, raw: dict[str, Any], where: Path, family: str) -> TaskSpec:
    """A task of a non-MLE-bench family: the common fields here; the family reads the rest
    of ``raw`` (``TaskSpec.raw``) itself and checks it with ``check_task``."""
    from mle_gym.task_schema import FamilyTaskFile, validate_task_file

    model = validate_task_file(FamilyTaskFile, raw, where)
    return TaskSpec(
        id=model.id,
        benchmark=model.benchmark,
        title=model.title or model.id,
        version=model.version,
        folder=folder,
        metric=model.metric,
        lower_is_better=model.lower_is_better,
        submission=_submission(model),
        answers_file=model.files.answers,
        sample_submission_file=model.files.sample_submission,
        split=model.split,
        data=dict(model.data),
        limits=_limits(model),
        grader=model.grader or "module",
        family=family,
        raw=raw,
    )


@functools.lru_cache(maxsize=1)
def _discover(dirs: tuple[Path, ...]) -> tuple[dict[str, TaskSpec], tuple[str, ...]]:
    found: dict[str, TaskSpec] = {}
    errors: list[str] = []
    for root in dirs:
        if not root.is_dir():
            continue
        for yaml_path in sorted(root.glob("*/*/task.yaml")):
            try:
                spec = load_task(yaml_path.parent)
            except TaskError as exc:
                errors.append(str(exc))
                continue
            if spec.key in found:
                errors.append(
                    f"task {spec.key} defined twice: {found[spec.key].folder} and {spec.folder}"
                )
                continue
            found[spec.key] = spec
    if errors:
        log.warning(
            "%d invalid task folder(s) skipped (`mle-gym list` says why), e.g. %s",
            len(errors),
            errors[0],
        )
    return found, tuple(errors)


def all_tasks() -> dict[str, TaskSpec]:
    """Every valid task in :func:`mle_gym.paths.task_assets_dirs`, keyed by ``spec.key``.

    Invalid folders are skipped (logged, and listed by :func:`task_errors`), so one
    broken task folder cannot make the whole library unusable.
    """
    return dict(_discover(tuple(paths.task_assets_dirs()))[0])


def task_errors() -> list[str]:
    """Why each invalid task folder was skipped (empty when all are valid)."""
    return list(_discover(tuple(paths.task_assets_dirs()))[1])


def get_task(name: str) -> TaskSpec:
    """Find a task by env id (``MLEBench/x-v0``), key (``mlebench/x``) or bare id (``x``).

    A bare id must be unambiguous across benchmarks, except that it names the MLE-bench
    task when one of the tasks sharing it is MLE-bench's.
    """
    tasks = all_tasks()
    name = name.split(":", 1)[-1]
    for spec in tasks.values():
        if name in (spec.env_id, spec.key) or name.lower() == spec.key.lower():
            return spec
    matches = [s for s in tasks.values() if s.id == name]
    if len(matches) == 1:
        return matches[0]
    # A bare id keeps naming the MLE-bench task when another benchmark reuses it
    # (MLAgentBench/spaceship-titanic needs its prefix).
    mlebench = [s for s in matches if s.benchmark == "MLEBench"]
    if len(mlebench) == 1:
        return mlebench[0]
    if len(matches) > 1:
        options = ", ".join(s.env_id for s in matches)
        raise TaskError(f"task id '{name}' is ambiguous; use one of: {options}")
    raise TaskError(f"unknown task '{name}'; `mle-gym list` shows the available tasks")


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
