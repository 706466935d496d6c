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


IDS = ["10008_L", "10008_R", "10011_L", "10011_R"]
ANSWERS = pd.DataFrame({"prediction_id": IDS, "cancer": [0, 1, 0, 1]})
SUBMISSION = pd.DataFrame({"prediction_id": IDS, "cancer": [0.2, 0.9, 1.5, 0.3]})
# clipped: 0.2, 0.9, 1, 0.3; tp = 0.9 + 0.3 = 1.2, fp = 0.2 + 1 = 1.2, precision 0.5,
# recall 1.2 / 2 = 0.6, F1 = 2 * 0.3 / 1.1 = 0.54545 (5 decimals). With the first answer
# (no cancer, 0.2) twice: fp 1.4, precision 1.2 / 2.6, F1 = 2 * 0.72 / 2.6 / (1.2 / 2.6
# + 0.6) = 0.52174. A blank prediction is NaN after clipping: score 0.
PARITY = ParityCase(
    ANSWERS,
    SUBMISSION,
    score=0.54545,
    expected={
        "shuffled_rows": "same",
        "reordered_columns": "same",
        "extra_column": "same",
        "index_column": "same",
        "missing_id": "invalid",
        "duplicate_id": "invalid",
        "unknown_id": "invalid",
        "blank_target": 0.0,
        "empty_file": "invalid",
        "header_only": "invalid",
        "duplicate_answer_keys": 0.52174,
    },
)


def pfbeta_arithmetic_quirks(task: MLEBenchTask, tmp_path: Path) -> None:
    """Python's min/max and scalar arithmetic of MLE-bench's loop, reproduced."""
    answers = {"prediction_id": IDS, "cancer": [0, 1, 0, 1]}
    # every prediction negative (integers): the sums stay Python ints and 0 / 0 raises
    negative = {"prediction_id": IDS, "cancer": [-1, -2, -1, -3]}
    assert_invalid(score(task, tmp_path, answers, negative, grading="mlebench"))
    # the same as floats: max(-1.0, 0) is still the int 0 and the grader fails
    floats = {"prediction_id": IDS, "cancer": [-1.5, -2.0, -1.0, -3.0]}
    assert_invalid(score(task, tmp_path, answers, floats, grading="mlebench"))
    # one prediction 0.0 (a numpy float): 0.0 / 0.0 is NaN, the score 0
    zero = {"prediction_id": IDS, "cancer": [-1.5, 0.0, -1.0, -3.0]}
    assert_score(score(task, tmp_path, answers, zero, grading="mlebench"), 0.0)
    # True/False predictions are 1/0: tp 1, fp 1, precision 1/2, recall 1/2
    flags = {"prediction_id": IDS, "cancer": [True, True, False, False]}
    assert_score(score(task, tmp_path, answers, flags, grading="mlebench"), 0.5)
    # text predictions make the clipping fail
    text = {"prediction_id": IDS, "cancer": ["0.5", "high", "0.1", "0.2"]}
    assert_invalid(score(task, tmp_path, answers, text, grading="mlebench"))


CASES: dict[str, Check] = {
    "grading": CASE,
    "predictions-are-clipped": predictions_are_clipped,
    "parity": PARITY,
    "pfbeta-arithmetic-quirks": pfbeta_arithmetic_quirks,
}
