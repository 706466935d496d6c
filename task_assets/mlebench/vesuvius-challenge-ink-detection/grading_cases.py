"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

from pathlib import Path

from mle_gym.families.mlebench.testing import (
    Check,
    MLEBenchTask,
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


CASES: dict[str, Check] = {
    "grading": CASE,
    "rejects-overlapping-runs": rejects_overlapping_runs,
}
