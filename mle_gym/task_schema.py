"""The ``task.yaml`` schema shared by every family: pydantic models and their errors.

:class:`TaskFile` has the fields every task file has (id, benchmark, title, version,
family, metric, direction, split, limits, leakage, data); a family's model subclasses
it with the family's own blocks (``TaskFamily.task_file``: ``submission:`` and
``leaderboard:`` for MLE-bench, ``mlagentbench:``, ``mlbench:``). Unknown top-level keys
are accepted and kept in :attr:`mle_gym.tasks.TaskSpec.raw`; unknown ``limits`` are an
error. :func:`validate_task_file` turns pydantic's ValidationError into a
:class:`~mle_gym.tasks.TaskError` naming the file and the field at fault, and
:func:`validate_options` does the same for a family's options.
``scripts/gen_task_schema.py`` publishes every family's model as ``docs/task.schema.json``.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Mapping
from typing import Annotated, Any, TypeVar, get_args

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, field_validator

from mle_gym._deprecation import moved_attribute, renamed_attribute


def listify(value: Any) -> Any:
    """A bare string stands for a one-element list; None for an empty one."""
    if value is None:
        return []
    return [value] if isinstance(value, str) else value


def none_to(empty: Any) -> Callable[[Any], Any]:
    """A before-validator reading null (an empty YAML value) as ``empty``."""
    return lambda value: empty if value is None else value


NonEmptyStr = Annotated[str, Field(min_length=1)]
#: a list of strings that may be written as one string (or left empty)
StrList = Annotated[
    list[str], BeforeValidator(listify, json_schema_input_type=str | list[str] | None)
]
#: a list of non-empty strings that may be written as one string (or left empty)
NonEmptyStrList = Annotated[
    list[NonEmptyStr],
    BeforeValidator(listify, json_schema_input_type=NonEmptyStr | list[NonEmptyStr] | None),
]
#: a positive, finite number
PositiveFloat = Annotated[float, Field(gt=0, allow_inf_nan=False)]
PositiveInt = Annotated[int, Field(gt=0)]


class OpenBlock(BaseModel):
    """A block whose unknown keys are accepted (kept in ``TaskSpec.raw``)."""

    model_config = ConfigDict(extra="allow", frozen=True)


class ClosedBlock(BaseModel):
    """A block whose unknown keys are an error."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class LimitsFile(ClosedBlock):
    """``limits:`` — budgets and sandbox limits (each overridable by ``gym.make``)."""

    max_steps: PositiveInt = Field(50, description="steps before the episode is truncated")
    time_budget_s: PositiveFloat = Field(7200.0, description="wall-clock budget of an episode")
    exec_timeout_s: PositiveFloat = Field(600.0, description="timeout of one command")
    memory_mb: PositiveInt = Field(4096, description="sandbox memory limit")
    pids: PositiveInt = Field(512, description="sandbox process limit")
    cpus: PositiveFloat = Field(1.0, description="sandbox CPU share")
    cpu_time_s: PositiveInt = Field(3600, description="CPU seconds of one command")
    disk_mb: PositiveInt = Field(10240, description="workspace quota")


class TaskFile(OpenBlock):
    """The fields every task.yaml has, whatever its family; a family's model subclasses
    it with the family's own blocks (``TaskFamily.task_file``)."""

    model_config = ConfigDict(title="task.yaml")

    id: str = Field(description="the task id; equals the folder name")
    benchmark: str = Field(description="MLEBench, MLAgentBench, MLBench...")
    title: str | None = Field(None, description="defaults to the id")
    version: int = Field(0, description="the -v<version> of the gymnasium id")
    family: str | None = Field(
        None, description="task family (default: by benchmark); a name or 'module:Class'"
    )
    metric: str
    lower_is_better: bool = False
    split: str | None = None
    limits: LimitsFile = Field(default_factory=LimitsFile)
    leakage: str | None = Field(None, description="why the test labels leak, if they do")
    # a family's model gives the block its shape (here: a mapping, or nothing)
    data: Any = Field(default_factory=dict, description="data sources")

    @field_validator("data", mode="before")
    @classmethod
    def _data_mapping(cls, value: Any) -> Any:
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise ValueError(f"must be a mapping of data sources, got {type(value).__name__}")
        return value

    @field_validator("leakage", mode="before")
    @classmethod
    def _leakage_text(cls, value: Any) -> Any:
        return (str(value).strip() or None) if value else None


