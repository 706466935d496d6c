"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

from pathlib import Path

from mle_gym.families.mlebench.testing import Check, MLEBenchTask, WorseCase, assert_score, score

CASE = WorseCase(
    answers={
        "prediction_id": ["10008_L", "10008_R", "10011_L", "10011_R"],
        "cancer": [0, 1, 0, 1],
    },
    imperfect={
        "prediction_id": ["10008_L", "10008_R", "10011_L", "10011_R"],
        "cancer": [0.5, 0.5, 0.5, 0.5],
    },
    malformed={
        "prediction_id": ["10008_L", "10008_R", "10011_L", "10011_R"],
        "cancer": [0, "likely", 0, 0.2],
    },
    best=1.0,
)


def predictions_are_clipped(task: MLEBenchTask, tmp_path: Path) -> None:
    case = CASE
    ids = case.answers["prediction_id"]
    clipped = {"prediction_id": ids, "cancer": [-3, 1.7, 0, 4]}
    report = score(task, tmp_path, case.answers, clipped)
    assert_score(report, 1.0)
    # all zero: MLE-bench's precision is 0/0 = NaN in numpy, and the score 0
    zeros = {"prediction_id": ids, "cancer": [0, 0, 0, -0.2]}
    report = score(task, tmp_path, case.answers, zeros)
    assert_score(report, 0.0)


CASES: dict[str, Check] = {
    "grading": CASE,
    "predictions-are-clipped": predictions_are_clipped,
}
