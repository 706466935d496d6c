"""Old names kept for one release: importing or reading one warns and names the new place.

* A module that moved is listed in :data:`MOVED_MODULES`; :func:`install` (run by
  ``import mle_gym``) puts a finder first on ``sys.meta_path`` that serves the old name
  as an alias of the new module (the same object), with a warning at the first import.
  A package in :data:`MOVED_PACKAGES` is served as a proxy of the new package (its
  attributes are the new package's); its old submodules are the new package's of the
  same name, and one the new package lacks fails with a message naming the new package.
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
import threading
import warnings
from collections.abc import Callable, Mapping, Sequence
from types import FrameType, ModuleType
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

#: old package -> new package: its old submodules are the new package's of the same name
#: (unless MOVED_MODULES names another place); one the new package lacks fails naming it
MOVED_PACKAGES: dict[str, str] = {
    "mle_gym.mlbench": "mle_gym.families.mlbench",
}


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


def warn_deprecated(message: str, stacklevel: int = 2) -> None:
    """A DeprecationWarning ``message``, ``stacklevel`` counted as ``warnings.warn`` counts
    it from the caller (1: the caller's line, 2: its caller's...), the import system's
    frames skipped."""
    _warn(message, stacklevel + 1)


def _import_machinery(frame: FrameType) -> bool:
    name = frame.f_code.co_filename
    return "importlib" in name and ("_bootstrap" in name or name.endswith("__init__.py"))


def _warn(message: str, stacklevel: int) -> None:
    """A DeprecationWarning at the frame ``stacklevel - 1`` levels above this function's
    caller (as ``warnings.warn(stacklevel=stacklevel + 1)`` would count), the import
    system's frames (``importlib._bootstrap``, ``importlib.import_module``) not counted:
    the line of user code that named the old name."""
    frame: FrameType | None = sys._getframe(1)
    for _ in range(stacklevel - 1):
        while frame is not None and _import_machinery(frame):
            frame = frame.f_back
        frame = frame.f_back if frame is not None else None
    while frame is not None and _import_machinery(frame):
        frame = frame.f_back
    if frame is None:
        warnings.warn(message, DeprecationWarning, stacklevel=2)
        return
    module_globals = frame.f_globals
    warnings.warn_explicit(
        message,
        DeprecationWarning,
        frame.f_code.co_filename,
        frame.f_lineno,
        module=module_globals.get("__name__"),
        registry=module_globals.setdefault("__warningregistry__", {}),
    )


def _package_proxy(old: str, new: str) -> ModuleType:
    """A module standing for the moved package ``old``: its attributes are ``new``'s, its
    submodules are found by the finder (so importing one never sets an attribute on
    ``new`` itself)."""
    proxy = ModuleType(old, f"Deprecated: moved to {new}.")
    proxy.__path__ = []

    def __getattr__(name: str) -> Any:
        return getattr(importlib.import_module(new), name)

    proxy.__getattr__ = __getattr__  # type: ignore[method-assign]
    return proxy


class _MovedModuleFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Serves each old module name as the new module object, and each old package name as
    a proxy of the new package (see module docstring)."""

    def __init__(self, moved: Mapping[str, str], packages: Mapping[str, str]) -> None:
        self.moved = moved
        self.packages = packages
        self._real: dict[str, importlib.machinery.ModuleSpec] = {}
        self._lock = threading.Lock()

    def target(self, fullname: str) -> str | None:
        """The new name of module ``fullname``, if it moved (a submodule of a moved module
        or package moved with it, unless :data:`MOVED_MODULES` says otherwise)."""
        if fullname in self.moved:
            return self.moved[fullname]
        if fullname in self.packages:
            return self.packages[fullname]
        parent, _, child = fullname.rpartition(".")
        new_parent = self.packages.get(parent) or self.moved.get(parent)
        if new_parent is None:
            return None
        candidate = f"{new_parent}.{child}"
        try:
            found = importlib.util.find_spec(candidate)
        except ModuleNotFoundError:  # the new name is not a package
            found = None
        if found is None:
            raise ModuleNotFoundError(
                f"{fullname} does not exist: {parent} moved to {new_parent}, "
                f"which has no module {child!r}",
                name=fullname,
            )
        return candidate

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if self.target(fullname) is None:
            return None
        return importlib.util.spec_from_loader(fullname, self, is_package=fullname in self.packages)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        new = self.target(spec.name)
        assert new is not None
        _warn(f"{spec.name} is deprecated: it moved to {new}; {REMOVAL}", 2)
        if spec.name in self.packages:
            return _package_proxy(spec.name, new)
        module = importlib.import_module(new)
        with self._lock:  # the import system sets __spec__ on it: keep the real one
            real = module.__spec__
            if real is not None and real.name == new:
                self._real.setdefault(new, real)
        return module

    def exec_module(self, module: ModuleType) -> None:
        real = self._real.get(module.__name__)
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


def removed_names(module: str, removed: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for names that are gone with no one-to-one replacement:
    reading one is an AttributeError saying what replaced it (``removed[name]``)."""

    def __getattr__(name: str) -> Any:
        if name in removed:
            raise AttributeError(f"{module}.{name} was removed: {removed[name]}")
        raise AttributeError(f"module {module!r} has no attribute {name!r}")

    return __getattr__


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
