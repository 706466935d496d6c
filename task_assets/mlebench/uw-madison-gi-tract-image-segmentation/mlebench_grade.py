"""uw-madison-gi-tract-image-segmentation graded as MLE-bench grades it.

The score is ``0.4 * Dice + 0.6 * (1 - Hausdorff)``. MLE-bench requires the submission
to have the columns ``id``, ``class`` and ``predicted`` (others are ignored) and checks
nothing about its rows: blanks become empty masks, and the i-th ``predicted`` is decoded
(MLE-bench's run-length decoder, :func:`~mle_gym.families.mlebench.parity_kit.rle_decode`;
a malformed encoding or a non-text cell makes the grader fail) with the image size of the
i-th answers row. Rows are paired by position, not by (``id``, ``class``), and surplus
rows on either side are dropped (Python's ``zip``), so missing or extra rows at the end
are scored, not rejected, and ``class`` is never read.

* Dice: per row pair, ``2 |A and B| / (|A| + |B|)``, NaN when both masks are empty;
  ``numpy.nanmean`` over rows.
* Hausdorff: each side's masks are grouped by that side's own ``id`` (sorted by id with a
  stable sort): the masks of a slice id are OR-ed, the slices of a case-day (the id up
  to ``_slice_``) stacked in sorted order; the k-th case-day volume of the submission is
  compared with the k-th of the answers. Per pair: NaN if both are empty, 0 if equal, 1
  if exactly one is empty or the prediction has more than 10 times the true voxels, else
  the symmetric Hausdorff distance (scipy's ``directed_hausdorff``) of the voxel
  coordinates divided by the true volume's shape, over sqrt(3); ``numpy.nanmean``.

Masks are decoded again for each of the two parts (one case-day at a time for the
second) instead of all at once as MLE-bench does; the values, the order of every
reduction and the failures are the same.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, require, rle_decode

COLUMNS = ("id", "class", "predicted")
DICE_WEIGHT = 0.4
HAUSDORFF_WEIGHT = 0.6


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """``0.4 * mean Dice + 0.6 * (1 - mean case-day Hausdorff distance)``."""
    require("image_height" in answers.columns, "answers lack 'image_height'")
    require("image_width" in answers.columns, "answers lack 'image_width'")
    if not set(COLUMNS).issubset(set(submission.columns)):
        raise InvalidSubmission("the submission must have the columns id, class, predicted")
    predicted = submission["predicted"].fillna("").to_list()
    truth = answers["predicted"].fillna("").to_list()
    heights = answers["image_height"].astype(int).tolist()
    widths = answers["image_width"].astype(int).tolist()
    sizes = list(zip(heights, widths, strict=False))
    paired = min(len(predicted), len(sizes))  # the submission rows MLE-bench decodes

    def predicted_mask(i: int) -> np.ndarray:
        return rle_decode(predicted[i], sizes[i][0], sizes[i][1])

    def true_mask(i: int) -> np.ndarray:
        return rle_decode(truth[i], sizes[i][0], sizes[i][1])

    dices = [_dice(predicted_mask(i), true_mask(i)) for i in range(paired)]
    for i in range(paired, len(truth)):
        true_mask(i)  # every answers mask is decoded (and checked) by MLE-bench

    predicted_days = _case_days(list(submission["id"])[:paired])
    true_days = _case_days(list(answers["id"]))
    distances = []
    for k in range(max(len(predicted_days), len(true_days))):
        # MLE-bench builds every volume, paired or not (a ragged slice fails anywhere)
        pred = _volume(predicted_days[k], predicted_mask) if k < len(predicted_days) else None
        true = _volume(true_days[k], true_mask) if k < len(true_days) else None
        if pred is not None and true is not None:
            distances.append(_hausdorff(pred, true))
    dice = np.nanmean(dices)
    distance = np.nanmean(distances)
    return float(DICE_WEIGHT * dice + HAUSDORFF_WEIGHT * (1 - distance))


def _dice(pred: np.ndarray, true: np.ndarray) -> Any:
    """Dice coefficient of two boolean masks; NaN when both are empty."""
    require(pred.shape == true.shape, "mask shapes differ")
    if np.sum(pred) == 0 and np.sum(true) == 0:
        return np.nan
    overlap = np.sum(pred * true)
    total = np.sum(pred) + np.sum(true)
    if total == 0:
        return np.nan
    return 2 * overlap / total


def _case_days(ids: list[Any]) -> list[list[list[int]]]:
    """Row numbers grouped as MLE-bench groups masks: rows stably sorted by id, one group
    per slice id (in sorted order), slices gathered per case-day (the id before
    ``_slice_``) in order of first appearance."""
    order = sorted(range(len(ids)), key=lambda i: ids[i])
    slices: dict[Any, list[int]] = {}
    for i in order:
        slices.setdefault(ids[i], []).append(i)
    days: dict[Any, list[list[int]]] = {}
    for slice_id, rows in slices.items():
        days.setdefault(slice_id.split("_slice_")[0], []).append(rows)
    return list(days.values())


def _volume(day: list[list[int]], mask: Any) -> np.ndarray:
    """The case-day's 3-D mask: per slice the OR of its rows' masks (uint8), stacked."""
    return np.stack(
        [np.logical_or.reduce([mask(i) for i in rows]).astype(np.uint8) for rows in day], axis=0
    )


def _hausdorff(pred: np.ndarray, true: np.ndarray) -> Any:
    """MLE-bench's normalised symmetric Hausdorff distance of two 3-D masks."""
    from scipy.spatial.distance import directed_hausdorff

    pred_sum = np.sum(pred)
    true_sum = np.sum(true)
    if pred_sum == 0 and true_sum == 0:
        return np.nan
    if np.array_equal(pred, true):
        return 0
    if (pred_sum == 0 and true_sum > 0) or (pred_sum > 0 and true_sum == 0):
        return 1
    if pred.sum() > 10 * true.sum():
        return 1
    scale = true.shape
    true_points = np.argwhere(true) / scale
    pred_points = np.argwhere(pred) / scale
    forward, _, _ = directed_hausdorff(true_points, pred_points)
    backward, _, _ = directed_hausdorff(pred_points, true_points)
    return max(forward, backward) / np.sqrt(3)
