"""google-research-identify-contrails-reduce-global-warming graded as MLE-bench grades it:
one Dice coefficient over the pixels of all test images.

The submission needs the columns ``record_id`` and ``encoded_pixels`` (others, such as
``height`` and ``width``, are ignored) and one row per answers row. Both files are sorted
by ``record_id`` and the ids must match one for one (compared as numbers when read as
numbers, so ids written as floats pass when they round to the same value). A cell holding
exactly ``-`` is an empty mask; every other cell must be text (a blank cell makes the
grader fail). Each mask is decoded at the answers' ``height`` x ``width`` as MLE-bench's
``rle_decode`` decodes it (1-based starts, column-major; unsorted, non-positive or
overlapping runs fail; a run past the image end is cut off; numpy's broadcasting lets an
odd count of numbers through). All masks are stacked into one array, which fails unless
every image has the same size, and the score is ``2 |P & T| / (|P| + |T|)`` over all
pixels; with no contrail pixel anywhere it is NaN (no score).
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

ID_COLUMN = "record_id"
MASK_COLUMN = "encoded_pixels"
ANSWER_COLUMNS = (ID_COLUMN, MASK_COLUMN, "height", "width")
EMPTY = "-"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Global Dice coefficient of the predicted and the true contrail pixels."""
    require(
        set(answers.columns) == set(ANSWER_COLUMNS),
        f"answers must have the columns {ANSWER_COLUMNS}",
    )
    if not {ID_COLUMN, MASK_COLUMN}.issubset(set(submission.columns)):
        raise InvalidSubmission(f"the submission needs the columns {ID_COLUMN} and {MASK_COLUMN}")
    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; it must have one per test id "
            f"({len(answers)})"
        )
    sub = submission.sort_values(by=ID_COLUMN)
    ans = answers.sort_values(by=ID_COLUMN)
    if (sub[ID_COLUMN].values != ans[ID_COLUMN].values).any():
        raise InvalidSubmission(f"the submission's {ID_COLUMN!r} values are not the test ids")

    sizes = list(zip(ans["height"].values, ans["width"].values, strict=True))
    true_rles = ans[MASK_COLUMN].replace(EMPTY, "").values
    predicted_rles = sub[MASK_COLUMN].replace(EMPTY, "").values
    try:
        truth = _decode_all(true_rles, sizes)
    except GraderFailure as exc:
        raise InvalidSubmission(f"a mask cannot be decoded: {exc}") from None
    predicted = _decode_all(predicted_rles, sizes)
    return _dice(truth.ravel(), predicted.ravel())


def _decode_all(rles: Any, sizes: list[tuple[Any, Any]]) -> np.ndarray:
    """The masks stacked into one array (numpy fails unless they have one shape)."""
    return np.array(
        [rle_decode(rle, int(h), int(w)) for rle, (h, w) in zip(rles, sizes, strict=True)]
    )


def _dice(truth: np.ndarray, predicted: np.ndarray) -> float:
    """``2 |P & T| / (|P| + |T|)`` of two equally long boolean arrays; NaN when both are
    empty."""
    require(truth.shape == predicted.shape, "mask shapes differ")
    total = np.sum(truth) + np.sum(predicted)
    if total == 0:
        return float("nan")
    return float(2 * np.sum(truth * predicted) / total)
