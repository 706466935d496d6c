"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

from pathlib import Path

from mle_gym.families.mlebench.testing import Check, MLEBenchTask, WorseCase, assert_score, score

CASE = WorseCase(
    answers={
        "id_seqpos": [f"id_00073f8be_{i}" for i in range(4)],
        "reactivity": [0.75, 2.15, 0.0, 0.0],
        "deg_Mg_pH10": [0.69, 3.04, 0.0, 0.0],
        "deg_pH10": [0.41, 1.2, 0.0, 0.0],
        "deg_Mg_50C": [0.57, 2.08, 0.0, 0.0],
        "deg_50C": [0.3, 1.1, 0.0, 0.0],
        "keep": [True, True, False, False],
    },
    imperfect={
        "id_seqpos": [f"id_00073f8be_{i}" for i in range(4)],
        "reactivity": [0.65, 2.25, 9.0, 9.0],
        "deg_Mg_pH10": [0.69, 3.04, 0.0, 0.0],
        "deg_pH10": [0.0, 0.0, 0.0, 0.0],
        "deg_Mg_50C": [0.57, 2.08, 0.0, 0.0],
        "deg_50C": [0.0, 0.0, 0.0, 0.0],
    },
    malformed={  # deg_50C is missing
        "id_seqpos": [f"id_00073f8be_{i}" for i in range(4)],
        "reactivity": [0.75, 2.15, 0.0, 0.0],
        "deg_Mg_pH10": [0.69, 3.04, 0.0, 0.0],
        "deg_pH10": [0.41, 1.2, 0.0, 0.0],
        "deg_Mg_50C": [0.57, 2.08, 0.0, 0.0],
    },
    best=0.0,
)


def scores_three_columns_on_kept_rows(task: MLEBenchTask, tmp_path: Path) -> None:
    case = CASE
    report = score(task, tmp_path, case.answers, case.imperfect)
    assert_score(report, 0.1 / 3, abs=1e-5)


CASES: dict[str, Check] = {
    "grading": CASE,
    "scores-three-columns-on-kept-rows": scores_three_columns_on_kept_rows,
}
