"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from mle_gym.families.mlebench.testing import (
    Check,
    MLEBenchTask,
    ParityCase,
    WorseCase,
    assert_invalid,
    assert_score,
    score,
)

CASE = WorseCase(
    answers={"Id": ["a"], "Predicted": ["3 4 12 2"], "width": [5], "height": [4]},
    imperfect={"Id": ["a"], "Predicted": ["3 4"]},
    malformed={"Id": ["a"], "Predicted": ["12 2 3 4"]},
    best=1.0,
)


def rejects_overlapping_runs(task: MLEBenchTask, tmp_path: Path) -> None:
    case = CASE
    report = score(
        task,
        tmp_path,
        case.answers,
        {"Id": ["a"], "Predicted": ["3 4 5 2"]},
    )
    assert_invalid(report, "run-length")
    partial = score(task, tmp_path, case.answers, case.imperfect)
    assert_score(partial, 5 / 5.5, abs=1e-5)  # tp 4, fn 2, fp 0


ANSWERS = pd.DataFrame(
    {"Id": ["a", "b"], "Predicted": ["3 4 12 2", "1 10"], "width": [5, 5], "height": [4, 4]}
)
SUBMISSION = pd.DataFrame({"Id": ["a", "b"], "Predicted": ["3 4", "1 5 11 5"]})
# a: tp 4, fp 0, fn 2: precision 1, recall 2/3, F0.5 = 1.25 * (2/3) / (0.25 + 2/3) = 10/11;
# b: tp 5 (pixels 1-5), fp 5 (11-15), fn 5 (6-10): F0.5 = 0.5; mean 31/44 = 0.70455.
# Rows are paired by position: in another order the ids differ and the grader fails; the
# first answer repeated at the end (and its row too): (10/11 + 0.5 + 10/11) / 3 = 0.77273.
PARITY = ParityCase(
    ANSWERS,
    SUBMISSION,
    score=0.70455,
    expected={
        "shuffled_rows": "invalid",
        "reordered_columns": "same",
        "extra_column": "invalid",
        "index_column": "invalid",
        "missing_id": "invalid",
        "duplicate_id": "invalid",
        "unknown_id": "invalid",
        "blank_target": "invalid",
        "empty_file": "invalid",
        "header_only": "invalid",
        "duplicate_answer_keys": 0.77273,
    },
)


def positional_rows_and_space_masks(task: MLEBenchTask, tmp_path: Path) -> None:
    """A cell holding a space is an empty mask (F0.5 0); overlapping runs are rejected."""
    answers = ANSWERS.to_dict(orient="list")
    space = {"Id": ["a", "b"], "Predicted": [" ", "1 10"]}
    assert_score(score(task, tmp_path, answers, space, grading="mlebench"), 0.5)
    overlapping = {"Id": ["a", "b"], "Predicted": ["3 4 5 2", "1 10"]}
    assert_invalid(score(task, tmp_path, answers, overlapping, grading="mlebench"))


CASES: dict[str, Check] = {
    "grading": CASE,
    "rejects-overlapping-runs": rejects_overlapping_runs,
    "parity": PARITY,
    "positional-rows-and-space-masks": positional_rows_and_space_masks,
}
