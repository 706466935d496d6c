"""ML-Bench's options: the ``gym.make`` keywords of its tasks beyond the env's own.

An env's settings (:class:`MLBenchConfig`, defined with the task.yaml model in
:mod:`.task` and re-exported here) are its task.yaml's ``mlbench:`` block, then
``$MLE_GYM_MLBENCH_SOURCE`` / ``$MLE_GYM_MLBENCH_REPOS`` for tasks that read the hub,
then the options given (:class:`MLBenchOptions`, :func:`apply_options`).

Every option is checked when the env is made (``gym.make``, or the family's
constructor): a value of the wrong type or out of range is a ValueError
``"<env id>: <option> must be ..., got <value>"``. The checks are strict: a flag is
True or False (not 0, 1 or "yes"), a number is not a bool, and only ``repo``,
``compat``, ``repos`` and ``pins`` take None (for "not set"). An unknown option is
``"<env id>: unknown option 'x'; known: ..."``.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from mle_gym.families.mlbench import prompts
from mle_gym.families.mlbench.grading import COMPAT_MODES
from mle_gym.families.mlbench.pins import Superproject
from mle_gym.families.mlbench.task import SPLITS, LocalRepos, MLBenchConfig, is_git_url

__all__ = [
    "OPTION_FIELDS",
    "MLBenchConfig",
    "MLBenchOptions",
    "apply_options",
    "check_config",
    "environment_defaults",
]

SOURCES = ("bundled", "hf")
FLAGS = ("show_arguments", "clone", "allow_unpinned", "trace")


# -- the checks, one per option: raise ValueError("<name> must be ..., got <value>") --------


def _got(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _is_path(value: Any) -> bool:
    """A non-blank string or an ``os.PathLike`` of one."""
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    return isinstance(value, str) and bool(value.strip())


def _check_source(name: str, value: Any) -> None:
    if not _is_path(value):
        raise ValueError(
            f"{name} must be one of {SOURCES} or the path of a local export (a str or "
            f"os.PathLike), got {_got(value)}"
        )


def _check_split(name: str, value: Any) -> None:
    if not isinstance(value, str) or value not in SPLITS:
        raise ValueError(f"{name} must be one of {SPLITS}, got {_got(value)}")


def _check_repo(name: str, value: Any) -> None:
    if value is not None and not (isinstance(value, str) and value.strip()):
        raise ValueError(f"{name} must be a repository name (a string) or None, got {_got(value)}")


def _check_context(name: str, value: Any) -> None:
    if not isinstance(value, str) or value not in prompts.CONTEXTS:
        raise ValueError(f"{name} must be one of {prompts.CONTEXTS}, got {_got(value)}")


def _check_compat(name: str, value: Any) -> None:
    if value is not None and (not isinstance(value, str) or value not in COMPAT_MODES):
        raise ValueError(f"{name} must be None or 'mlbench', got {_got(value)}")


def _check_timeout(name: str, value: Any) -> None:
    number = isinstance(value, int | float) and not isinstance(value, bool)
    if not (number and math.isfinite(value) and value > 0):
        raise ValueError(f"{name} must be a positive number (seconds), got {_got(value)}")


def _check_flag(name: str, value: Any) -> None:
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be True or False, got {_got(value)}")


def _check_local_repos(name: str, value: Any) -> None:
    if value is None or _is_path(value):
        return
    if isinstance(value, Mapping) and all(
        isinstance(k, str) and k.strip() and _is_path(v) for k, v in value.items()
    ):
        return
    raise ValueError(
        f"{name} must be a folder of repository checkouts (a str or os.PathLike) or a "
        f"mapping of repository names or URLs to checkout folders, got {_got(value)}"
    )


def _check_pins(name: str, value: Any) -> None:
    if value is None:
        return
    if isinstance(value, Mapping) and all(
        isinstance(k, str) and k.strip() and isinstance(v, str) for k, v in value.items()
    ):
        return
    raise ValueError(
        f"{name} must be a mapping of repository names or URLs to commits (strings), "
        f"got {_got(value)}"
    )


def _check_superproject(name: str, value: Any) -> None:
    if isinstance(value, bool | Superproject):
        return
    if _is_path(value):
        text = os.fspath(value).strip()
        if (isinstance(value, str) and is_git_url(text)) or Path(text).expanduser().is_dir():
            return
    raise ValueError(
        f"{name} must be a Superproject or a bool, or the git URL or the folder of a clone "
        f"of ML-Bench, got {_got(value)}"
    )


#: option -> its check
_CHECKS: dict[str, Callable[[str, Any], None]] = {
    "source": _check_source,
    "split": _check_split,
    "repo": _check_repo,
    "context": _check_context,
    "compat": _check_compat,
    "run_timeout_s": _check_timeout,
    "repos": _check_local_repos,
    "pins": _check_pins,
    "superproject": _check_superproject,
    **{flag: _check_flag for flag in FLAGS},
}


class MLBenchOptions(BaseModel):
    """The options (each one given overrides the task's setting). A field left None was
    not given; :func:`apply_options` reads only the given ones (``model_fields_set``).
    Values are checked when the model is built, strictly (see the module docstring)."""

    model_config = ConfigDict(extra="forbid", frozen=True, arbitrary_types_allowed=True)

    source: str | os.PathLike[str] | None = Field(
        None, description="'bundled', 'hf' or a path to a local export"
    )
    split: str | None = Field(None, description=f"one of {', '.join(SPLITS)}")
    repo: str | None = Field(None, description="only this repository's examples")
    context: str | None = Field(None, description=f"one of {', '.join(prompts.CONTEXTS)}")
    compat: str | None = Field(None, description="'mlbench': ML-Bench's original pass rules")
    run_timeout_s: float | None = Field(None, description="the graded run's timeout, seconds")
    show_arguments: bool | None = Field(None, description="show the required argument values")
    repos: LocalRepos | None = Field(
        None, description="local repository checkouts (a folder or a mapping)"
    )
    pins: Mapping[str, str] | None = Field(
        None, description="repository name or URL -> commit, instead of ML-Bench's"
    )
    clone: bool | None = Field(None, description="clone missing repositories at their pins")
    allow_unpinned: bool | None = Field(None, description="accept a checkout at another commit")
    superproject: bool | str | os.PathLike[str] | Superproject | None = Field(
        None,
        description="where ML-Bench's pins are read from: True (ML-Bench's), False (none), "
        "a Superproject, or the git URL or folder of a clone of ML-Bench",
    )
    trace: bool | None = Field(None, description="trace the graded run (default True)")

    @model_validator(mode="before")
    @classmethod
    def _check(cls, data: Any) -> Any:
        """Each given option's check (:data:`_CHECKS`), before pydantic's own coercions
        could turn ``"yes"`` into True or ``True`` into ``1.0``."""
        if isinstance(data, Mapping):
            for name, value in data.items():
                check = _CHECKS.get(name)
                if check is not None:
                    check(name, value)
        return data


#: option name -> MLBenchConfig field (``repos`` are the local checkouts)
OPTION_FIELDS = {
    name: ("local_repos" if name == "repos" else name) for name in MLBenchOptions.model_fields
}


def environment_defaults(cfg: MLBenchConfig) -> MLBenchConfig:
    """``$MLE_GYM_MLBENCH_SOURCE`` / ``$MLE_GYM_MLBENCH_REPOS``: where the real benchmark's
    examples and checkouts are, for tasks whose task.yaml reads them from the hub — so
    ``mle-gym run``/``eval`` (and their worker processes) can use a local export."""
    if cfg.source != "hf":
        return cfg
    source = os.environ.get("MLE_GYM_MLBENCH_SOURCE", "").strip()
    repos = os.environ.get("MLE_GYM_MLBENCH_REPOS", "").strip()
    return replace(cfg, source=source or cfg.source, local_repos=repos or cfg.local_repos)


def apply_options(cfg: MLBenchConfig, opts: MLBenchOptions, where: str) -> MLBenchConfig:
    """``cfg`` with the options that were given, normalised to the config's types: a
    path ``source`` as a string, ``run_timeout_s`` as a float, ``pins`` as a dict, a
    ``superproject`` location as a :class:`~.pins.Superproject` (:meth:`~.pins.Superproject.
    at`). ValueError ``"<where>: <setting> must be ..."`` for a bad value."""
    changes: dict[str, Any] = {OPTION_FIELDS[k]: getattr(opts, k) for k in opts.model_fields_set}
    if "source" in changes:
        changes["source"] = os.fspath(changes["source"])
    if "run_timeout_s" in changes:
        changes["run_timeout_s"] = float(changes["run_timeout_s"])
    if changes.get("pins") is not None:
        changes["pins"] = dict(changes["pins"])
    superproject = changes.get("superproject")
    if superproject is not None and not isinstance(superproject, bool | Superproject):
        try:
            changes["superproject"] = Superproject.at(superproject)
        except ValueError as exc:
            raise ValueError(f"{where}: superproject: {exc}") from None
    out = replace(cfg, **changes)
    check_config(out, where)
    return out


def check_config(cfg: MLBenchConfig, where: str) -> None:
    """ValueError ``"<where>: <setting> must be ..."`` for a setting of the wrong type or
    out of range (the task.yaml's, the environment's and the options' together)."""
    settings: dict[str, Any] = {
        "source": cfg.source,
        "split": cfg.split,
        "repo": cfg.repo,
        "context": cfg.context,
        "compat": cfg.compat,
        "run_timeout_s": cfg.run_timeout_s,
        "repos": cfg.local_repos,
        "pins": cfg.pins,
        "superproject": cfg.superproject,
        **{flag: getattr(cfg, flag) for flag in FLAGS},
    }
    for name, value in settings.items():
        try:
            _CHECKS[name](name, value)
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None
