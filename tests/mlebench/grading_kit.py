"""Grading test cases of MLE-bench task folders: the case kinds, their checks, shared oracles.

A competition's grading tests live in its folder, ``task_assets/mlebench/<id>/grading_cases.py``,
which defines ``CASES: dict[str, Check]`` (case name -> check). A check is called with the
task and a fresh temporary directory and asserts; ``tests/mlebench/test_grading_cases.py``
finds every folder's file and runs each check as the test ``<id>-<case name>``.

Tiny synthetic files in the competition's real format are graded end to end by the
project's grader, and the scores are compared with values computed independently here
(the "oracles" below and in the folders) the way MLE-bench's ``grade.py`` computes them.
The kinds of case:

* :class:`ExactCase` (through :class:`ExactGrading`): a perfect submission gets the metric's
  best value, an imperfect one exactly the expected value, a malformed one is invalid.
* :class:`WorseCase`: the same with an imperfect submission that need only score worse;
  it is its own check.
* :class:`RawCase` (``grader: raw`` competitions whose submissions are not one row per
  answers id): :class:`RawGrading`, :class:`RawFormat`, :class:`RawSampleScore`.
* :class:`KeyedRawCase` (``grader: raw``, rows keyed by a pair of columns):
  :class:`KeyedRawGrading`, :class:`KeyedRawFormat`.

Any other ``(task, tmp_path) -> None`` function is a check too (a folder's own checks).
"""

from __future__ import annotations

import importlib.util
import math
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import f1_score
from sklearn.preprocessing import MultiLabelBinarizer

from mle_gym.families.mlebench.format_check import FormatChecker
from mle_gym.families.mlebench.grade_report import GradeReport
from mle_gym.families.mlebench.grading import grade_submission
from mle_gym.grading import InvalidSubmission
from mle_gym.tasks import TaskSpec, all_tasks

Check = Callable[[TaskSpec, Path], None]
CASES_FILE = "grading_cases.py"


# ----------------------------------------------------------------- finding the cases


@cache
def load_cases(folder: Path) -> dict[str, Check]:
    """The ``CASES`` of ``folder/grading_cases.py`` (imported once per folder)."""
    path = folder / CASES_FILE
    name = f"mlebench_grading_cases.{folder.name}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    cases = getattr(module, "CASES", None)
    assert isinstance(cases, dict) and cases, f"{path} defines no CASES"
    assert all(callable(check) for check in cases.values()), path
    return cases


def tasks_with_cases() -> list[TaskSpec]:
    """Every discovered MLE-bench task whose folder has a grading_cases.py, by id.

    Task folders are found in every task root (``mle_gym.paths.task_assets_dirs()``: the
    built-in ``task_assets`` and ``$MLE_GYM_TASKS_PATH``).
    """
    specs = [s for s in all_tasks().values() if s.benchmark == "MLEBench"]
    return sorted((s for s in specs if (s.folder / CASES_FILE).is_file()), key=lambda s: s.id)


def case_params() -> list[Any]:
    """``pytest.param(task id, case name)`` per case of every folder, id ``<task>-<case>``."""
    return [
        pytest.param(spec.id, name, id=f"{spec.id}-{name}")
        for spec in tasks_with_cases()
        for name in load_cases(spec.folder)
    ]


# ----------------------------------------------------------------- writing and grading files


def write_csv(path: Path, columns: dict[str, list[object]] | pd.DataFrame) -> Path:
    """Write columns (or a frame) as CSV without the index; return the path."""
    frame = columns if isinstance(columns, pd.DataFrame) else pd.DataFrame(columns)
    frame.to_csv(path, index=False)
    return path


def grade_file(
    task: TaskSpec, tmp_path: Path, answers: Path, name: str, frame_or_text: pd.DataFrame | str
) -> GradeReport:
    """Grade a frame (written without index) or CSV text saved as ``tmp_path/name``."""
    path = tmp_path / name
    if isinstance(frame_or_text, str):
        path.write_text(frame_or_text, encoding="utf-8")
    else:
        frame_or_text.to_csv(path, index=False)
    return grade_submission(task, path, answers=answers, data_source="kaggle")


def grade_frame(
    task: TaskSpec, tmp_path: Path, name: str, frame: pd.DataFrame | dict, answers: Path
) -> GradeReport:
    """Grade columns (or a frame) saved as ``tmp_path/<name>.csv``."""
    submission = write_csv(tmp_path / f"{name}.csv", frame)
    return grade_submission(task, submission, answers=answers, data_source="kaggle")


