"""Grading test cases of tiny-house-prices (run by tests/mlebench/test_grading_cases.py).

Tiny answers in the competition's real format (``private/test.csv``: the held-out rows with
their ``SalePrice``), graded end to end; the kinds of case are in the public kit
mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from mle_gym.families.mlebench.testing import (
    Check,
    ExactCase,
    ExactGrading,
    MLEBenchTask,
    WorseCase,
    assert_invalid,
    assert_score,
    score,
)

ANSWERS = {
    "Id": [3, 7, 11, 19],
    "LotArea": [410, 980, 655, 300],
    "Rooms": [3, 6, 4, 2],
    "Age": [12, 3, 40, 75],
    "SalePrice": [120.0, 250.0, 180.0, 95.0],
}


def exact() -> ExactCase:
    """An imperfect submission whose RMSE is computed here by hand."""
    truth = ANSWERS["SalePrice"]
    guess = [130.0, 240.0, 180.0, 100.0]
    expected = math.sqrt(sum((t - g) ** 2 for t, g in zip(truth, guess, strict=True)) / 4)
    answers = pd.DataFrame(ANSWERS)
    imperfect = pd.DataFrame({"Id": ANSWERS["Id"], "SalePrice": guess})
    malformed = "Id,SalePrice\n3,cheap\n7,240\n11,180\n19,100\n"  # a price that is not a number
    return ExactCase(answers, answers[["Id", "SalePrice"]], imperfect, expected, malformed, 0.0)


def each_id_once_in_any_order(task: MLEBenchTask, tmp_path: Path) -> None:
    """The right prices in another row order score 0; an id given twice is refused."""
    reordered = {"Id": [19, 11, 7, 3], "SalePrice": [95.0, 180.0, 250.0, 120.0]}
    assert_score(score(task, tmp_path, ANSWERS, reordered), 0.0)
    twice = {"Id": [3, 3, 11, 19], "SalePrice": [120.0, 120.0, 180.0, 95.0]}
    assert_invalid(score(task, tmp_path, ANSWERS, twice), "duplicate ids")


CASES: dict[str, Check] = {
    "rmse": ExactGrading(exact),
    # the same answers as plain data: the imperfect submission need only score worse, and
    # a submission missing an id cannot be graded
    "worse": WorseCase(
        answers=ANSWERS,
        imperfect={"Id": [3, 7, 11, 19], "SalePrice": [100.0, 100.0, 100.0, 100.0]},
        malformed={"Id": [3, 7, 11], "SalePrice": [120.0, 250.0, 180.0]},
        best=0.0,
    ),
    "each-id-once-in-any-order": each_id_once_in_any_order,
}
