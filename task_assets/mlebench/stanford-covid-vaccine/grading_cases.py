"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from mle_gym.families.mlebench.testing import (
    Check,
    MLEBenchTask,
    ParityCase,
    WorseCase,
    assert_score,
    score,
)

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


_TRUTH = [1.0, 2.0, 0.0, 3.0, 4.0, 0.0]
PARITY_ANSWERS = pd.DataFrame(
    {
        "id_seqpos": ["id_a_0", "id_a_1", "id_a_2", "id_b_0", "id_b_1", "id_b_2"],
        "reactivity": _TRUTH,
        "deg_Mg_pH10": _TRUTH,
        "deg_pH10": _TRUTH,
        "deg_Mg_50C": _TRUTH,
        "deg_50C": _TRUTH,
        "keep": [True, True, False, True, True, False],
    }
)
# kept rows a0 a1 b0 b1: reactivity errors 0 0 0 2 (RMSE 1), deg_Mg_pH10 exact (0),
# deg_Mg_50C errors 1 0 0 0 (RMSE 0.5): (1 + 0 + 0.5) / 3 = 0.5
PARITY_SUBMISSION = PARITY_ANSWERS.drop(columns="keep").assign(
    reactivity=[1.0, 2.0, 9.0, 3.0, 6.0, 9.0],
    deg_Mg_50C=[2.0, 2.0, 0.0, 3.0, 4.0, 0.0],
)
PARITY_EXPECTED = {
    # the keep mask is aligned by line number: reversed, the submission's lines 0 1 3 4
    # (b2 b1 a2 a1) are scored against a0 a1 b0 b1: reactivity errors 1 7 3 5 (MSE 21),
    # deg_Mg_pH10 1 2 1 4 (MSE 5.5), deg_Mg_50C 1 2 1 4 (MSE 5.5)
    "shuffled_rows": round((math.sqrt(21) + 2 * math.sqrt(5.5)) / 3, 5),
    "reordered_columns": "same",
    "extra_column": "same",
    "index_column": "same",
    "missing_id": "invalid",
    "duplicate_id": "invalid",
    "unknown_id": "invalid",
    "empty_file": "invalid",
    "header_only": "invalid",
    # a0 twice: reactivity errors 0 0 0 0 2 (MSE 0.8), deg_Mg_50C 1 1 0 0 0 (MSE 0.4)
    "duplicate_answer_keys": round((math.sqrt(0.8) + math.sqrt(0.4)) / 3, 5),
}

CASES: dict[str, Check] = {
    "grading": CASE,
    "scores-three-columns-on-kept-rows": scores_three_columns_on_kept_rows,
    # a blank scored value makes scikit-learn's RMSE fail
    "parity": ParityCase(
        PARITY_ANSWERS,
        PARITY_SUBMISSION,
        score=0.5,
        expected={**PARITY_EXPECTED, "blank_target": "invalid"},
    ),
    # deg_pH10 is required but never read: a blank one changes nothing
    "parity-unscored-column": ParityCase(
        PARITY_ANSWERS,
        PARITY_SUBMISSION,
        score=0.5,
        expected={**PARITY_EXPECTED, "blank_target": "same"},
        target_column="deg_pH10",
    ),
}
