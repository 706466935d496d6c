"""tgs-salt-identification-challenge graded as MLE-bench grades it: mean precision over
IoU thresholds, image by image.

The submission must have exactly the columns ``id`` and ``rle_mask`` (in any order) and
one row per answers row. Blanks become empty strings; every cell must then be text (an
all-number column is rejected). Both files are sorted by ``id`` and the ids must match
one for one. Each mask is a run-length encoding of a 101x101 image (1-based starts,
column-major) checked as MLE-bench's ``rle_decode`` checks it: unsorted, non-positive or
overlapping runs are rejected, a run past the image end is cut off, and numpy's
broadcasting lets an odd count of numbers through (a lone start is no run, a single
length serves two starts).

Per image: 1 when both masks are empty, 0 when only the prediction has pixels;
otherwise the IoU of the two masks is taken from 2x2 numpy histograms, which has a
quirk: an empty prediction falls in the "salt" bin, so it counts as the whole image
(IoU = salt pixels / 10201). The image scores 1 for each threshold of 0.5, 0.55, ...,
0.95 that the IoU exceeds, averaged over the 10 thresholds; the score is the mean over
images.

MLE-bench's text test calls ``DataFrame.applymap``, which pandas 3 removed (there its
grader fails on every submission); this module calls ``DataFrame.map``, the same
operation under its pandas >= 2.1 name, so it behaves as MLE-bench does under pandas 2.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.parity_kit import (
    GraderFailure,
    InvalidSubmission,
    require,
    rle_decode,
)

SIZE = 101
COLUMNS = ("id", "rle_mask")


def _all_text(frame: pd.DataFrame) -> bool:
    """Whether every cell is a ``str`` (MLE-bench's element-wise ``isinstance`` test)."""
    return bool(frame.map(lambda value: isinstance(value, str)).values.all())


def _image_score(truth: np.ndarray, predicted: np.ndarray) -> float:
    """The precision over IoU thresholds of one image's predicted mask."""
    if np.sum(truth) == 0:
        return 1.0 if np.sum(predicted) == 0 else 0.0
    # bin 1 of each axis holds the "salt" pixels (of an all-empty mask: every pixel)
    joint = np.histogram2d(truth.flatten(), predicted.flatten(), bins=(2, 2))[0]
    true_area = np.histogram(truth, bins=2)[0][1]
    predicted_area = np.histogram(predicted, bins=2)[0][1]
    overlap = joint[1, 1]
    union = true_area + predicted_area - overlap
    iou = overlap / (union if union != 0 else 1e-9)
    thresholds = np.arange(0.5, 1.0, 0.05)
    return float(np.mean([1.0 if iou > t else 0.0 for t in thresholds]))


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Mean over images of the precision at the IoU thresholds."""
    id_column, mask_column = COLUMNS
    require(set(answers.columns) == set(COLUMNS), f"answers must have the columns {COLUMNS}")
    if set(submission.columns) != set(COLUMNS):
        raise InvalidSubmission("the submission must have exactly the columns id and rle_mask")
    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; it must have one per test id "
            f"({len(answers)})"
        )
    sub = submission.fillna("")
    ans = answers.fillna("")
    require(_all_text(ans), "answers hold a value that is not text")
    if not _all_text(sub):
        raise InvalidSubmission("every id and rle_mask value must be text")
    sub = sub.sort_values(by=id_column)
    ans = ans.sort_values(by=id_column)
    if (sub[id_column].values != ans[id_column].values).any():
        raise InvalidSubmission(f"the submission's {id_column!r} values are not the test ids")

    predicted = []
    for rle in sub[mask_column].values:
        try:
            predicted.append(rle_decode(rle, SIZE, SIZE))
        except GraderFailure as exc:
            raise InvalidSubmission(f"a mask cannot be decoded: {exc}") from None
    truth = [rle_decode(rle, SIZE, SIZE) for rle in ans[mask_column].values]
    return float(np.mean([_image_score(t, p) for t, p in zip(truth, predicted, strict=True)]))