def score(task: TaskSpec, tmp_path: Path, answers: dict, submission: dict) -> GradeReport:
    """Grade ``submission`` against ``answers`` (both columns), written into ``tmp_path``."""
    path = write_csv(tmp_path / task.answers_file, answers)
    return grade_frame(task, tmp_path, "submission", submission, path)


def is_worse(task: TaskSpec, score: float, best: float) -> bool:
    """Whether ``score`` is worse than ``best`` in the direction task.yaml declares."""
    return score > best if task.lower_is_better else score < best


def check_perfect_and_imperfect(
    task: TaskSpec,
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
    ``expected`` (an independent computation), and that is worse in the direction task.yaml
    declares; returns the imperfect submission's report."""
    perfect = grade_frame(task, tmp_path, "perfect", perfect_frame, answers)
    assert perfect.valid, perfect.message
    assert perfect.score == pytest.approx(best, abs=best_abs)

    imperfect = grade_frame(task, tmp_path, "imperfect", imperfect_frame, answers)
    assert imperfect.valid, imperfect.message
    assert imperfect.score == pytest.approx(expected, abs=1e-5)
    assert imperfect.score is not None and perfect.score is not None
    assert is_worse(task, imperfect.score, perfect.score), (imperfect.score, perfect.score)
    return imperfect


# ----------------------------------------------------------------- exact and worse cases


@dataclass
class ExactCase:
    """Synthetic files of one competition, in its real format."""

    answers: pd.DataFrame  # the private answers file as MLE-bench prepares it
    perfect: pd.DataFrame  # a submission that reproduces the answers
    imperfect: pd.DataFrame  # a deliberately worse submission ...
    expected: float  # ... and its score, computed independently here
    malformed: str  # CSV text of a submission that cannot be graded
    best: float  # the metric's best value


@dataclass(frozen=True)
class ExactGrading:
    """Check: the perfect, imperfect and malformed submissions of ``build()`` end to end."""

    build: Callable[[], ExactCase]

    def __call__(self, task: TaskSpec, tmp_path: Path) -> None:
        case = self.build()
        answers = tmp_path / task.answers_file
        case.answers.to_csv(answers, index=False)
        # rows in another order than the answers: grading aligns them by id
        check_perfect_and_imperfect(
            task,
            tmp_path,
            answers,
            case.perfect.iloc[::-1],
            case.imperfect,
            case.best,
            case.expected,
        )
        malformed = grade_file(task, tmp_path, answers, "malformed.csv", case.malformed)
        assert not malformed.valid
        assert malformed.score is None and malformed.message


@dataclass(frozen=True)
class WorseCase:
    """Synthetic answers plus three submissions for one competition; a check itself."""

    answers: dict[str, list[object]]  # columns of the answers file, in order
    imperfect: dict[str, list[object]]  # a valid submission that scores worse
    malformed: dict[str, list[object]]  # a submission that cannot be scored
    best: float  # the score of the perfect submission
    perfect: Callable[[pd.DataFrame], pd.DataFrame] | None = None  # default: copy the targets

    def perfect_frame(self, task: TaskSpec, answers: Path) -> pd.DataFrame:
        """The perfect submission built from the answers file as written."""
        frame = pd.read_csv(answers, dtype=str, keep_default_na=False)
        if self.perfect is not None:
            return self.perfect(frame)
        return frame[[task.submission.id_column, *task.submission.target_columns]]

    def __call__(self, task: TaskSpec, tmp_path: Path) -> None:
        answers = write_csv(tmp_path / task.answers_file, self.answers)

        perfect = grade_frame(task, tmp_path, "perfect", self.perfect_frame(task, answers), answers)
        assert perfect.valid, perfect.message
        assert perfect.score == pytest.approx(self.best, abs=1e-5)

        imperfect = grade_frame(task, tmp_path, "imperfect", self.imperfect, answers)
        assert imperfect.valid, imperfect.message
        assert imperfect.score is not None and math.isfinite(imperfect.score)
        assert is_worse(task, imperfect.score, perfect.score), (imperfect.score, perfect.score)

        malformed = grade_frame(task, tmp_path, "malformed", self.malformed, answers)
        assert not malformed.valid
        assert malformed.score is None and malformed.message


# ----------------------------------------------------------------- raw cases


@dataclass
class RawCase:
    """Synthetic files of a ``grader: raw`` competition, in its real format."""

    answers: pd.DataFrame  # the private answers file as MLE-bench prepares it
    sample: pd.DataFrame  # the public sample submission
    perfect: pd.DataFrame  # a submission that reproduces the answers
    imperfect: pd.DataFrame  # a deliberately worse submission ...
    expected: float  # ... and its score, computed independently here
    malformed: str  # CSV text of a submission that cannot be graded ...
    complaint: str  # ... and a fragment of the message saying why
    best: float  # the metric's best value


def raw_files(
    task: TaskSpec, build: Callable[[], RawCase], tmp_path: Path
) -> tuple[TaskSpec, RawCase, Path]:
    """The task, the built case and its answers file written into ``tmp_path``."""
    case = build()
    answers = tmp_path / task.answers_file
    case.answers.to_csv(answers, index=False)
    return task, case, answers


@dataclass(frozen=True)
class RawGrading:
    """Check: a raw case's perfect, imperfect and malformed submissions end to end."""

    build: Callable[[], RawCase]

    def __call__(self, task: TaskSpec, tmp_path: Path) -> None:
        task, case, answers = raw_files(task, self.build, tmp_path)
        check_perfect_and_imperfect(
            task, tmp_path, answers, case.perfect, case.imperfect, case.best, case.expected
        )
        malformed = grade_file(task, tmp_path, answers, "malformed.csv", case.malformed)
        assert not malformed.valid and malformed.score is None
        assert case.complaint in malformed.message


@dataclass(frozen=True)
class RawFormat:
    """Check: the raw grader's format check against the public sample submission."""

    build: Callable[[], RawCase]

    def __call__(self, task: TaskSpec, tmp_path: Path) -> None:
        case = self.build()
        sample = tmp_path / "sample_submission.csv"
        case.sample.to_csv(sample, index=False)
        checker = FormatChecker(task, sample)
        assert checker.check(sample, "sample_submission.csv").startswith("valid")
        for name, frame in (("perfect", case.perfect), ("imperfect", case.imperfect)):
            frame.to_csv(tmp_path / f"{name}.csv", index=False)
            assert checker.check(tmp_path / f"{name}.csv", f"{name}.csv").startswith("valid")
        renamed = case.sample.rename(columns={case.sample.columns[-1]: "target"})
        renamed.to_csv(tmp_path / "renamed.csv", index=False)
        with pytest.raises(InvalidSubmission, match="header must hold exactly") as err:
            checker.check(tmp_path / "renamed.csv", "renamed.csv")
        assert "missing" in str(err.value) and "unexpected target" in str(err.value)
        extra = case.sample.assign(Unnamed=0)
        extra.to_csv(tmp_path / "extra.csv", index=False)
        with pytest.raises(InvalidSubmission, match="unexpected Unnamed"):
            checker.check(tmp_path / "extra.csv", "extra.csv")


@dataclass(frozen=True)
class RawSampleScore:
    """Check: the public sample submission scores what the leaderboard says it scores."""

    build: Callable[[], RawCase]

    def __call__(self, task: TaskSpec, tmp_path: Path) -> None:
        task, case, answers = raw_files(task, self.build, tmp_path)
        report = grade_file(task, tmp_path, answers, "sample.csv", case.sample)
        assert report.valid, report.message
        assert task.leaderboard is not None
        assert report.score == pytest.approx(task.leaderboard.sample_submission_score, abs=1e-5)


@dataclass(frozen=True)
class KeyedRawCase:
    """Synthetic files of a ``grader: raw`` competition (rows keyed by a pair of columns)."""

    answers: pd.DataFrame  # the private answers file as MLE-bench prepares it
    sample: pd.DataFrame  # the public sample submission
    imperfect: pd.DataFrame  # a valid submission that scores worse ...
    expected: float  # ... its score, computed here the way MLE-bench's grade.py does
    malformed: pd.DataFrame  # a submission that cannot be scored ...
    complaint: str  # ... and a fragment of the message saying why
    best: float  # the score of the perfect submission (the answers' own columns)
    columns: tuple[str, ...]  # the submission's columns


def keyed_raw_files(
    task: TaskSpec, build: Callable[[], KeyedRawCase], tmp_path: Path
) -> tuple[TaskSpec, KeyedRawCase, Path]:
    """The task, the built case and its answers file written into ``tmp_path``."""
    case = build()
    return task, case, write_csv(tmp_path / task.answers_file, case.answers)


@dataclass(frozen=True)
class KeyedRawGrading:
    """Check: a keyed raw case end to end, rows matched by their pair of key columns."""

    build: Callable[[], KeyedRawCase]

    def __call__(self, task: TaskSpec, tmp_path: Path) -> None:
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
        assert shuffled.score == imperfect.score

        sample = grade_frame(task, tmp_path, "sample", case.sample, answers)
        assert sample.valid, sample.message

        malformed = grade_frame(task, tmp_path, "malformed", case.malformed, answers)
        assert not malformed.valid and malformed.score is None
        assert case.complaint in malformed.message


@dataclass(frozen=True)
class KeyedRawFormat:
    """Check: the keyed raw grader's format check against the public sample submission."""

    build: Callable[[], KeyedRawCase]

    def __call__(self, task: TaskSpec, tmp_path: Path) -> None:
        case = self.build()
        sample = write_csv(tmp_path / "sample_submission.csv", case.sample)
        checker = FormatChecker(task, sample)
        assert checker.check(sample, "sample_submission.csv").startswith("valid")
        good = write_csv(tmp_path / "imperfect.csv", case.imperfect)
        assert checker.check(good, "imperfect.csv").startswith("valid")
        renamed = case.sample.rename(columns={case.columns[0]: "Id"})
        header = write_csv(tmp_path / "header.csv", renamed)
        with pytest.raises(InvalidSubmission, match="header must hold exactly") as err:
            checker.check(header, "header.csv")
        assert f"missing {case.columns[0]}" in str(err.value) and "unexpected Id" in str(err.value)
        with pytest.raises(InvalidSubmission, match=re.escape(case.complaint)):
            checker.check(write_csv(tmp_path / "bad.csv", case.malformed), "bad.csv")


# ----------------------------------------------------------------- independent references


def levenshtein(a: str, b: str) -> int:
    """Plain dynamic-programming edit distance."""
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def ap_at_k(actual: set[str], ranked: list[str], k: int) -> float:
    """Average precision at ``k`` of a ranked list against the set of right items."""
    hits, total = 0, 0.0
    for i, item in enumerate(ranked[:k]):
        if item in actual and item not in ranked[:i]:
            hits += 1
            total += hits / (i + 1)
    return total / min(len(actual), k)


def dense_mask(rle: str, height: int, width: int) -> np.ndarray:
    """Column-major 1-based RLE decoded pixel by pixel."""
    flat = np.zeros(height * width, dtype=bool)
    numbers = [int(v) for v in rle.split()]
    for start, length in zip(numbers[0::2], numbers[1::2], strict=True):
        flat[start - 1 : start - 1 + length] = True
    return flat.reshape((width, height)).T


def micro_f1_like_mlebench(truth: list[str], predicted: list[str]) -> float:
    """Micro F1 over space-separated label lists, unknown predicted labels ignored."""
    classes = sorted({tag for cell in truth for tag in cell.split()})
    binarizer = MultiLabelBinarizer(classes=classes)
    y_true = binarizer.fit_transform([cell.split() for cell in truth])
    with pytest.warns(UserWarning):  # unknown labels are ignored, with a warning
        y_pred = binarizer.transform([cell.split() for cell in predicted])
    return f1_score(y_true, y_pred, average="micro")


def macro_f1(truth: list[int], guess: list[int]) -> float:
    """Macro-averaged F1 of class labels."""
    return f1_score(truth, guess, average="macro")


def case_classes(
    id_col: str,
    target: str,
    ids: list[str],
    truth: list[int],
    guess: list[int],
    scorer: Callable[[list[int], list[int]], float],
    best: float = 1.0,
) -> ExactCase:
    """An :class:`ExactCase` for one class label per id, scored by ``scorer``."""
    answers = pd.DataFrame({id_col: ids, target: truth})
    imperfect = pd.DataFrame({id_col: ids, target: guess})
    malformed = f"{id_col},{target}\n" + "".join(f"{i},2.5\n" for i in ids)
    return ExactCase(answers, answers.copy(), imperfect, scorer(truth, guess), malformed, best)


def case_tag_lists(id_col: str, target: str, extra: dict[str, list[str]]) -> ExactCase:
    """An :class:`ExactCase` for space-separated tag lists, scored by micro F1."""
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
