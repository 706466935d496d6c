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
    WorseCase,
    assert_invalid,
    assert_score,
    expect,
    score,
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


CASES: dict[str, Check] = {
    "grading": CASE,
    "scores-only-the-three-latest-measured-weeks": scores_only_the_three_latest_measured_weeks,
}
