"""The ``task.yaml`` schema: pydantic models that parse, check and document a task file.

One model per shape of task file:

* :class:`MLEBenchTaskFile` — an MLE-bench competition (submission columns, answer
  files, leaderboard figures, data sources ``kaggle``/``bundled``/``replica``);
* :class:`FamilyTaskFile` — the fields every other family shares; a family adds
  its own block as a typed sub-model in a subclass (``mlbench:`` in
  :mod:`mle_gym.families.mlbench`), or subclasses :class:`FamilyTaskFields` when
  its ``data:`` has its own shape too (``mlagentbench:`` in
  :mod:`mle_gym.families.mlagentbench.config`).

Strictness is that of the hand-written parser it replaced: unknown top-level keys
(and unknown keys in ``submission``, ``files``, ``leaderboard`` and ``data``) are
accepted and kept in :attr:`mle_gym.tasks.TaskSpec.raw`; unknown ``limits`` are an
error. :func:`validate_task_file` turns pydantic's ValidationError into a
:class:`~mle_gym.tasks.TaskError` naming the file and the field at fault.
``scripts/gen_task_schema.py`` publishes the models as ``docs/task.schema.json``.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Mapping
from typing import Annotated, Any, Literal, TypeVar, get_args

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

TargetKind = Literal["binary", "integer", "numeric", "probability", "label"]
GraderKind = Literal["generic", "module", "raw", "missing"]
#: the values of :data:`TargetKind` / :data:`GraderKind` (``mle_gym.tasks`` keeps copies
#: so that importing it does not import pydantic; a test checks they agree)
TARGET_KINDS: tuple[str, ...] = get_args(TargetKind)
GRADER_KINDS: tuple[str, ...] = get_args(GraderKind)
#: the data sources of an MLE-bench task, in order of preference
MLEBENCH_SOURCES = ("kaggle", "bundled", "replica")
#: how many leaderboard quantiles ``score_at_rank_fraction`` holds (0%, 1%, ... 100%)
QUANTILE_COUNT = 101


def _listify(value: Any) -> Any:
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
    list[str], BeforeValidator(_listify, json_schema_input_type=str | list[str] | None)
]
#: a list of non-empty strings that may be written as one string (or left empty)
NonEmptyStrList = Annotated[
    list[NonEmptyStr],
    BeforeValidator(_listify, json_schema_input_type=NonEmptyStr | list[NonEmptyStr] | None),
]
#: a positive, finite number
PositiveFloat = Annotated[float, Field(gt=0, allow_inf_nan=False)]
PositiveInt = Annotated[int, Field(gt=0)]


class _Open(BaseModel):
    """A block whose unknown keys are accepted (kept in ``TaskSpec.raw``)."""

    model_config = ConfigDict(extra="allow", frozen=True)


class _Closed(BaseModel):
    """A block whose unknown keys are an error."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class LimitsFile(_Closed):
    """``limits:`` — budgets and sandbox limits (each overridable by ``gym.make``)."""

    max_steps: PositiveInt = Field(50, description="steps before the episode is truncated")
    time_budget_s: PositiveFloat = Field(7200.0, description="wall-clock budget of an episode")
    exec_timeout_s: PositiveFloat = Field(600.0, description="timeout of one command")
    memory_mb: PositiveInt = Field(4096, description="sandbox memory limit")
    pids: PositiveInt = Field(512, description="sandbox process limit")
    cpus: PositiveFloat = Field(1.0, description="sandbox CPU share")
    cpu_time_s: PositiveInt = Field(3600, description="CPU seconds of one command")
    disk_mb: PositiveInt = Field(10240, description="workspace quota")


class SubmissionFile(_Open):
    """``submission:`` — the file the agent hands in (optional outside MLE-bench)."""

    file: str = Field("submission.csv", description="the file name in /workspace")
    id_column: str = ""
    target_columns: StrList = Field(default_factory=list, description="one name or a list")
    target_kind: TargetKind = "numeric"
    allow_empty: bool = Field(False, description="label targets may be blank")
    max_mb: PositiveInt = Field(200, description="the largest submission file accepted")


class FilesFile(_Open):
    """``files:`` — the answers and the sample submission, inside the prepared data."""

    answers: str = ""
    sample_submission: str = ""


class MLEBenchSubmissionFile(SubmissionFile):
    """``submission:`` of an MLE-bench task: an id column and at least one target."""

    id_column: str
    target_columns: Annotated[
        list[str],
        BeforeValidator(_listify, json_schema_input_type=str | list[str]),
        Field(min_length=1, description="one name or a list"),
    ]


class MLEBenchFilesFile(FilesFile):
    """``files:`` of an MLE-bench task: both files are required."""

    answers: str = Field(description="the private answers file (never shown to the agent)")
    sample_submission: str = Field(description="the public sample submission")


