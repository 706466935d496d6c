"""MLE-bench's task.yaml and task spec: submission columns, answer files, leaderboard, sources.

:class:`MLEBenchTaskFile` is the pydantic model of the file (published in
``docs/task.schema.json``); :func:`parse_task` turns a checked file into an
:class:`MLEBenchTask`, the :class:`~mle_gym.tasks.TaskSpec` of MLE-bench's tasks.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, get_args

from pydantic import BeforeValidator, ConfigDict, Field, field_validator, model_validator

from mle_gym.families.base import spec_fields
from mle_gym.grading.submission import SubmissionSpec
from mle_gym.task_schema import (
    ClosedBlock,
    OpenBlock,
    PositiveInt,
    StrList,
    TaskFile,
    listify,
    none_to,
    validate_task_file,
)
from mle_gym.task_spec import TaskSpec

TargetKind = Literal["binary", "integer", "numeric", "probability", "label"]
GraderKind = Literal["generic", "module", "raw", "missing"]
#: the values of :data:`TargetKind` (``mle_gym.grading.submission.TARGET_KINDS`` is a copy
#: that imports no pydantic; a test checks they agree) and of :data:`GraderKind`
TARGET_KINDS: tuple[str, ...] = get_args(TargetKind)
GRADER_KINDS: tuple[str, ...] = get_args(GraderKind)
#: the data sources of an MLE-bench task, in order of preference
MLEBENCH_SOURCES = ("kaggle", "bundled", "replica")
#: how many leaderboard quantiles ``score_at_rank_fraction`` holds (0%, 1%, ... 100%)
QUANTILE_COUNT = 101


class SubmissionFile(OpenBlock):
    """``submission:`` — the file the agent hands in (optional outside MLE-bench)."""

    file: str = Field("submission.csv", description="the file name in /workspace")
    id_column: str = ""
    target_columns: StrList = Field(default_factory=list, description="one name or a list")
    target_kind: TargetKind = "numeric"
    allow_empty: bool = Field(False, description="label targets may be blank")
    max_mb: PositiveInt = Field(200, description="the largest submission file accepted")


class FilesFile(OpenBlock):
    """``files:`` — the answers and the sample submission, inside the prepared data."""

    answers: str = ""
    sample_submission: str = ""


class MLEBenchSubmissionFile(SubmissionFile):
    """``submission:`` of an MLE-bench task: an id column and at least one target."""

    id_column: str
    target_columns: Annotated[
        list[str],
        BeforeValidator(listify, json_schema_input_type=str | list[str]),
        Field(min_length=1, description="one name or a list"),
    ]


class MLEBenchFilesFile(FilesFile):
    """``files:`` of an MLE-bench task: both files are required."""

    answers: str = Field(description="the private answers file (never shown to the agent)")
    sample_submission: str = Field(description="the public sample submission")


class LeaderboardFile(OpenBlock):
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
    ] = Field(default_factory=list)

    @field_validator("score_at_rank_fraction")
    @classmethod
    def _quantile_count(cls, value: list[float]) -> list[float]:
        if value and len(value) != QUANTILE_COUNT:
            raise ValueError(f"needs {QUANTILE_COUNT} values, got {len(value)}")
        return value


class KaggleSourceFile(OpenBlock):
    """``data.kaggle:`` — real data from the Kaggle competition."""

    competition: str | None = None
    supported: bool = Field(True, description="false: `mle-gym prepare` cannot prepare it yet")
    zip_md5: str | None = None
    prepared_md5: dict[str, str] = Field(default_factory=dict)


class ReplicaSourceFile(OpenBlock):
    """``data.replica:`` — the offline generator (``replica()`` in prepare.py)."""

    reference_score: float | None = None
    sample_submission_score: float | None = None
    measured_by: str | None = None


class MLEBenchDataFile(OpenBlock):
    """``data:`` of an MLE-bench task: at least one of kaggle, bundled, replica."""

    kaggle: KaggleSourceFile | None = None
    bundled: dict[str, Any] | None = None
    replica: ReplicaSourceFile | None = None


class QuirkFile(ClosedBlock):
    """One way MLE-bench's grader differs from strict grading."""

    mlebench: str = Field(description="what MLE-bench's grade() does (reproduced by default)")
    strict: str = Field(description='what grading="strict" does instead')


class MLEBenchGradingFile(ClosedBlock):
    """``mlebench_grading:`` — notes on the default grader (``mlebench_grade.py``)."""

    quirks: list[QuirkFile] = Field(
        default_factory=list, description="MLE-bench's grading quirks, each with the strict rule"
    )


