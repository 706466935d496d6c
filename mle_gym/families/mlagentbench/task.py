"""The ``mlagentbench:`` block of an MLAgentBench task.yaml, parsed and checked.

::

    mlagentbench:
      run: python train.py          # how the starter code produces its result
      outputs: [submission.csv]     # workspace files (globs) the evaluator reads
      read_only: ["data/*"]         # workspace globs no tool may change
      baseline:
        mode: measured              # measured: run the starter code (seeds), cached per
                                    #   data variant; in_run: the evaluator times the
                                    #   starter against the agent's code in one run
        seeds: [0, 1, 2]
        reference: {replica-seed0: 0.123}   # figures measured by the command below
        measured_by: "..."
      requires: [torch]             # Python packages the code needs in the sandbox
      success_threshold: 0.1        # improvement needed for success (MLAgentBench: 10%)

The research problem is ``description.md``; the hidden evaluator is
``evaluate.py`` (never mounted into a sandbox); ``starter/`` holds the code copied
into every workspace; ``prepare.py`` prepares data (``download``, ``prepare``,
``replica``); ``solution/`` (optional) holds a scripted solution's files.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictInt, field_validator

from mle_gym._deprecation import moved_names
from mle_gym.families.base import spec_fields
from mle_gym.task_schema import NonEmptyStrList, TaskFile, none_to, validate_task_file
from mle_gym.task_spec import TaskError, TaskSpec

BaselineMode = Literal["measured", "in_run"]
BASELINE_MODES: tuple[str, ...] = get_args(BaselineMode)
DATA_SOURCES = ("real", "replica", "none")


def _relative_globs(value: list[str]) -> list[str]:
    for glob in value:
        if glob.startswith("/") or ".." in glob.split("/"):
            raise ValueError(f"{glob!r} must be relative to the workspace")
    return value


class BaselineFile(BaseModel):
    """``mlagentbench.baseline:`` — how the starter code's own score is obtained."""

    model_config = ConfigDict(extra="allow", frozen=True)

    mode: BaselineMode = Field(
        "measured",
        description="measured: run the starter code (seeds), cached per data variant; "
        "in_run: the evaluator times the starter against the agent's code in one run",
    )
    seeds: Annotated[list[StrictInt], Field(min_length=1)] = [0, 1, 2]
    reference: Annotated[
        dict[str, float],
        BeforeValidator(none_to({}), json_schema_input_type=dict[str, float] | None),
        Field(description="data variant -> score measured by `measured_by`"),
    ] = {}
    measured_by: str = ""


class MLAgentBenchBlock(BaseModel):
    """``mlagentbench:`` — the starter code, its outputs and its baseline."""

    model_config = ConfigDict(extra="allow", frozen=True)

    run: str = Field(description="how the starter code produces its result, e.g. 'python train.py'")
    outputs: Annotated[NonEmptyStrList, Field(min_length=1)] = Field(
        description="workspace files (globs) the evaluator reads"
    )
    read_only: NonEmptyStrList = Field(default_factory=list, description="globs no tool may change")
    baseline: Annotated[
        BaselineFile, BeforeValidator(none_to({}), json_schema_input_type=BaselineFile | None)
    ] = Field(default_factory=BaselineFile)
    requires: NonEmptyStrList = Field(
        default_factory=list, description="Python packages the code needs in the sandbox"
    )
    success_threshold: Annotated[float, Field(strict=True, ge=0)] = Field(
        0.1, description="improvement needed for success (MLAgentBench: 10%)"
    )

    @field_validator("run")
    @classmethod
    def _a_command(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must be a command, e.g. 'python train.py'")
        return value.strip()

    @field_validator("outputs", "read_only")
    @classmethod
    def _relative(cls, value: list[str]) -> list[str]:
        return _relative_globs(value)


class MLAgentBenchData(BaseModel):
    """``data:`` of an MLAgentBench task: real (how to download it), replica and/or none
    (a self-contained task)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    real: dict[str, Any] | None = Field(None, description="where the real data comes from")
    replica: Any = None
    none: Any = None


class MLAgentBenchTaskFile(TaskFile):
    """The task.yaml of an MLAgentBench task (``task_assets/mlagentbench/<id>/``)."""

    model_config = ConfigDict(title="MLAgentBench task.yaml")

    mlagentbench: MLAgentBenchBlock
    data: MLAgentBenchData

    @field_validator("data", mode="before")
    @classmethod
    def _some_source(cls, value: Any) -> Any:
        if not value:
            raise ValueError("must list real, replica or none")
        return value


@dataclass(frozen=True)
class MLABConfig:
    """A parsed ``mlagentbench:`` block (see module docstring)."""

    run: str
    outputs: tuple[str, ...]
    read_only: tuple[str, ...]
    baseline_mode: str
    baseline_seeds: tuple[int, ...]
    baseline_reference: dict[str, float]
    baseline_measured_by: str
    requires: tuple[str, ...]
    success_threshold: float
    real_source: dict[str, Any]
    has_replica: bool
    self_contained: bool


@dataclass(frozen=True, kw_only=True)
class MLAgentBenchTask(TaskSpec):
    """An MLAgentBench task: the common fields plus its parsed ``mlagentbench:`` block."""

    config: MLABConfig

    def problem(self) -> str | None:
        """Why this task cannot be graded here (its hidden evaluator is gone), or None."""
        if not (self.folder / "evaluate.py").is_file():
            return f"{self.folder}/evaluate.py is missing"
        return None


def _config(model: MLAgentBenchTaskFile, folder: Path, data: dict[str, Any]) -> MLABConfig:
    if not (folder / "evaluate.py").is_file():
        raise TaskError(f"{folder}: no evaluate.py (the hidden evaluator)")
    if not (folder / "starter").is_dir():
        raise TaskError(f"{folder}: no starter/ folder")
    block, base = model.mlagentbench, model.mlagentbench.baseline
    return MLABConfig(
        run=block.run,
        outputs=tuple(block.outputs),
        read_only=tuple(block.read_only),
        baseline_mode=base.mode,
        baseline_seeds=tuple(base.seeds),
        baseline_reference=dict(base.reference),
        baseline_measured_by=base.measured_by,
        requires=tuple(block.requires),
        success_threshold=block.success_threshold,
        real_source=dict(model.data.real or {}),
        has_replica="replica" in data,
        self_contained="none" in data,
    )


def parse_task(
    folder: Path,
    raw: dict[str, Any],
    family: str,
    model_class: type[MLAgentBenchTaskFile] = MLAgentBenchTaskFile,
) -> MLAgentBenchTask:
    """``raw`` (``folder``'s task.yaml) checked against ``model_class`` (a subclass of
    :class:`MLAgentBenchTaskFile`) and parsed; TaskError naming the field at fault, or the
    file the folder lacks."""
    model = validate_task_file(model_class, raw, folder / "task.yaml")
    fields = spec_fields(model, folder, raw, family)
    return MLAgentBenchTask(**fields, config=_config(model, folder, fields["data"]))


# the options model, which moved to .options
__getattr__ = moved_names(
    __name__, {"MLAgentBenchOptions": "mle_gym.families.mlagentbench.options:MLAgentBenchOptions"}
)


def parse_config(task: TaskSpec) -> MLABConfig:
    """The ``mlagentbench:`` block of ``task``, parsed and checked (TaskError naming the
    field otherwise)."""
    if isinstance(task, MLAgentBenchTask):
        return task.config
    return parse_task(task.folder, task.raw, task.family).config
