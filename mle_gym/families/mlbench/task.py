"""ML-Bench's task.yaml and task spec: which examples an env serves, and how.

task.yaml keys, under ``mlbench:``: ``source``, ``split``, ``repos`` (names),
``github_id`` (ML-Bench's repository id), ``repository`` (the git URL of the task's
repository: the repositories the task folders declare are the ones ML-Bench's default
superproject is consulted for, :mod:`.pins`), ``context``, ``run_timeout_s``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator

from mle_gym.families.base import spec_fields
from mle_gym.families.mlbench import prompts
from mle_gym.families.mlbench.folders import is_git_url
from mle_gym.families.mlbench.loader import SPLITS
from mle_gym.families.mlbench.options import MLBenchConfig
from mle_gym.task_schema import StrList, TaskFile, none_to, validate_task_file
from mle_gym.task_spec import TaskSpec


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
    (``repository``: the git URL its task.yaml declares, if any)."""

    config: MLBenchConfig
    repository: str | None = None


def parse_task(folder: Path, raw: dict[str, Any], family: str) -> MLBenchTask:
    """``raw`` (``folder``'s task.yaml) checked against :class:`MLBenchTaskFile` and
    parsed; TaskError naming the field at fault."""
    model = validate_task_file(MLBenchTaskFile, raw, folder / "task.yaml")
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


def task_config(task: TaskSpec) -> MLBenchConfig:
    """The settings ``task``'s task.yaml gives (TaskError naming a bad field)."""
    if isinstance(task, MLBenchTask):
        return task.config
    return parse_task(task.folder, task.raw, task.family).config