class MLEBenchTaskFile(TaskFile):
    """The task.yaml of an MLE-bench competition (``task_assets/mlebench/<id>/``)."""

    model_config = ConfigDict(title="MLE-bench task.yaml")

    submission: MLEBenchSubmissionFile
    files: MLEBenchFilesFile
    leaderboard: LeaderboardFile | None = None
    data: MLEBenchDataFile
    grader: GraderKind | None = Field(
        None, description="default: module when grade.py exists, else generic"
    )
    mlebench_grading: MLEBenchGradingFile = Field(default_factory=MLEBenchGradingFile)

    @field_validator("leaderboard", mode="before")
    @classmethod
    def _empty_leaderboard(cls, value: Any) -> Any:
        return value or None  # an empty mapping means "no leaderboard"

    @model_validator(mode="after")
    def _has_a_source(self) -> MLEBenchTaskFile:
        if not any(getattr(self.data, s) is not None for s in MLEBENCH_SOURCES):
            raise ValueError("data lists no source (kaggle, bundled or replica)")
        return self


@dataclass(frozen=True)
class Leaderboard:
    """Human leaderboard figures (Kaggle), for medals and percentile rewards."""

    teams: int
    gold: float
    silver: float
    bronze: float
    median: float
    sample_submission_score: float | None
    score_at_rank_fraction: tuple[float, ...]


@dataclass(frozen=True)
class Quirk:
    """A behaviour of MLE-bench's grader that the default grading reproduces, and what
    strict grading does instead."""

    mlebench: str
    strict: str


@dataclass(frozen=True, kw_only=True)
class MLEBenchTask(TaskSpec):
    """An MLE-bench competition: the common fields plus what its grader needs."""

    submission: SubmissionSpec
    answers_file: str
    sample_submission_file: str
    leaderboard: Leaderboard | None = None
    grader: str = "generic"  # one of GRADER_KINDS
    quirks: tuple[Quirk, ...] = ()

    @property
    def kaggle_supported(self) -> bool:
        """True if ``mle-gym prepare`` can prepare this task's real Kaggle data."""
        cfg = self.data.get("kaggle")
        return isinstance(cfg, dict) and bool(cfg.get("supported", True))

    @property
    def sources(self) -> tuple[str, ...]:
        """Data sources this task supports, in order of preference."""
        return tuple(s for s in MLEBENCH_SOURCES if s in self.data)

    def problem(self) -> str | None:
        """Why this task cannot be graded here, or None if it can."""
        if self.grader == "missing":
            return f"no grader is implemented for {self.key} (metric {self.metric!r})"
        if self.grader in ("module", "raw"):
            if not (self.folder / "grade.py").is_file():
                return f"{self.folder}/grade.py is missing"
            return None
        from mle_gym.grading.metrics import get_metric

        try:
            get_metric(self.metric)
        except KeyError:
            return f"metric {self.metric!r} of {self.key} is not implemented"
        return None


def parse_task(
    folder: Path,
    raw: dict[str, Any],
    family: str,
    model_class: type[MLEBenchTaskFile] = MLEBenchTaskFile,
) -> MLEBenchTask:
    """``raw`` (``folder``'s task.yaml) checked against ``model_class`` (a subclass of
    :class:`MLEBenchTaskFile`) and parsed; TaskError naming the field at fault."""
    model = validate_task_file(model_class, raw, folder / "task.yaml")
    board, sub = model.leaderboard, model.submission
    return MLEBenchTask(
        **spec_fields(model, folder, raw, family),
        submission=SubmissionSpec(
            file=sub.file,
            id_column=sub.id_column,
            target_columns=tuple(sub.target_columns),
            target_kind=sub.target_kind,
            allow_empty=sub.allow_empty,
            max_mb=sub.max_mb,
        ),
        answers_file=model.files.answers,
        sample_submission_file=model.files.sample_submission,
        leaderboard=None
        if board is None
        else Leaderboard(
            teams=board.teams,
            gold=board.gold,
            silver=board.silver,
            bronze=board.bronze,
            median=board.median,
            sample_submission_score=board.sample_submission_score,
            score_at_rank_fraction=tuple(board.score_at_rank_fraction),
        ),
        grader=model.grader or ("module" if (folder / "grade.py").is_file() else "generic"),
        quirks=tuple(Quirk(q.mlebench, q.strict) for q in model.mlebench_grading.quirks),
    )
