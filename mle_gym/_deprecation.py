"""Old names kept for one release: importing or reading one warns and names the new place.

* A module that moved is listed in :data:`MOVED_MODULES`; :func:`install` (run by
  ``import mle_gym``) puts a finder first on ``sys.meta_path`` that serves the old name
  as an alias of the new module (the same object), with a warning at the first import.
  A package in :data:`MOVED_PACKAGES` serves its old submodules the same way, and an
  old submodule that no longer exists fails with a message naming the new package.
* A renamed attribute is served by the module's ``__getattr__`` through
  :func:`renamed_attribute`; an attribute that moved to another module through
  :func:`moved_attribute`.

Every warning is a :class:`DeprecationWarning` attributed to the caller's line.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import warnings
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import Any

REMOVAL = "the old name will be removed in the next release"

#: old module -> its new place (issue 14: one package per benchmark family)
MOVED_MODULES: dict[str, str] = {
    # renamed in the first part of issue 14
    "mle_gym.runner": "mle_gym.episode_runner",
    "mle_gym.evaluation.report": "mle_gym.evaluation.run_report",
    "mle_gym.grading.report": "mle_gym.families.mlebench.grade_report",
    "mle_gym.cli.options": "mle_gym.cli.arguments",
    # MLE-bench: everything in families/mlebench/
    "mle_gym.prompts": "mle_gym.families.mlebench.prompts",
    "mle_gym.rewards": "mle_gym.families.mlebench.rewards",
    "mle_gym.data.sources": "mle_gym.families.mlebench.prepare",
    "mle_gym.grading.grader": "mle_gym.families.mlebench.grading",
    "mle_gym.grading.format_check": "mle_gym.families.mlebench.format_check",
    "mle_gym.grading.leaderboard": "mle_gym.families.mlebench.leaderboard",
    "mle_gym.grading.grade_report": "mle_gym.families.mlebench.grade_report",
    "mle_gym.agents.templates": "mle_gym.families.mlebench.templates",
    # MLAgentBench: the family layout's module names
    "mle_gym.families.mlagentbench.config": "mle_gym.families.mlagentbench.task",
    "mle_gym.families.mlagentbench.data": "mle_gym.families.mlagentbench.prepare",
    "mle_gym.families.mlagentbench.grade": "mle_gym.families.mlagentbench.grading",
    # ML-Bench: mle_gym/mlbench/ and families/mlbench.py are one package now
    "mle_gym.mlbench": "mle_gym.families.mlbench",
    "mle_gym.mlbench.argcheck": "mle_gym.families.mlbench.argcheck",
    "mle_gym.mlbench.episode_text": "mle_gym.families.mlbench.prompts",
    "mle_gym.mlbench.evidence": "mle_gym.families.mlbench.evidence",
    "mle_gym.mlbench.execution": "mle_gym.families.mlbench.execution",
    "mle_gym.mlbench.grade": "mle_gym.families.mlbench.grading",
    "mle_gym.mlbench.loader": "mle_gym.families.mlbench.loader",
    "mle_gym.mlbench.passk": "mle_gym.evaluation.passk",
    "mle_gym.mlbench.pins": "mle_gym.families.mlbench.pins",
    "mle_gym.mlbench.prefetch": "mle_gym.families.mlbench.prepare",
    "mle_gym.mlbench.repos": "mle_gym.families.mlbench.repos",
    "mle_gym.mlbench.schema": "mle_gym.families.mlbench.schema",
    "mle_gym.mlbench.scripted": "mle_gym.families.mlbench.policy",
    "mle_gym.mlbench.solver": "mle_gym.families.mlbench.solver",
    "mle_gym.mlbench.workspace": "mle_gym.families.mlbench.workspace",
}

#: old package -> new package: an old submodule not in MOVED_MODULES fails naming the new one
MOVED_PACKAGES: dict[str, str] = {"mle_gym.mlbench": "mle_gym.families.mlbench"}


#: fields every task had before issue 14, now fields of one family's spec class
MOVED_TASK_FIELDS: dict[str, str] = dict.fromkeys(
    (
        "submission",
        "answers_file",
        "sample_submission_file",
        "leaderboard",
        "grader",
        "sources",
        "kaggle_supported",
    ),
    "mle_gym.families.mlebench.MLEBenchTask",
)


def moved_field_error(cls_name: str, name: str, fields: Mapping[str, Any]) -> AttributeError:
    """The AttributeError for field ``name`` missing on a task spec whose fields are
    ``fields``: one that names the spec class that has it, if the field moved there."""
    if name in MOVED_TASK_FIELDS:
        task = f"{fields.get('benchmark')}/{fields.get('id')}"
        return AttributeError(
            f"{name!r} is a field of {MOVED_TASK_FIELDS[name]} (its family's tasks only); "
            f"{task} is a task of the {fields.get('family')!r} family"
        )
    return AttributeError(f"{cls_name!r} object has no attribute {name!r}")


def _warn(message: str, stacklevel: int) -> None:
    warnings.warn(message, DeprecationWarning, stacklevel=stacklevel + 1)


class _MovedModuleFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Serves each old module name as the new module object (see module docstring)."""

    def __init__(self, moved: Mapping[str, str], packages: Mapping[str, str]) -> None:
        self.moved = moved
        self.packages = packages

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname in self.moved:
            return importlib.util.spec_from_loader(fullname, self)
        parent = fullname.rpartition(".")[0]
        if parent in self.packages:
            raise ModuleNotFoundError(
                f"{fullname} does not exist: {parent} moved to {self.packages[parent]}, "
                f"which has no such module",
                name=fullname,
            )
        return None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        new = self.moved[spec.name]
        # warnings skips the import machinery's frames: this points at the importing line
        _warn(f"{spec.name} is deprecated: it moved to {new}; {REMOVAL}", 2)
        module = importlib.import_module(new)
        # the import system sets __spec__ on the module it gets; keep the real one
        module.__dict__.setdefault("_mle_gym_real_spec", module.__spec__)
        return module

    def exec_module(self, module: ModuleType) -> None:
        real = module.__dict__.pop("_mle_gym_real_spec", None)
        if real is not None:
            module.__spec__ = real


