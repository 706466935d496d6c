"""Grader for detecting-insults-in-social-commentary, as MLE-bench grades it.

The submission format has no id column: rows are keyed by the ``Comment`` text
and also carry the comment's ``Date``. The task therefore declares ``Comment``
as the id and both ``Insult`` and ``Date`` as (text) target columns, so that the
format check demands the sample submission's three columns; this module then
does what the generic grader cannot:

* ``Date`` is ignored (MLE-bench ignores it too), blanks included;
* ``Insult`` must be a number in [0, 1] on every row, else the submission is
  invalid (MLE-bench's AUC input checks);
* the score is the ROC AUC of ``Insult`` against the answers' 0/1 labels,
  rows matched on ``Comment`` (the grader aligns both frames by it).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mle_gym.authoring import InvalidSubmission
from mle_gym.authoring.metrics import get_metric

TARGET = "Insult"


def _scores(column: pd.Series) -> np.ndarray:
    """The submitted probabilities as floats; InvalidSubmission if any is unusable."""
    text = column.astype(str).str.strip()
    values = pd.to_numeric(text, errors="coerce").to_numpy(dtype="float64")
    bad = ~np.isfinite(values)
    if bad.any():
        examples = ", ".join(repr(v) for v in column[bad].head(3).tolist())
        raise InvalidSubmission(
            f"column {TARGET!r} must hold a probability on every row, but {int(bad.sum())} "
            f"value(s) are empty or not numbers, e.g. {examples}"
        )
    outside = (values < 0.0) | (values > 1.0)
    if outside.any():
        examples = ", ".join(repr(v) for v in column[outside].head(3).tolist())
        raise InvalidSubmission(
            f"column {TARGET!r} must hold probabilities in [0, 1], but {int(outside.sum())} "
            f"value(s) are outside, e.g. {examples}"
        )
    return values


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """ROC AUC of the submitted insult probabilities (frames aligned on Comment)."""
    y_score = _scores(submission[TARGET])
    y_true = pd.to_numeric(answers[TARGET].astype(str).str.strip()).to_numpy(dtype="float64")
    return get_metric("auc-roc").score(y_true, y_score)
