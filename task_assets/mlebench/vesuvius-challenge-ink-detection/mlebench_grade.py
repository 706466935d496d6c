"""vesuvius-challenge-ink-detection graded as MLE-bench grades it: mean pixel F0.5.

MLE-bench checks that the submission has as many rows as the answers, then pairs the
rows by position (no sorting, no lookup by id). For each pair: the submission row must
have exactly two fields, ``Id`` and ``Predicted`` (any other column, a written index
too, is rejected); its ``Id`` must equal the answers row's (else the grader fails, so
rows in another order fail); ``Predicted`` must be text (a blank cell is rejected; an
empty mask needs a cell holding a space). Both masks are decoded by MLE-bench's
run-length decoder (:func:`~mle_gym.families.mlebench.parity_kit.rle_decode`) with the
answers' ``width`` and ``height`` swapped and the result transposed, so pixel ``k`` is
counted along rows; a malformed encoding is rejected. The row's score is
scikit-learn's ``fbeta_score(beta=0.5)`` of the flattened masks, and the result is the
mean over rows.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.parity_kit import (
    GraderFailure,
    InvalidSubmission,
    require,
    rle_decode,
)

SUBMISSION_FIELDS = ("Id", "Predicted")
ANSWER_FIELDS = (*SUBMISSION_FIELDS, "width", "height")
BETA = 0.5


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Mean over rows (paired by position) of the pixel F0.5 of the ink masks."""
    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; it must have one per fragment "
            f"({len(answers)}), in the order of the sample submission"
        )
    scores = [
        _row_score(row, truth)
        for (_, row), (_, truth) in zip(submission.iterrows(), answers.iterrows(), strict=False)
    ]
    return float(np.mean(scores))


def _row_score(row: pd.Series, truth: pd.Series) -> Any:
    from sklearn.metrics import fbeta_score

    require(set(truth.index) == set(ANSWER_FIELDS), "the answers' columns are unexpected")
    if len(row) != len(SUBMISSION_FIELDS):
        raise InvalidSubmission(
            f"the submission must have exactly the columns {', '.join(SUBMISSION_FIELDS)}"
        )
    if not set(row.index).issuperset(SUBMISSION_FIELDS):
        raise InvalidSubmission(
            f"the submission must have exactly the columns {', '.join(SUBMISSION_FIELDS)}"
        )
    require(
        row["Id"] == truth["Id"],
        "the submission's rows must be in the answers' order (the sample submission's)",
    )
    encoding = row["Predicted"]
    if not isinstance(encoding, str):
        raise InvalidSubmission(
            f"Predicted must be a run-length encoding (text), got {type(encoding).__name__}"
        )
    require(isinstance(truth["Predicted"], str), "the answers' encoding is not text")
    width = int(truth["width"])
    height = int(truth["height"])
    try:
        predicted = rle_decode(encoding, height=width, width=height).T
    except GraderFailure as exc:
        raise InvalidSubmission(f"Predicted is not a valid run-length encoding: {exc}") from None
    expected = rle_decode(truth["Predicted"], height=width, width=height).T
    return fbeta_score(
        y_true=expected.flatten().astype(bool), y_pred=predicted.flatten().astype(bool), beta=BETA
    )
