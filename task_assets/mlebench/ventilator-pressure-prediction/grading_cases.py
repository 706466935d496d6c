"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

from pathlib import Path

from mle_gym.families.mlebench.testing import Check, MLEBenchTask, WorseCase, assert_score, score

CASE = WorseCase(
    answers={
        "id": [1, 2, 3, 4, 5, 6],
        "breath_id": [7] * 6,
        "R": [20] * 6,
        "C": [50] * 6,
        "time_step": [0.0, 0.0336, 0.0672, 0.1008, 0.1344, 0.168],
        "u_in": [0.08, 18.4, 22.5, 22.8, 0.0, 0.0],
        "u_out": [0, 0, 0, 1, 1, 1],
        "pressure": [5.84, 5.91, 7.88, 11.74, 6.2, 6.1],
    },
    imperfect={"id": [1, 2, 3, 4, 5, 6], "pressure": [6.84, 4.91, 8.88, 0.0, 0.0, 0.0]},
    malformed={"id": [1, 2, 3, 4, 5, 6], "pressure": [5.84, "inf", 7.88, 0, 0, 0]},
    best=0.0,
)


def ignores_the_expiratory_phase(task: MLEBenchTask, tmp_path: Path) -> None:
    case = CASE
    report = score(task, tmp_path, case.answers, case.imperfect)
    assert_score(report, 1.0)


CASES: dict[str, Check] = {
    "grading": CASE,
    "ignores-the-expiratory-phase": ignores_the_expiratory_phase,
}
