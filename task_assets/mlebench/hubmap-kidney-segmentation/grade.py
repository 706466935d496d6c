"""Grader of hubmap-kidney-segmentation: mean Dice coefficient over the test images.

Reproduces MLE-bench's grade.py: ``predicted`` is a run-length encoding (pairs ``start
length``, 1-based, column-major; an empty cell, or one pandas reads as missing, is an empty
mask); each test image scores ``2 * |P & T| / (|P| + |T|)``, or 1 when both masks are empty,
and the score is the mean over images. The Dice is the metric library's
:func:`~mle_gym.grading.metrics.segmentation.rle_dice`, which works on the runs without
expanding the (very large) images and validates them as MLE-bench's ``rle_decode`` does
(integer tokens, starts sorted and positive, lengths positive, no overlapping runs).

Two differences, for malformed submissions only: the answers here (MLE-bench's
gold_submission.csv) carry no image sizes, so runs reaching past the end of an image are not
cut off; and an odd number of values is rejected, whereas MLE-bench's numpy broadcasting reads a
lone start as no run and reuses a single length for two starts.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mle_gym.authoring import PANDAS_NA_STRINGS, InvalidSubmission
from mle_gym.authoring.metrics import rle_dice

ID_COLUMN = "id"
TARGET = "predicted"
NO_CLIPPING = 2**62  # pixel count passed as "image size": runs are never cut off


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Mean over images of the per-image Dice coefficient (1 for two empty masks)."""
    scores = []
    for image, truth, text in zip(
        answers[ID_COLUMN], answers[TARGET], submission[TARGET], strict=True
    ):
        prediction = "" if text in PANDAS_NA_STRINGS else str(text)
        try:
            scores.append(rle_dice(str(truth), prediction, NO_CLIPPING, both_empty=1.0))
        except (ValueError, OverflowError) as exc:
            raise InvalidSubmission(
                f"{ID_COLUMN} {image}: invalid run-length encoding ({exc}); write "
                "space-separated 'start length' pairs with increasing starts, or leave the "
                "cell empty for no glomeruli"
            ) from None
    return float(np.mean(scores))
