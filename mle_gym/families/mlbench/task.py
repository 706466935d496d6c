"""ML-Bench's task.yaml and task spec: which examples an env serves, and how.

task.yaml keys, under ``mlbench:``: ``source``, ``split``, ``repos`` (names),
``github_id`` (ML-Bench's repository id), ``repository`` (the git URL of the task's
repository: the repositories the task folders declare are the ones ML-Bench's default
superproject is consulted for, :mod:`.pins`, and the one ``mle-gym prepare`` fetches for
the task), ``context``, ``run_timeout_s``.

This module is the bottom of the family's own modules (it imports none that reads task
folders, examples or repositories), so that :mod:`.folders` can parse task folders with
it: it also holds what task.yaml and the options share — :data:`SPLITS`,
:func:`is_git_url` and the env's settings, :class:`MLBenchConfig` (re-exported by
:mod:`.options`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeAlias

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator

from mle_gym.families.base import spec_fields
from mle_gym.families.mlbench import prompts
from mle_gym.task_schema import StrList, TaskFile, none_to, validate_task_file
from mle_gym.task_spec import TaskSpec

if TYPE_CHECKING:
    from mle_gym.families.mlbench.pins import Superproject

#: ML-Bench's splits: ``full`` (260 examples), ``quarter`` (68), ``id_train``, ``ood_train``
SPLITS = ("full", "quarter", "id_train", "ood_train")

#: local repository checkouts: a folder holding one checkout per repository name, or
#: ``{repository name or URL: checkout folder}``
LocalRepos: TypeAlias = str | os.PathLike[str] | Mapping[str, str | os.PathLike[str]]

#: a git URL: ``<scheme>://<host>/...``, ``file:///path`` or scp-like ``user@host:path``
#: (whose user starts with a letter, digit, ``_`` or ``.``: never an option of git)
_GIT_URL = re.compile(
    r"^(?:(?:https?|ssh|git)://[^\s/]+/\S+|file:///\S+|[\w.][\w.-]*@[\w.-]+:\S+)$"
)


def is_git_url(text: str) -> bool:
    """Whether ``text`` is a git URL as ``mlbench: {repository: ...}`` takes it:
    ``https://host/owner/name.git`` (or ``http``, ``ssh``, ``git``), ``file:///path`` or
    scp-like ``user@host:path``; no blanks, no leading ``-`` (git would read it as an
    option)."""
    return bool(_GIT_URL.match(text))


@dataclass(frozen=True)
class MLBenchConfig:
    """The settings of one ML-Bench env: the task.yaml ``mlbench:`` block
    (:func:`parse_task`), then ``$MLE_GYM_MLBENCH_SOURCE``/``$MLE_GYM_MLBENCH_REPOS`` and
    the ``gym.make`` options (:func:`mle_gym.families.mlbench.options.apply_options`,
    which checks them and normalises them to these types)."""

    source: str = "hf"
    split: str = "full"
    repos: tuple[str, ...] = ()
    github_id: int | None = None
    repo: str | None = None
    context: str = "none"
    compat: str | None = None
    run_timeout_s: float = 120.0
    show_arguments: bool = True
    local_repos: LocalRepos | None = None
    pins: Mapping[str, str] | None = None
    clone: bool = True
    allow_unpinned: bool = False
    superproject: bool | Superproject = True
    trace: bool = True


class MLBenchBlock(BaseModel):
    """``mlbench:`` of an ML-Bench task.yaml: which examples the env serves, and how."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    source: str = Field("hf", description="'hf', 'bundled' or a path to a local export")
    split: str = Field("full", description=f"one of {', '.join(SPLITS)}")
    repos: StrList = Field(default_factory=list, description="only these repositories")
    github_id: int | None = Field(None, description="ML-Bench's repository id")
    repository: str | None = Field(
        None,
        description="the git URL of the task's repository (the default superproject's pins "
        "are looked up only for the URLs task folders declare)",
    )
    context: str = Field("none", description=f"one of {', '.join(prompts.CONTEXTS)}")
    run_timeout_s: float = Field(120.0, gt=0, allow_inf_nan=False)

    @field_validator("split")
    @classmethod
    def _split(cls, value: str) -> str:
        if value not in SPLITS:
            raise ValueError(f"must be one of {SPLITS}, got {value!r}")
        return value

    @field_validator("repository")
    @classmethod
    def _repository(cls, value: str | None) -> str | None:
        if value is None:
            return None
        url = value.strip()
        if not is_git_url(url):
            raise ValueError(
                "must be a git URL (https://host/owner/name.git, ssh://..., git@host:path), "
                f"got {value!r}"
            )
        return url

    @field_validator("context")
    @classmethod
    def _context(cls, value: str) -> str:
        if value not in prompts.CONTEXTS:
            raise ValueError(f"must be one of {prompts.CONTEXTS}, got {value!r}")
        return value


class MLBenchTaskFile(TaskFile):
    """The task.yaml of an ML-Bench task (``task_assets/mlbench/<id>/``)."""

    model_config = ConfigDict(title="ML-Bench task.yaml")

    mlbench: Annotated[
        MLBenchBlock, BeforeValidator(none_to({}), json_schema_input_type=MLBenchBlock | None)
    ] = Field(default_factory=MLBenchBlock)


TASK_KEYS = tuple(MLBenchBlock.model_fields)


@dataclass(frozen=True, kw_only=True)
class MLBenchTask(TaskSpec):
    """An ML-Bench task: the common fields plus the settings of its ``mlbench:`` block
    (``repository``: the git URL its task.yaml declares, if any — read by
    :func:`mle_gym.families.mlbench.folders.declared_repositories` and by
    ``mle-gym prepare``)."""

    config: MLBenchConfig
    repository: str | None = None


def parse_task(
    folder: Path,
    raw: dict[str, Any],
    family: str,
    model_class: type[MLBenchTaskFile] = MLBenchTaskFile,
) -> MLBenchTask:
    """``raw`` (``folder``'s task.yaml) checked against ``model_class`` (a subclass of
    :class:`MLBenchTaskFile`) and parsed; TaskError naming the field at fault."""
    model = validate_task_file(model_class, raw, folder / "task.yaml")
    block = model.mlbench
    config = MLBenchConfig(
        source=block.source,
        split=block.split,
        repos=tuple(block.repos),
        github_id=block.github_id,
        context=block.context,
        run_timeout_s=block.run_timeout_s,
    )
    return MLBenchTask(
        **spec_fields(model, folder, raw, family), config=config, repository=block.repository
    )


def _spec(task: TaskSpec) -> MLBenchTask:
    if isinstance(task, MLBenchTask):
        return task
    return parse_task(task.folder, task.raw, task.family)


def task_config(task: TaskSpec) -> MLBenchConfig:
    """The settings ``task``'s task.yaml gives (TaskError naming a bad field)."""
    return _spec(task).config


def task_repository(task: TaskSpec) -> str | None:
    """The git URL ``task``'s task.yaml declares as its repository
    (``mlbench: {repository: ...}``), or None (TaskError naming a bad field)."""
    return _spec(task).repository
