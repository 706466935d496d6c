"""The task spec: what every task is, whatever its family (no discovery, no family).

A task is a folder, ``task_assets/<benchmark>/<task_id>/``; :mod:`mle_gym.tasks`
discovers the folders and has each one's family parse it into a :class:`TaskSpec`
(or the family's subclass of it, which adds the family's own fields).
"""

from __future__ import annotations

import functools
import importlib.util
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from mle_gym._deprecation import moved_field_error, warn_deprecated

if TYPE_CHECKING:
    from mle_gym.sandbox.base import SandboxLimits


class TaskError(ValueError):
    """A task folder is missing or its task.yaml is malformed."""


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


class TaskNames:
    """The names of a task made of its ``benchmark``, ``id`` and ``version``."""

    benchmark: str
    id: str
    version: int

    @property
    def env_id(self) -> str:
        """The gymnasium id, ``<Benchmark>/<task_id>-v<version>``."""
        return f"{self.benchmark}/{self.id}-v{self.version}"

    @property
    def key(self) -> str:
        """Unique key ``<benchmark>/<task_id>`` (lower-case benchmark)."""
        return f"{self.benchmark.lower()}/{self.id}"


@dataclass(frozen=True)
class TaskSpec(TaskNames):
    """A task as every family has it: what task.yaml's common fields say, plus the folder.

    A family's tasks are instances of the subclass its ``TaskFamily.parse_task`` builds,
    which adds the family's own fields; ``raw`` is the parsed task.yaml as written.
    """

    id: str
    benchmark: str
    title: str
    version: int
    folder: Path
    family: str
    metric: str = ""
    lower_is_better: bool = False
    split: str | None = None
    limits: Limits = field(default_factory=Limits)
    leakage: str | None = None
    data: dict[str, Any] = field(default_factory=dict)
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    if not TYPE_CHECKING:  # type checkers see the real fields only

        def __getattr__(self, name: str) -> Any:
            # a field that moved to one family's spec names its place (mle_gym._deprecation)
            raise moved_field_error(type(self).__name__, name, self.__dict__)

    @property
    def leaky(self) -> bool:
        """True if the task's test labels are known to leak (excluded from default eval sets)."""
        return bool(self.leakage)

    def problem(self) -> str | None:
        """Why this task cannot be used here at all (e.g. no grader), or None; a family's
        spec class says what its tasks need."""
        return None

    def grader_problem(self) -> str | None:
        """Former name of :meth:`problem` (deprecated)."""
        warn_deprecated(
            "TaskSpec.grader_problem() is deprecated: it was renamed TaskSpec.problem(); "
            "the old name will be removed in the next release",
            2,
        )
        return self.problem()

    def description(self) -> str:
        """The task text the agent reads."""
        return (self.folder / "description.md").read_text(encoding="utf-8")

    def module(self, name: str) -> ModuleType | None:
        """Import ``<folder>/<name>.py`` (``prepare``, ``grade``...), or None if absent."""
        return load_folder_module(self.folder, self.benchmark, self.id, name)

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


def load_folder_module(folder: Path, benchmark: str, task_id: str, name: str) -> ModuleType | None:
    """Import ``folder/<name>.py`` of the task ``<benchmark>/<task_id>`` (once per process:
    the same module object every time), or None if the file is absent."""
    return _load_module(folder / f"{name}.py", f"{benchmark}.{task_id}.{name}")


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
