"""Grading for lmsys-chatbot-arena (MLE-bench semantics).

Multi-class log loss of the three outcome probabilities against the one-hot
answers. MLE-bench also refuses a submission whose three probabilities do not
add up to 1 on some row (after rounding the sum to 6 decimals); that check is
the reason this task has its own grader.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mle_gym.authoring import InvalidSubmission
from mle_gym.authoring.metrics import get_metric

CLASSES = ["winner_model_a", "winner_model_b", "winner_tie"]


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Log loss over the three classes, after checking that every row sums to 1."""
    probs = submission[CLASSES].to_numpy(dtype=float)
    sums = np.round(probs.sum(axis=1), 6)
    bad = np.flatnonzero(sums != 1.0)
    if len(bad):
        ids = ", ".join(repr(str(v)) for v in submission["id"].to_numpy()[bad[:5]])
        raise InvalidSubmission(
            f"the probabilities {', '.join(CLASSES)} must add up to 1 on every row; "
            f"{len(bad)} row(s) do not, e.g. the rows with id {ids}"
        )
    truth = answers[CLASSES].to_numpy(dtype=float)
    return get_metric("multi-class-log-loss").score(truth, probs)
