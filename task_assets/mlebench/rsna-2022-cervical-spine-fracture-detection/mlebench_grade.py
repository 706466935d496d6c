"""rsna-2022-cervical-spine-fracture-detection graded as MLE-bench grades it: the
label-weighted binary log loss per study, averaged over studies.

MLE-bench's grader needs ``row_id`` and ``fractured`` columns (others are ignored);
every ``fractured`` value must lie in [0, 1] (a blank or text fails that check); it
never compares the row counts itself: both files are sorted by ``row_id`` and the
ids compared position by position, which fails (rather than rejects) when the
lengths differ. Each ``row_id`` is split at its first underscore into study and
target, both files are pivoted to one row per study (a repeated row fails) with the
eight columns ``patient_overall``, ``C1``..``C7``; predictions are clipped to
[1e-15, 1 - 1e-15]; each study's eight log losses are weighted 7 / 14 (negative /
positive ``patient_overall``) and 1 / 2 (vertebrae), summed and divided by the
weights' sum, and the mean over studies is the score.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, require

ID = "row_id"
TARGET = "fractured"
STUDY = "StudyInstanceUID"
#: the pivoted columns, in the order of the weights below
TARGETS = ["patient_overall", "C1", "C2", "C3", "C4", "C5", "C6", "C7"]
_NEGATIVE_WEIGHTS = np.array([7, 1, 1, 1, 1, 1, 1, 1], dtype=np.float32)
_POSITIVE_WEIGHTS = np.array([14, 2, 2, 2, 2, 2, 2, 2], dtype=np.float32)
_EPS = 1e-15


def _per_study(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per study, a column per target (``row_id`` split at its first ``_``)."""
    out = frame.copy()
    out[[STUDY, "variable"]] = out[ID].str.split("_", n=1, expand=True)
    return out.pivot(index=STUDY, columns="variable", values=TARGET).reset_index()


def _weighted_log_loss(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    clipped = np.clip(y_pred, _EPS, 1 - _EPS)
    losses = -(y_true * np.log(clipped) + (1 - y_true) * np.log(1 - clipped))
    weights = y_true * _POSITIVE_WEIGHTS + (1 - y_true) * _NEGATIVE_WEIGHTS
    per_study = np.sum(losses * weights, axis=1) / weights.sum(axis=1)
    return float(np.mean(per_study))


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Mean over studies of the label-weighted log loss of the eight targets."""
    for column in (ID, TARGET):
        if column not in submission.columns:
            raise InvalidSubmission(f"the submission has no {column!r} column")
    if not submission[TARGET].between(0, 1).all():
        raise InvalidSubmission(f"every {TARGET!r} value must be a probability in [0, 1]")
    if submission[TARGET].isnull().any():
        raise InvalidSubmission(f"{TARGET!r} must not be blank")
    require(ID in answers.columns, f"answers lack {ID!r}")
    require(TARGET in answers.columns, f"answers lack {TARGET!r}")
    require(answers[TARGET].isin([0, 1]).all(), f"answers' {TARGET!r} must be 0 or 1")
    require(not answers[TARGET].isnull().any(), f"answers' {TARGET!r} must not be blank")
    sub = submission.sort_values(by=ID)
    ans = answers.sort_values(by=ID)
    if (sub[ID].values != ans[ID].values).any():
        raise InvalidSubmission(f"the submission's {ID!r} values are not the test ids")
    predicted = _per_study(sub).sort_values(by=STUDY)
    truth = _per_study(ans).sort_values(by=STUDY)
    return _weighted_log_loss(truth[TARGETS].to_numpy(), predicted[TARGETS].to_numpy())
