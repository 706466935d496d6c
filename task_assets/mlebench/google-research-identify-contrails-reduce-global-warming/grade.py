"""Grader of google-research-identify-contrails-reduce-global-warming: global Dice.

Reproduces MLE-bench's grade.py: ``encoded_pixels`` is a run-length encoding (pairs ``start
length``, 1-based, column-major) and a cell holding exactly ``-`` is an empty mask; every mask is
decoded at the size given by the answers' ``height`` and ``width`` (runs past the end of the
image are cut off), and the score is ``2 * |P & T| / (|P| + |T|)`` over the pixels of all test
images together (undefined, hence invalid, when both are empty everywhere).

Decoding and validation are the metric library's
(:func:`~mle_gym.grading.metrics.segmentation.rle_decode`): integer tokens, starts sorted and
positive, lengths positive, no overlapping runs, as MLE-bench's ``rle_decode`` requires. One
difference: an odd number of values is rejected here, whereas MLE-bench's numpy broadcasting
reads a lone start as no run and reuses a single length for two starts.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pandas as pd

from mle_gym.authoring import InvalidSubmission
from mle_gym.authoring.metrics import global_dice, rle_decode

ID_COLUMN = "record_id"
TARGET = "encoded_pixels"
EMPTY = "-"


def decode(text: str, shape: tuple[int, int], where: str) -> np.ndarray:
    """Boolean mask of one RLE cell (``-`` = empty); :class:`InvalidSubmission` if malformed."""
    try:
        return rle_decode("" if text == EMPTY else text, shape)
    except (ValueError, OverflowError) as exc:
        raise InvalidSubmission(
            f"{where}: invalid run-length encoding ({exc}); write space-separated 'start "
            f"length' pairs with increasing starts, or '{EMPTY}' for an empty mask"
        ) from None


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Dice coefficient of the pooled predicted and true contrail pixels."""
    shapes = [(int(h), int(w)) for h, w in zip(answers["height"], answers["width"], strict=True)]

    def truth() -> Iterator[np.ndarray]:
        for text, shape in zip(answers[TARGET], shapes, strict=True):
            yield decode(str(text), shape, "answers")

    def predicted() -> Iterator[np.ndarray]:
        for record, text, shape in zip(
            submission[ID_COLUMN], submission[TARGET], shapes, strict=True
        ):
            yield decode(str(text), shape, f"{ID_COLUMN} {record}")

    return global_dice(truth(), predicted())
