"""osic-pulmonary-fibrosis-progression graded as MLE-bench grades it: the modified
Laplace log likelihood over each patient's three latest measured weeks.

MLE-bench checks the answers' columns and the submission's ``Patient_Week``, ``FVC`` and
``Confidence`` columns (others are ignored), then that every submitted ``Patient_Week``
occurs in the answers (membership in the answers' array, one row at a time), then that
``FVC`` and ``Confidence`` are numeric columns as pandas parsed them (booleans count as
numeric). A blank ``Confidence`` becomes 0. The answers without an ``FVC`` are dropped and
each patient's three latest weeks (by the number after the last ``_``) are kept; the
submission keeps only those weeks. Both are sorted by ``Patient_Week`` and each side
keeps the rows whose week the other side has, so a week missing from the submission is
left out of the score; rows are then paired by position. A repeated scored week makes the
lengths differ and numpy fail, unless a single true week is left, which numpy then
broadcasts against its repeated predictions. With ``sigma = max(Confidence, 70)`` and
``delta = min(|FVC_true - FVC|, 1000)`` the score is the mean of
``-sqrt(2) delta / sigma - ln(sqrt(2) sigma)``: a blank ``FVC`` on a scored week or an
infinite ``Confidence`` makes it non-finite (no score), an infinite ``FVC`` costs the
capped 1000.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, require

KEY = "Patient_Week"


def _week_number(key: str) -> int:
    return int(key.split("_")[-1])


def _all_text(values: pd.Series) -> bool:
    return all(isinstance(value, str) for value in values)


def _check_weeks_known(submitted: pd.Series, expected: pd.Series) -> None:
    """InvalidSubmission unless each submitted week is ``in`` the answers' array. When
    both columns hold only text, ``isin`` gives the same verdict far faster; otherwise
    (NaN, numbers) the membership test is done cell by cell as MLE-bench does it."""
    if _all_text(submitted) and _all_text(expected) and bool(submitted.isin(expected).all()):
        return
    known = expected.values
    for key in submitted:
        if key not in known:
            raise InvalidSubmission(f"the submission has a {KEY} that is not a test week")


def laplace_log_likelihood(
    actual: np.ndarray, predicted: np.ndarray, confidence: np.ndarray
) -> float:
    """Mean of ``-sqrt(2) delta / sigma - ln(sqrt(2) sigma)`` with ``sigma`` floored at 70
    and ``delta`` capped at 1000 (numpy broadcasting, as MLE-bench computes it)."""
    sigma = np.maximum(confidence, 70)
    delta = np.minimum(np.abs(actual - predicted), 1000)
    values = -np.sqrt(2) * delta / sigma - np.log(np.sqrt(2) * sigma)
    return float(np.mean(values))


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """The modified Laplace log likelihood of the scored weeks."""
    for column in (KEY, "FVC", "Patient"):
        require(column in answers.columns, f"answers lack {column!r}")
    for column in (KEY, "FVC", "Confidence"):
        if column not in submission.columns:
            raise InvalidSubmission(f"the submission has no {column!r} column")
    _check_weeks_known(submission[KEY], answers[KEY])
    for column in ("FVC", "Confidence"):
        if not pd.api.types.is_numeric_dtype(submission[column]):
            raise InvalidSubmission(f"{column!r} must hold numbers")
    submission["Confidence"] = submission["Confidence"].fillna(0)

    measured = answers.dropna(subset=["FVC"])
    measured["Week_Number"] = measured[KEY].apply(_week_number)
    latest = measured.sort_values("Week_Number").groupby("Patient").tail(3)
    truth = latest.drop(columns=["Week_Number"])
    sub = submission[submission[KEY].isin(truth[KEY])]
    sub = sub.sort_values(by=KEY)
    truth = truth.sort_values(by=KEY)

    actual = truth.loc[truth[KEY].isin(sub[KEY]), "FVC"].values
    shared = sub[KEY].isin(truth[KEY])
    predicted = sub.loc[shared, "FVC"].values
    confidence = sub.loc[shared, "Confidence"].values
    return laplace_log_likelihood(actual, predicted, confidence)
