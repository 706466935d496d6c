"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

from pathlib import Path

from mle_gym.families.mlebench.testing import Check, MLEBenchTask, WorseCase, expect, score

CASE = WorseCase(
    answers={"segment_id": [1000213997, 1000015382], "time_to_eruption": [24500000, 11250000]},
    imperfect={
        "segment_id": [1000213997, 1000015382],
        "time_to_eruption": [24500123.4, 11249000],
    },
    malformed={"segment_id": [1000213997, 1000015382], "time_to_eruption": ["soon", 0]},
    best=0.0,
)


def mae_is_rounded(task: MLEBenchTask, tmp_path: Path) -> None:
    case = CASE
    report = score(task, tmp_path, case.answers, case.imperfect)
    expect(report.score == 562.0, f"score {report.score} is not 562.0")  # mean(123.4, 1000)


CASES: dict[str, Check] = {
    "grading": CASE,
    "mae-is-rounded": mae_is_rounded,
}