_FINDER = _MovedModuleFinder(MOVED_MODULES, MOVED_PACKAGES)


def install() -> None:
    """Put the finder of moved modules first on ``sys.meta_path`` (idempotent)."""
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)


def renamed_attribute(
    module: str, name: str, renamed: Mapping[str, str], namespace: Mapping[str, Any]
) -> Any:
    """For a module ``__getattr__``: the object now called ``renamed[name]`` (from
    ``namespace``, the module's globals), with a warning; AttributeError for other names."""
    if name in renamed:
        new = renamed[name]
        _warn(f"{module}.{name} is deprecated: it was renamed {module}.{new}; {REMOVAL}", 3)
        return namespace[new]
    raise AttributeError(f"module {module!r} has no attribute {name!r}")


def moved_names(module: str, moved: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` serving the names that moved out of ``module``
    (``moved[name]`` is ``"new.module:attr"``) through :func:`moved_attribute`."""

    def __getattr__(name: str) -> Any:
        return moved_attribute(module, name, moved)

    return __getattr__


def moved_attribute(module: str, name: str, moved: Mapping[str, str]) -> Any:
    """For a module ``__getattr__``: ``moved[name]`` is ``"new.module:attr"``, the object's
    new place; import and return it with a warning. AttributeError for other names."""
    if name in moved:
        target_module, _, attr = moved[name].partition(":")
        message = f"{module}.{name} is deprecated: it moved to {target_module}.{attr}; {REMOVAL}"
        _warn(message, 3)
        return getattr(importlib.import_module(target_module), attr)
    raise AttributeError(f"module {module!r} has no attribute {name!r}")
