"""ML-Bench's options: the ``gym.make`` keywords of its tasks beyond the env's own.

An env's settings (:class:`MLBenchConfig`) are its task.yaml's ``mlbench:`` block
(:mod:`.task`), then ``$MLE_GYM_MLBENCH_SOURCE`` / ``$MLE_GYM_MLBENCH_REPOS`` for tasks
that read the hub, then the options given (:class:`MLBenchOptions`), checked together by
:func:`check_config`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from mle_gym.families.mlbench import prompts
from mle_gym.families.mlbench.grading import COMPAT_MODES
from mle_gym.families.mlbench.loader import SPLITS


@dataclass(frozen=True)
class MLBenchConfig:
    """The settings of one ML-Bench env (task.yaml ``mlbench:`` then gym.make options)."""

    source: str = "hf"
    split: str = "full"
    repos: tuple[str, ...] = ()
    github_id: int | None = None
    repo: str | None = None
    context: str = "none"
    compat: str | None = None
    run_timeout_s: float = 120.0
    show_arguments: bool = True
    local_repos: Any = None
    pins: Mapping[str, str] | None = None
    clone: bool = True
    allow_unpinned: bool = False
    superproject: Any = True
    trace: bool = True


class MLBenchOptions(BaseModel):
    """The options (each one given overrides the task's setting; values are checked with
    the task's by :func:`check_config`)."""

    model_config = ConfigDict(extra="forbid", frozen=True, arbitrary_types_allowed=True)

    source: Any = Field(None, description="'bundled', 'hf' or a path to a local export")
    split: Any = Field(None, description=f"one of {', '.join(SPLITS)}")
    repo: Any = Field(None, description="only this repository's examples")
    context: Any = Field(None, description=f"one of {', '.join(prompts.CONTEXTS)}")
    compat: Any = Field(None, description="'mlbench': ML-Bench's original pass rules")
    run_timeout_s: Any = Field(None, description="the graded run's timeout, seconds")
    show_arguments: Any = Field(None, description="show the required argument values")
    repos: Any = Field(None, description="local repository checkouts (a folder or a mapping)")
    pins: Any = Field(None, description="repository URL -> commit, instead of ML-Bench's")
    clone: Any = Field(None, description="clone missing repositories at their pins")
    allow_unpinned: Any = Field(None, description="accept a checkout at another commit")
    superproject: Any = Field(None, description="where ML-Bench's pins are read from")
    trace: Any = Field(None, description="trace the graded run (default True)")


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
    """``cfg`` with the options that were given; ValueError naming a bad value."""
    changes = {OPTION_FIELDS[k]: getattr(opts, k) for k in opts.model_fields_set}
    if "source" in changes:
        changes["source"] = str(changes["source"])
    if "run_timeout_s" in changes:
        try:
            changes["run_timeout_s"] = float(changes["run_timeout_s"])
        except (TypeError, ValueError):
            raise ValueError(f"{where}: run_timeout_s must be a positive number") from None
    out = replace(cfg, **changes)
    check_config(out, where)
    return out


def check_config(cfg: MLBenchConfig, where: str) -> None:
    """ValueError ``"<where>: <setting> must be ..."`` for a setting out of range."""
    if cfg.split not in SPLITS:
        raise ValueError(f"{where}: split must be one of {SPLITS}, got {cfg.split!r}")
    if cfg.context not in prompts.CONTEXTS:
        raise ValueError(f"{where}: context must be one of {prompts.CONTEXTS}, got {cfg.context!r}")
    if cfg.compat not in COMPAT_MODES:
        raise ValueError(f"{where}: compat must be None or 'mlbench', got {cfg.compat!r}")
    if not (isinstance(cfg.run_timeout_s, int | float) and cfg.run_timeout_s > 0):
        raise ValueError(f"{where}: run_timeout_s must be a positive number")
    for name in ("trace", "show_arguments", "clone", "allow_unpinned"):
        if not isinstance(getattr(cfg, name), bool):
            raise ValueError(f"{where}: {name} must be True or False, got {getattr(cfg, name)!r}")
