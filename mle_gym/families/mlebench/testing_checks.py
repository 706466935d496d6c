"""The kinds of MLE-bench grading case, their checks and the assertions they are made of.

Part of :mod:`mle_gym.families.mlebench.testing` (which re-exports every public name here
and describes the ``grading_cases.py`` format); import from there.

Every check grades tiny synthetic files end to end with the project's grader
(:func:`~mle_gym.families.mlebench.grading.grade_submission`, on ``data_source="kaggle"``)
and raises ``AssertionError`` when a score, a validity or a message is not what the case
says. No check relies on the ``assert`` statement: every failure is raised explicitly
(:func:`fail`, :func:`expect` and the helpers built on them: :func:`assert_close`,
:func:`assert_score`, :func:`assert_invalid`, :func:`raises`), so the checks hold under
``python -O`` too, and the module needs neither pytest nor scikit-learn.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from mle_gym.families.mlebench.format_check import FormatChecker
from mle_gym.families.mlebench.grade_report import GradeReport
from mle_gym.families.mlebench.grading import grade_submission
from mle_gym.families.mlebench.task import MLEBenchTask
from mle_gym.families.mlebench.testing_assertions import (
    Raised,
    assert_close,
    expect,
    fail,
    raises,
)
from mle_gym.families.mlebench.testing_oracles import micro_f1_like_mlebench
from mle_gym.grading.errors import InvalidSubmission

#: A grading case: called with the task and a fresh, empty temporary directory; returns
#: normally when the case holds and raises ``AssertionError`` when it does not.
Check = Callable[[MLEBenchTask, Path], None]

# ----------------------------------------------------------------- assertions


def assert_score(
    report: GradeReport,
    expected: float,
    *,
    rel: float | None = None,
    abs: float | None = None,
) -> None:
    """The submission of ``report`` is valid and scores ``expected`` (:func:`close`, the
    tolerances of ``pytest.approx``); else ``AssertionError`` saying which is not so."""
    expect(report.valid, f"the submission is invalid: {report.message}")
    assert_close(report.score, expected, rel=rel, abs=abs, what="score")


def assert_invalid(report: GradeReport, fragment: str = "") -> None:
    """The submission of ``report`` is invalid, has no score, and its message is not empty
    and contains ``fragment``; else ``AssertionError`` saying which is not so."""
    expect(not report.valid, f"the submission is valid (score {report.score})")
    expect(report.score is None, f"an invalid submission has the score {report.score!r}")
    expect(report.message, "an invalid submission without a message")
    expect(
        fragment in report.message,
        f"{fragment!r} is not in the message of the invalid submission: {report.message!r}",
    )


def _score_of(report: GradeReport, what: str) -> float:
    """The score of a valid ``report``; ``AssertionError`` naming ``what`` if it has none."""
    if not report.valid or report.score is None:
        fail(f"the {what} submission has no score: {report.message}")
    return report.score


def _expect_worse(task: MLEBenchTask, imperfect: float, perfect: float) -> None:
    """``AssertionError`` unless ``imperfect`` scores worse than ``perfect``."""
    direction = "lower" if task.lower_is_better else "higher"
    expect(
        is_worse(task, imperfect, perfect),
        f"the imperfect submission's score {imperfect!r} is not worse than the perfect "
        f"one's {perfect!r} ({direction} is better)",
    )


def _expect_format_valid(checker: FormatChecker, path: Path, shown_as: str) -> None:
    """``AssertionError`` unless the format check accepts the file ``path``."""
    try:
        said = checker.check(path, shown_as)
    except InvalidSubmission as err:
        fail(f"the format check refuses {shown_as}, which it should accept: {err}")
    expect(said.startswith("valid"), f"the format check of {shown_as} says {said!r}")


def expect_invalid(match: str | None = None) -> AbstractContextManager[Raised[InvalidSubmission]]:
    """``raises(InvalidSubmission, match=match)``: a block that must refuse a submission."""
    return raises(InvalidSubmission, match=match)


# ----------------------------------------------------------------- writing and grading files


def write_csv(path: Path, columns: dict[str, Any] | pd.DataFrame) -> Path:
    """Write columns (name -> values, in order) or a frame as CSV without the index; return
    ``path``."""
    frame = columns if isinstance(columns, pd.DataFrame) else pd.DataFrame(columns)
    frame.to_csv(path, index=False)
    return path


def grade_file(
    task: MLEBenchTask,
    tmp_path: Path,
    answers: Path,
    name: str,
    frame_or_text: pd.DataFrame | str,
    *,
    grading: str = "strict",
) -> GradeReport:
    """Grade, against ``answers``, a frame (written without index) or CSV text saved as
    ``tmp_path/name``. The case kinds of this module check the strict grader
    (``grading="strict"``, the default here); pass ``grading="mlebench"`` for MLE-bench's
    verdict (see :class:`~mle_gym.families.mlebench.testing_parity.ParityCase`)."""
    path = tmp_path / name
    if isinstance(frame_or_text, str):
        path.write_text(frame_or_text, encoding="utf-8")
    else:
        frame_or_text.to_csv(path, index=False)
    return grade_submission(task, path, answers=answers, data_source="kaggle", grading=grading)


def grade_frame(
    task: MLEBenchTask,
    tmp_path: Path,
    name: str,
    frame: pd.DataFrame | dict[str, Any],
    answers: Path,
    *,
    grading: str = "strict",
) -> GradeReport:
    """Grade, against ``answers``, columns (or a frame) saved as ``tmp_path/<name>.csv``
    (strictly unless ``grading`` says otherwise, as :func:`grade_file`)."""
    submission = write_csv(tmp_path / f"{name}.csv", frame)
    return grade_submission(
        task, submission, answers=answers, data_source="kaggle", grading=grading
    )


def score(
    task: MLEBenchTask,
    tmp_path: Path,
    answers: dict[str, Any],
    submission: dict[str, Any],
    *,
    grading: str = "strict",
) -> GradeReport:
    """Grade ``submission`` against ``answers`` (both columns), written into ``tmp_path``
    (the answers as ``task.answers_file``; strictly unless ``grading`` says otherwise)."""
    path = write_csv(tmp_path / task.answers_file, answers)
    return grade_frame(task, tmp_path, "submission", submission, path, grading=grading)


def is_worse(task: MLEBenchTask, score: float, best: float) -> bool:
    """Whether ``score`` is worse than ``best`` in the direction task.yaml declares."""
    return score > best if task.lower_is_better else score < best


def check_perfect_and_imperfect(
    task: MLEBenchTask,
    tmp_path: Path,
    answers: Path,
    perfect_frame: pd.DataFrame,
    imperfect_frame: pd.DataFrame,
    best: float,
    expected: float,
    *,
    best_abs: float = 1e-5,
) -> GradeReport:
    """The perfect submission scores ``best`` (within ``best_abs``), the imperfect one
    ``expected`` (within 1e-5: absolute tolerances only), and that is worse in the direction
    task.yaml declares; returns the imperfect submission's report. ``AssertionError`` if
    not."""
    perfect = grade_frame(task, tmp_path, "perfect", perfect_frame, answers)
    assert_score(perfect, best, abs=best_abs)

    imperfect = grade_frame(task, tmp_path, "imperfect", imperfect_frame, answers)
    assert_score(imperfect, expected, abs=1e-5)
    _expect_worse(task, _score_of(imperfect, "imperfect"), _score_of(perfect, "perfect"))
    return imperfect


# ----------------------------------------------------------------- exact and worse cases


@dataclass
class ExactCase:
    """Synthetic files of one competition, in its real format."""

    answers: pd.DataFrame  # the private answers file as MLE-bench prepares it
    perfect: pd.DataFrame  # a submission that reproduces the answers
    imperfect: pd.DataFrame  # a deliberately worse submission ...
    expected: float  # ... and its score, computed independently
    malformed: str  # CSV text of a submission that cannot be graded
    best: float  # the metric's best value


@dataclass(frozen=True)
class ExactGrading:
    """Check: the perfect, imperfect and malformed submissions of ``build()`` end to end.

    The perfect submission (its rows reversed: grading aligns rows by id) must score
    ``best``, the imperfect one exactly ``expected`` and worse, the malformed one must be
    invalid with a message. ``build`` is called with no argument, or with the task when
    ``takes_task`` (for a case that needs the task's columns).
    """

    build: Callable[..., ExactCase]
    takes_task: bool = False

    def case(self, task: MLEBenchTask) -> ExactCase:
        """The built case (a fresh one per call)."""
        return self.build(task) if self.takes_task else self.build()

    def __call__(self, task: MLEBenchTask, tmp_path: Path) -> None:
        case = self.case(task)
        answers = write_csv(tmp_path / task.answers_file, case.answers)
        check_perfect_and_imperfect(
            task,
            tmp_path,
            answers,
            case.perfect.iloc[::-1],
            case.imperfect,
            case.best,
            case.expected,
        )
        assert_invalid(grade_file(task, tmp_path, answers, "malformed.csv", case.malformed))


@dataclass(frozen=True)
class WorseCase:
    """Synthetic answers plus three submissions for one competition; a check itself.

    The perfect submission (``perfect(answers frame)``, by default the answers' id and
    target columns) must score ``best``; the imperfect one a finite score worse than that;
    the malformed one must be invalid with a message.
    """

    answers: dict[str, list[Any]]  # columns of the answers file, in order
    imperfect: dict[str, list[Any]]  # a valid submission that scores worse
    malformed: dict[str, list[Any]]  # a submission that cannot be scored
    best: float  # the score of the perfect submission
    perfect: Callable[[pd.DataFrame], pd.DataFrame] | None = None  # default: copy the targets

    def perfect_frame(self, task: MLEBenchTask, answers: Path) -> pd.DataFrame:
        """The perfect submission built from the answers file as written (read as text)."""
        frame = pd.read_csv(answers, dtype=str, keep_default_na=False)
        if self.perfect is not None:
            return self.perfect(frame)
        return frame[[task.submission.id_column, *task.submission.target_columns]]

    def __call__(self, task: MLEBenchTask, tmp_path: Path) -> None:
        answers = write_csv(tmp_path / task.answers_file, self.answers)

        perfect = grade_frame(task, tmp_path, "perfect", self.perfect_frame(task, answers), answers)
        assert_score(perfect, self.best, abs=1e-5)

        imperfect = grade_frame(task, tmp_path, "imperfect", self.imperfect, answers)
        imperfect_score = _score_of(imperfect, "imperfect")
        expect(
            math.isfinite(imperfect_score),
            f"the imperfect submission's score is not finite: {imperfect_score!r}",
        )
        _expect_worse(task, imperfect_score, _score_of(perfect, "perfect"))

        assert_invalid(grade_frame(task, tmp_path, "malformed", self.malformed, answers))


# ----------------------------------------------------------------- raw cases


@dataclass
class RawCase:
    """Synthetic files of a ``grader: raw`` competition, in its real format."""

    answers: pd.DataFrame  # the private answers file as MLE-bench prepares it
    sample: pd.DataFrame  # the public sample submission
    perfect: pd.DataFrame  # a submission that reproduces the answers
    imperfect: pd.DataFrame  # a deliberately worse submission ...
    expected: float  # ... and its score, computed independently
    malformed: str  # CSV text of a submission that cannot be graded ...
    complaint: str  # ... and a fragment of the message saying why
    best: float  # the metric's best value


def raw_files(
    task: MLEBenchTask, build: Callable[[], RawCase], tmp_path: Path
) -> tuple[MLEBenchTask, RawCase, Path]:
    """The task, the built case and its answers file written into ``tmp_path``."""
    case = build()
    answers = write_csv(tmp_path / task.answers_file, case.answers)
    return task, case, answers


@dataclass(frozen=True)
class RawGrading:
    """Check: a raw case's perfect, imperfect and malformed submissions end to end (the
    malformed one invalid with ``complaint`` in its message)."""

    build: Callable[[], RawCase]

    def __call__(self, task: MLEBenchTask, tmp_path: Path) -> None:
        task, case, answers = raw_files(task, self.build, tmp_path)
        check_perfect_and_imperfect(
            task, tmp_path, answers, case.perfect, case.imperfect, case.best, case.expected
        )
        malformed = grade_file(task, tmp_path, answers, "malformed.csv", case.malformed)
        assert_invalid(malformed, case.complaint)


@dataclass(frozen=True)
class RawFormat:
    """Check: the raw grader's format check against the public sample submission.

    The sample, the perfect and the imperfect submissions pass (a refusal of one of them is
    an ``AssertionError`` naming the file, not the ``InvalidSubmission`` itself); a renamed
    last column and an extra column are refused, naming what is missing and what is
    unexpected.
    """

    build: Callable[[], RawCase]

    def __call__(self, task: MLEBenchTask, tmp_path: Path) -> None:
        case = self.build()
        sample = write_csv(tmp_path / "sample_submission.csv", case.sample)
        checker = FormatChecker(task, sample)
        _expect_format_valid(checker, sample, "sample_submission.csv")
        for name, frame in (("perfect", case.perfect), ("imperfect", case.imperfect)):
            _expect_format_valid(checker, write_csv(tmp_path / f"{name}.csv", frame), f"{name}.csv")
        renamed = case.sample.rename(columns={case.sample.columns[-1]: "target"})
        renamed_path = write_csv(tmp_path / "renamed.csv", renamed)
        with expect_invalid("header must hold exactly") as err:
            checker.check(renamed_path, "renamed.csv")
        message = str(err.value)
        expect(
            "missing" in message and "unexpected target" in message,
            f"the refusal of a renamed last column should say what is 'missing' and "
            f"'unexpected target', but says {message!r}",
        )
        extra = write_csv(tmp_path / "extra.csv", case.sample.assign(Unnamed=0))
        with expect_invalid("unexpected Unnamed"):
            checker.check(extra, "extra.csv")


@dataclass(frozen=True)
class RawSampleScore:
    """Check: the public sample submission scores what the leaderboard says it scores."""

    build: Callable[[], RawCase]

    def __call__(self, task: MLEBenchTask, tmp_path: Path) -> None:
        task, case, answers = raw_files(task, self.build, tmp_path)
        report = grade_file(task, tmp_path, answers, "sample.csv", case.sample)
        if task.leaderboard is None:
            fail(f"{task.id} has no leaderboard to compare the sample's score with")
        sample_score = task.leaderboard.sample_submission_score
        if sample_score is None:
            fail(f"{task.id}'s leaderboard has no sample submission score")
        assert_score(report, sample_score, abs=1e-5)


@dataclass(frozen=True)
class KeyedRawCase:
    """Synthetic files of a ``grader: raw`` competition (rows keyed by a pair of columns)."""

    answers: pd.DataFrame  # the private answers file as MLE-bench prepares it
    sample: pd.DataFrame  # the public sample submission
    imperfect: pd.DataFrame  # a valid submission that scores worse ...
    expected: float  # ... its score, computed the way MLE-bench's grade.py does
    malformed: pd.DataFrame  # a submission that cannot be scored ...
    complaint: str  # ... and a fragment of the message saying why
    best: float  # the score of the perfect submission (the answers' own columns)
    columns: tuple[str, ...]  # the submission's columns


def keyed_raw_files(
    task: MLEBenchTask, build: Callable[[], KeyedRawCase], tmp_path: Path
) -> tuple[MLEBenchTask, KeyedRawCase, Path]:
    """The task, the built case and its answers file written into ``tmp_path``."""
    case = build()
    return task, case, write_csv(tmp_path / task.answers_file, case.answers)


@dataclass(frozen=True)
class KeyedRawGrading:
    """Check: a keyed raw case end to end, rows matched by their pair of key columns.

    The perfect submission (the answers' ``columns``) scores ``best``, the imperfect one
    ``expected`` whatever its row order, the sample is valid and the malformed one is
    invalid with ``complaint`` in its message.
    """

    build: Callable[[], KeyedRawCase]

    def __call__(self, task: MLEBenchTask, tmp_path: Path) -> None:
        task, case, answers = keyed_raw_files(task, self.build, tmp_path)
        perfect_frame = case.answers[list(case.columns)]
        imperfect = check_perfect_and_imperfect(
            task,
            tmp_path,
            answers,
            perfect_frame,
            case.imperfect,
            case.best,
            case.expected,
            best_abs=1e-9,
        )

        # rows matched by their pair of key columns: another order scores the same
        shuffled = grade_frame(task, tmp_path, "shuffled", case.imperfect.iloc[::-1], answers)
        expect(
            shuffled.score == imperfect.score,
            f"the imperfect submission scores {imperfect.score!r} but {shuffled.score!r} with "
            f"its rows reversed ({shuffled.message})",
        )

        sample = grade_frame(task, tmp_path, "sample", case.sample, answers)
        expect(sample.valid, f"the sample submission is invalid: {sample.message}")

        malformed = grade_frame(task, tmp_path, "malformed", case.malformed, answers)
        assert_invalid(malformed, case.complaint)


@dataclass(frozen=True)
class KeyedRawFormat:
    """Check: the keyed raw grader's format check against the public sample submission.

    The sample and the imperfect submission pass (a refusal of one of them is an
    ``AssertionError`` naming the file); a renamed first key column is refused naming it,
    and the malformed submission is refused with ``complaint``.
    """

    build: Callable[[], KeyedRawCase]

    def __call__(self, task: MLEBenchTask, tmp_path: Path) -> None:
        case = self.build()
        sample = write_csv(tmp_path / "sample_submission.csv", case.sample)
        checker = FormatChecker(task, sample)
        _expect_format_valid(checker, sample, "sample_submission.csv")
        good = write_csv(tmp_path / "imperfect.csv", case.imperfect)
        _expect_format_valid(checker, good, "imperfect.csv")
        renamed = case.sample.rename(columns={case.columns[0]: "Id"})
        header = write_csv(tmp_path / "header.csv", renamed)
        with expect_invalid("header must hold exactly") as err:
            checker.check(header, "header.csv")
        message = str(err.value)
        expect(
            f"missing {case.columns[0]}" in message and "unexpected Id" in message,
            f"the refusal of a renamed key column should say 'missing {case.columns[0]}' "
            f"and 'unexpected Id', but says {message!r}",
        )
        with expect_invalid(re.escape(case.complaint)):
            checker.check(write_csv(tmp_path / "bad.csv", case.malformed), "bad.csv")


# ----------------------------------------------------------------- case builders


def case_classes(
    id_col: str,
    target: str,
    ids: list[str],
    truth: list[int],
    guess: list[int],
    scorer: Callable[[list[int], list[int]], float],
    best: float = 1.0,
) -> ExactCase:
    """An :class:`ExactCase` for one class label per id, the imperfect guess scored by
    ``scorer(truth, guess)``; the malformed submission holds a non-integer label."""
    answers = pd.DataFrame({id_col: ids, target: truth})
    imperfect = pd.DataFrame({id_col: ids, target: guess})
    malformed = f"{id_col},{target}\n" + "".join(f"{i},2.5\n" for i in ids)
    return ExactCase(answers, answers.copy(), imperfect, scorer(truth, guess), malformed, best)


def case_tag_lists(id_col: str, target: str, extra: dict[str, list[str]]) -> ExactCase:
    """An :class:`ExactCase` for space-separated tag lists scored by micro F1
    (:func:`~.testing_oracles.micro_f1_like_mlebench`); ``extra`` are further answers
    columns; the malformed submission misnames the target column."""
    ids = ["101", "102", "103", "104"]
    truth = ["c# asp.net", "python", "java spring hibernate", "php"]
    guesses = ["c# zzz-unknown", "", "java spring spring", "php python"]
    answers = pd.DataFrame({id_col: ids, **extra, target: truth})
    imperfect = pd.DataFrame({id_col: ids, target: guesses})
    malformed = f"{id_col},{target.lower()}x\n" + "".join(f"{i},php\n" for i in ids)
    return ExactCase(
        answers,
        answers[[id_col, target]],
        imperfect,
        micro_f1_like_mlebench(truth, guesses),
        malformed,
        1.0,
    )