class LeaderboardFile(_Open):
    """``leaderboard:`` — the human Kaggle leaderboard (medals, percentile reward)."""

    teams: int
    gold: float
    silver: float
    bronze: float
    median: float
    sample_submission_score: float | None = None
    score_at_rank_fraction: Annotated[
        list[float],
        BeforeValidator(none_to([]), json_schema_input_type=list[float] | None),
        Field(description=f"empty, or {QUANTILE_COUNT} scores: rank fractions 0, 0.01 ... 1"),
    ] = []

    @field_validator("score_at_rank_fraction")
    @classmethod
    def _quantile_count(cls, value: list[float]) -> list[float]:
        if value and len(value) != QUANTILE_COUNT:
            raise ValueError(f"needs {QUANTILE_COUNT} values, got {len(value)}")
        return value


class KaggleSourceFile(_Open):
    """``data.kaggle:`` — real data from the Kaggle competition."""

    competition: str | None = None
    supported: bool = Field(True, description="false: `mle-gym prepare` cannot prepare it yet")
    zip_md5: str | None = None
    prepared_md5: dict[str, str] = Field(default_factory=dict)


class ReplicaSourceFile(_Open):
    """``data.replica:`` — the offline generator (``replica()`` in prepare.py)."""

    reference_score: float | None = None
    sample_submission_score: float | None = None
    measured_by: str | None = None


class MLEBenchDataFile(_Open):
    """``data:`` of an MLE-bench task: at least one of kaggle, bundled, replica."""

    kaggle: KaggleSourceFile | None = None
    bundled: dict[str, Any] | None = None
    replica: ReplicaSourceFile | None = None


class _TaskFileBase(_Open):
    """Fields every task file has."""

    id: str = Field(description="the task id; equals the folder name")
    benchmark: str = Field(description="MLEBench, MLAgentBench, ML-Bench...")
    title: str | None = Field(None, description="defaults to the id")
    version: int = Field(0, description="the -v<version> of the gymnasium id")
    family: str | None = Field(
        None, description="task family (default: by benchmark); a name or 'module:Class'"
    )
    metric: str
    lower_is_better: bool = False
    split: str | None = None
    limits: LimitsFile = Field(default_factory=LimitsFile)


class MLEBenchTaskFile(_TaskFileBase):
    """The task.yaml of an MLE-bench competition (``task_assets/mlebench/<id>/``)."""

    model_config = ConfigDict(title="MLE-bench task.yaml")

    submission: MLEBenchSubmissionFile
    files: MLEBenchFilesFile
    leaderboard: LeaderboardFile | None = None
    data: MLEBenchDataFile
    leakage: str | None = Field(None, description="why the test labels leak, if they do")
    grader: GraderKind | None = Field(
        None, description="default: module when grade.py exists, else generic"
    )

    @field_validator("leaderboard", mode="before")
    @classmethod
    def _empty_leaderboard(cls, value: Any) -> Any:
        return value or None  # an empty mapping means "no leaderboard"

    @field_validator("leakage", mode="before")
    @classmethod
    def _leakage_text(cls, value: Any) -> Any:
        return (str(value).strip() or None) if value else None

    @model_validator(mode="after")
    def _has_a_source(self) -> MLEBenchTaskFile:
        if not any(getattr(self.data, s) is not None for s in MLEBENCH_SOURCES):
            raise ValueError("data lists no source (kaggle, bundled or replica)")
        return self


class FamilyTaskFields(_TaskFileBase):
    """The fields shared by the task.yaml of every family other than MLE-bench, ``data``
    aside; a family with its own ``data:`` shape subclasses this."""

    submission: SubmissionFile = Field(default_factory=SubmissionFile)
    files: FilesFile = Field(default_factory=FilesFile)
    grader: str | None = Field(None, description="default: module")

    @field_validator(
        "submission", "files", mode="before", json_schema_input_type=dict[str, Any] | None
    )
    @classmethod
    def _empty_block(cls, value: Any) -> Any:
        return {} if value is None else value


class FamilyTaskFile(FamilyTaskFields):
    """The task.yaml of a task of any family other than MLE-bench; a family subclasses it
    with its own block (``mlbench:``...)."""

    model_config = ConfigDict(title="task.yaml of a task family")

    data: dict[str, Any] = Field(default_factory=dict, description="data sources")

    @field_validator("data", mode="before", json_schema_input_type=dict[str, Any] | None)
    @classmethod
    def _empty_data(cls, value: Any) -> Any:
        return {} if value is None else value


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
        from mle_gym.tasks import TaskError

        raise TaskError(f"{where}: {describe_validation_error(model, exc)}") from None


def validate_options(model: type[M], options: Mapping[str, Any], where: str) -> M:
    """A family's constructor ``options`` checked against ``model`` (usually with
    ``extra="forbid"``); raises ValueError ``"<where>: unknown family_options 'x'; known:
    ..."`` or naming the option with a bad value."""
    try:
        return model.model_validate(dict(options))
    except ValidationError as exc:
        message = describe_validation_error(model, exc, noun="family_options")
        raise ValueError(f"{where}: {message}") from None
