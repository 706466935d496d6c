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
    assert_invalid,
    assert_score,
    expect,
    grade_file,
    score,
    write_csv,
)


def _osic_exact(answers: pd.DataFrame) -> pd.DataFrame:
    """True FVC (blank where unmeasured) with the smallest useful confidence, 70."""
    return pd.DataFrame(
        {"Patient_Week": answers["Patient_Week"], "FVC": answers["FVC"], "Confidence": 70}
    )


CASE = WorseCase(
    answers={
        "Patient": ["ID00001"] * 5 + ["ID00002"] * 5,
        "Weeks": [-1, 0, 1, 2, 3] * 2,
        "FVC": [2800.0, None, 2700.0, 2650.0, 2600.0, None, 3100.0, None, None, 3000.0],
        "Percent": [70.1, None, 68.0, 66.2, 65.0, None, 80.5, None, None, 78.0],
        "Age": [70] * 5 + [65] * 5,
        "Sex": ["Male"] * 5 + ["Female"] * 5,
        "SmokingStatus": ["Ex-smoker"] * 5 + ["Never smoked"] * 5,
        "Patient_Week": [f"ID0000{p}_{w}" for p in (1, 2) for w in (-1, 0, 1, 2, 3)],
        "Confidence": [100] * 10,
    },
    imperfect={
        "Patient_Week": [f"ID0000{p}_{w}" for p in (1, 2) for w in (-1, 0, 1, 2, 3)],
        "FVC": [2800, 2750, 2750, 2600, 2700, 3100, 3100, 3050, 3050, 3000],
        "Confidence": [100] * 10,
    },
    malformed={
        "Patient_Week": [f"ID0000{p}_{w}" for p in (1, 2) for w in (-1, 0, 1, 2, 3)],
        "FVC": [2800, "n/a?", 2700, 2650, 2600, 3100, 3100, 3000, 3000, 3000],
        "Confidence": [100] * 10,
    },
    best=-math.log(math.sqrt(2) * 70),
    perfect=_osic_exact,
)


def scores_only_the_three_latest_measured_weeks(task: MLEBenchTask, tmp_path: Path) -> None:
    answers = CASE.answers
    base = _osic_exact(pd.DataFrame(answers).astype(str).replace("nan", "")).astype(str)
    # unscored rows: ID00001 week -1 (a 4th-latest measurement) and every blank week
    changed = base.copy()
    changed.loc[0, "FVC"] = "9999"
    changed.loc[1, "FVC"] = ""
    changed.loc[1, "Confidence"] = ""
    report = score(task, tmp_path, answers, changed)
    expect(report.valid, report.message)
    assert_score(report, -math.log(math.sqrt(2) * 70), abs=1e-5)
    # a blank FVC on a scored row (ID00001 week 3) cannot be scored
    blank = base.copy()
    blank.loc[4, "FVC"] = ""
    report = score(task, tmp_path, answers, blank)
    assert_invalid(report, "FVC is blank")
    # a blank confidence counts as 0, i.e. the floor of 70
    low = base.copy()
    low["Confidence"] = ""
    report = score(task, tmp_path, answers, low)
    assert_score(report, -math.log(math.sqrt(2) * 70), abs=1e-5)


# Scored: ID00001 weeks 1, 2, 3 (week -1 is a 4th-latest measurement) and ID00002 weeks 0
# and 3; deltas 50, 50, 100, 0, 0 at sigma 100: -sqrt(2) * 40 / 100 - ln(100 sqrt(2))
# = -0.56569 - 4.95174 = -5.51743
PARITY_ANSWERS = pd.DataFrame(CASE.answers)
PARITY_SUBMISSION = pd.DataFrame(CASE.imperfect)
SCORE = -5.51743
PARITY = ParityCase(
    PARITY_ANSWERS,
    PARITY_SUBMISSION,
    score=SCORE,
    expected={
        "shuffled_rows": "same",
        "reordered_columns": "same",
        "extra_column": "same",
        "index_column": "same",
        # the last row (ID00002 week 3, delta 0) is left out: -sqrt(2) * 50 / 100 - 4.95174
        "missing_id": -5.65885,
        "duplicate_id": "same",  # the first row (week -1) is not scored
        "unknown_id": "invalid",
        "blank_target": "same",  # a blank FVC on an unscored week is harmless
        "empty_file": "invalid",
        "header_only": "invalid",  # empty columns are not numeric
        "duplicate_answer_keys": "same",  # the repeated week -1 is still not among the 3 latest
    },
    strict={"blank_target": "same"},
)
# The same rows in reverse order: the first row is now scored, the last one is not.
REVERSED = ParityCase(
    PARITY_ANSWERS,
    PARITY_SUBMISSION.iloc[::-1].reset_index(drop=True),
    score=SCORE,
    expected={
        "shuffled_rows": "same",
        "reordered_columns": "same",
        "extra_column": "same",
        "index_column": "same",
        "missing_id": "same",  # week -1 of ID00001 is not scored
        "duplicate_id": "invalid",  # 6 predictions for 5 scored weeks: numpy cannot pair them
        "unknown_id": "invalid",
        "blank_target": "invalid",  # a NaN FVC on a scored week: the mean is NaN
        "empty_file": "invalid",
        "header_only": "invalid",
        "duplicate_answer_keys": "same",
    },
)


def pairs_rows_by_position(task: MLEBenchTask, tmp_path: Path) -> None:
    """Only the weeks both sides have are scored; one true week against two predictions
    is broadcast by numpy and scored twice."""
    answers = write_csv(tmp_path / task.answers_file, PARITY_ANSWERS)
    twice = "Patient_Week,FVC,Confidence\nID00001_3,2600,100\nID00001_3,2000,100\n"
    report = grade_file(task, tmp_path, answers, "twice.csv", twice, grading="mlebench")
    # deltas 0 and 600: -sqrt(2) * 300 / 100 - 4.95174 = -9.19438
    assert_score(report, -9.19438)
    three = twice + "ID00002_3,3000,100\n"  # 2 true weeks, 3 predictions
    report = grade_file(task, tmp_path, answers, "three.csv", three, grading="mlebench")
    assert_invalid(report)


CASES: dict[str, Check] = {
    "grading": CASE,
    "scores-only-the-three-latest-measured-weeks": scores_only_the_three_latest_measured_weeks,
    "parity": PARITY,
    "parity-reversed": REVERSED,
    "pairs-rows-by-position": pairs_rows_by_position,
}
