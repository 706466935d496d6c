"""Raw grader of uw-madison-gi-tract-image-segmentation: 0.4 Dice + 0.6 (1 - 3-D Hausdorff).

Each test slice ``case<N>_day<M>_slice_<K>`` has three rows, one per organ (``class``), so a row
is identified by the pair (``id``, ``class``). The answers (MLE-bench's private test.csv) hold
``id``, ``class``, the true mask ``predicted`` and the slice's ``image_width`` and
``image_height``. MLE-bench's grade.py decodes the i-th submission mask with the size of the
i-th answers row (run-length pairs, 1-based, column-major; blank = empty), then scores

* the mean Dice coefficient over rows, skipping rows where both masks are empty;
* the normalised symmetric Hausdorff distance of each case-day volume (the three organ masks
  of a slice OR-ed together, slices stacked in id order, coordinates scaled to the unit cube,
  divided by sqrt(3); 0 for identical volumes, 1 when exactly one is empty or the prediction
  has more than 10 times the true voxels), averaged over case-days skipping those empty in
  both;

and returns ``0.4 * Dice + 0.6 * (1 - Hausdorff)``. This is the metric library's
:func:`~mle_gym.grading.metrics.segmentation.dice_hausdorff_combo`, computed here one case-day
at a time with the same library functions (:func:`dice`, :func:`hausdorff_distance`,
:func:`rle_decode`) so that the whole test set never has to be decoded at once.

Rows are matched by (``id``, ``class``). For a submission in the order of sample_submission.csv
(the answers' order) this is MLE-bench's row-by-row pairing, hence the same score; a reordered
submission is scored on the right pairs here. Stricter than MLE-bench, for malformed
submissions only: every (``id``, ``class``) of the sample must appear exactly once (MLE-bench
does not check the rows and would silently drop surplus ones), extra columns are rejected, and
an odd number of run-length values is refused.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from mle_gym.authoring import (
    PANDAS_NA_STRINGS,
    InvalidSubmission,
    check_columns,
    pair_rows,
    require_answer_columns,
)
from mle_gym.authoring.metrics import dice, hausdorff_distance, rle_decode, rle_runs

ID_COLUMN = "id"
CLASS = "class"
TARGET = "predicted"
COLUMNS = (ID_COLUMN, CLASS, TARGET)
PAIR = f"({ID_COLUMN}, {CLASS})"
WIDTH = "image_width"
HEIGHT = "image_height"
DICE_WEIGHT = 0.4
HAUSDORFF_WEIGHT = 0.6


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """``0.4 * mean Dice + 0.6 * (1 - mean case-day Hausdorff distance)``, higher is better."""
    check_columns(submission, COLUMNS)
    require_answer_columns(answers, (*COLUMNS, WIDTH, HEIGHT))
    rows = pair_rows(_keys(submission), _keys(answers), _describe, PAIR)
    predicted = [_rle_text(v) for v in submission[TARGET].to_numpy(dtype=object)[rows]]
    truth = [_rle_text(v) for v in answers[TARGET].to_numpy(dtype=object)]
    heights = _sizes(answers, HEIGHT)
    widths = _sizes(answers, WIDTH)
    ids = answers[ID_COLUMN].astype(str).tolist()
    classes = answers[CLASS].astype(str).tolist()

    case_days: dict[str, list[int]] = {}
    for i, slice_id in enumerate(ids):
        case_days.setdefault(slice_id.split("_slice_")[0], []).append(i)
    dices: list[float] = []
    distances: list[float] = []
    for members in case_days.values():
        true_slices: dict[str, np.ndarray] = {}
        pred_slices: dict[str, np.ndarray] = {}
        for i in members:
            shape = (heights[i], widths[i])
            try:
                true_mask = rle_decode(truth[i], shape)
            except ValueError as exc:
                raise RuntimeError(f"the answers file is unusable: row {i + 1}: {exc}") from None
            try:
                pred_mask = rle_decode(predicted[i], shape)
            except ValueError as exc:
                raise InvalidSubmission(
                    f"{ID_COLUMN} {ids[i]}, {CLASS} {classes[i]}: invalid run-length encoding "
                    f"({exc}); write space-separated 'start length' pairs with increasing "
                    "starts, or leave the cell empty when the organ is absent"
                ) from None
            dices.append(dice(true_mask, pred_mask))
            _merge(true_slices, ids[i], true_mask)
            _merge(pred_slices, ids[i], pred_mask)
        order = sorted(true_slices)
        distances.append(
            hausdorff_distance(
                np.stack([true_slices[k] for k in order]),
                np.stack([pred_slices[k] for k in order]),
            )
        )
    dice_values = [d for d in dices if not math.isnan(d)]
    hausdorff_values = [d for d in distances if not math.isnan(d)]
    if not dice_values or not hausdorff_values:
        raise ValueError(
            "the score is undefined when every mask is empty in answers and submission"
        )
    return DICE_WEIGHT * float(np.mean(dice_values)) + HAUSDORFF_WEIGHT * (
        1.0 - float(np.mean(hausdorff_values))
    )


def validate(submission: pd.DataFrame, sample: pd.DataFrame) -> None:
    """Format check against the public sample submission: header, rows, run-length syntax."""
    check_columns(submission, COLUMNS)
    keys = _keys(submission)
    pair_rows(keys, _keys(sample), _describe, PAIR)
    for i, value in enumerate(submission[TARGET].to_numpy(dtype=object)):
        try:
            rle_runs(_rle_text(value), 2**62)  # no image sizes here: syntax only
        except (ValueError, OverflowError) as exc:
            raise InvalidSubmission(
                f"{ID_COLUMN} {keys.iloc[i, 0]}, {CLASS} {keys.iloc[i, 1]}: invalid run-length "
                f"encoding ({exc}); write space-separated 'start length' pairs with increasing "
                "starts, or leave the cell empty when the organ is absent"
            ) from None


def _merge(slices: dict[str, np.ndarray], slice_id: str, mask: np.ndarray) -> None:
    """OR the organ mask into its slice's mask."""
    slices[slice_id] = slices[slice_id] | mask if slice_id in slices else mask


def _rle_text(value: object) -> str:
    text = "" if value is None else str(value)
    return "" if text in PANDAS_NA_STRINGS else text


def _sizes(answers: pd.DataFrame, column: str) -> list[int]:
    values = pd.to_numeric(answers[column].astype(str).str.strip(), errors="coerce")
    array = values.to_numpy(dtype=np.float64)
    if not np.isfinite(array).all() or (array != np.round(array)).any() or (array <= 0).any():
        raise RuntimeError(f"the answers file is unusable: {column} must hold positive integers")
    return [int(v) for v in array]


def _keys(frame: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame(
        {
            ID_COLUMN: frame[ID_COLUMN].astype(str).to_numpy(),
            CLASS: frame[CLASS].astype(str).to_numpy(),
        }
    )


def _describe(key: tuple[object, ...]) -> str:
    return f"{ID_COLUMN} {key[0]}, {CLASS} {key[1]}"