# -- errors ---------------------------------------------------------------------------------

M = TypeVar("M", bound=BaseModel)


def _inner_model(annotation: Any) -> type[BaseModel] | None:
    """The model class inside ``annotation`` (unwrapping ``X | None``), if any."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        for arg in get_args(annotation):
            found = _inner_model(arg)
            if found is not None:
                return found
    return None


def _model_at(model: type[BaseModel], loc: tuple[Any, ...]) -> type[BaseModel] | None:
    """The model of the block at ``loc`` (a mapping's path), or None."""
    current: type[BaseModel] | None = model
    for key in loc:
        if current is None or key not in current.model_fields:
            return None
        current = _inner_model(current.model_fields[key].annotation)
    return current


def _path(loc: tuple[Any, ...]) -> str:
    out = ""
    for key in loc:
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else str(key))
    return out


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _describe(model: type[BaseModel], err: Mapping[str, Any], noun: str) -> str:
    loc = tuple(err["loc"])
    path = _path(loc)
    kind = err["type"]
    parent = _model_at(model, loc[:-1])
    field = parent.model_fields.get(loc[-1]) if parent and loc else None
    if kind == "missing" or (
        err.get("input") is None and field is not None and field.is_required()
    ):
        return f"missing required {noun} '{path}'"
    if kind == "extra_forbidden":
        known = f"; known: {', '.join(parent.model_fields)}" if parent else ""
        return f"unknown {noun} '{path}'{known}"
    message = str(err["msg"]).removeprefix("Value error, ")
    if kind in ("value_error", "assertion_error"):  # our own checks say what they got
        return f"{path}: {message}" if path else message
    return f"{path}: {message} (got {_short(err.get('input'))})"


def describe_validation_error(
    model: type[BaseModel], exc: ValidationError, *, noun: str = "field", limit: int = 3
) -> str:
    """A one-line account of ``exc`` naming each ``noun`` at fault (at most ``limit``)."""
    errors = exc.errors(include_url=False)
    parts = [_describe(model, e, noun) for e in errors[:limit]]
    if len(errors) > limit:
        parts.append(f"and {len(errors) - limit} more")
    return "; ".join(parts)


def validate_task_file(model: type[M], raw: Mapping[str, Any], where: object) -> M:
    """``raw`` (a parsed task.yaml) checked against ``model``.

    Raises :class:`mle_gym.tasks.TaskError` ``"<where>: <field>: <what is wrong>"``.
    """
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        from mle_gym.task_spec import TaskError

        raise TaskError(f"{where}: {describe_validation_error(model, exc)}") from None


def validate_options(model: type[M], options: Mapping[str, Any], where: str) -> M:
    """A family's ``options`` (its ``gym.make`` keywords) checked against ``model``
    (usually with ``extra="forbid"``); raises ValueError ``"<where>: unknown option 'x';
    known: ..."`` or naming the option with a bad value."""
    try:
        return model.model_validate(dict(options))
    except ValidationError as exc:
        message = describe_validation_error(model, exc, noun="option")
        raise ValueError(f"{where}: {message}") from None


_MOVED_MODELS = (
    "MLEBenchTaskFile",
    "MLEBenchSubmissionFile",
    "MLEBenchFilesFile",
    "MLEBenchDataFile",
    "SubmissionFile",
    "FilesFile",
    "LeaderboardFile",
    "KaggleSourceFile",
    "ReplicaSourceFile",
    "TargetKind",
    "GraderKind",
    "TARGET_KINDS",
    "GRADER_KINDS",
    "MLEBENCH_SOURCES",
    "QUANTILE_COUNT",
)
_MOVED = {n: f"mle_gym.families.mlebench.task:{n}" for n in _MOVED_MODELS}


def __getattr__(name: str) -> Any:
    """MLE-bench's task.yaml models (moved to :mod:`mle_gym.families.mlebench.task`) and
    ``FamilyTaskFile`` / ``FamilyTaskFields``, former names of :class:`TaskFile` (which
    has only the fields every task file has: the MLE-bench-shaped ``submission``,
    ``files`` and ``grader`` it had are MLE-bench's model's now)."""
    if name in ("FamilyTaskFile", "FamilyTaskFields"):
        return renamed_attribute(__name__, name, {name: "TaskFile"}, globals())
    return moved_attribute(__name__, name, _MOVED)
