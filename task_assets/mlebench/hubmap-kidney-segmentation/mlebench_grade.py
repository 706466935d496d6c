"""hubmap-kidney-segmentation graded as MLE-bench grades it: mean Dice of the masks.

MLE-bench's grader wants ``id`` and ``predicted`` columns (others are ignored), one row
per test image and the same set of image ids; both files are sorted by ``id``. Blank
predictions become ``""`` (an empty mask). Each run-length encoding is decoded onto the
image's ``height * width`` pixels as its ``rle_decode`` does: the cell must be text (a
number alone, as pandas reads a column of single numbers, makes it fail), every token
an integer for ``int()``, starts sorted and positive, lengths positive, and no run may
overlap an earlier one; the runs go through numpy (start - 1, start - 1 + length, with
numpy's broadcasting: an odd number of values is no run when there is one value, both
starts get the one length when there are three, and fails otherwise) and are cut at
the image's end as slicing cuts them. Each image scores ``2 |P & T| / (|P| + |T|)``, 1
when both masks are empty; the score is the mean over the images.

MLE-bench reads the image sizes from its private ``test.csv`` (``encoding``,
``width_pixels``, ``height_pixels``); this task's answers are MLE-bench's
``gold_submission.csv`` (``id``, ``predicted``: the same encodings), so the sizes of the
competition's training images (from which MLE-bench draws its three test images) are
listed here; answers with those columns are read as MLE-bench reads them. The masks are
kept as lists of runs instead of dense arrays (same pixels, same checks).
"""

from __future__ import annotations

import bisect
import operator
from typing import Any

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.parity_kit import GraderFailure, InvalidSubmission, require

#: (height, width) in pixels of the images of Kaggle's train.csv
#: (HuBMAP-20-dataset_information.csv)
IMAGE_SIZES: dict[str, tuple[int, int]] = {
    "0486052bb": (25784, 34937),
    "095bf7a1f": (38160, 39000),
    "1e2425f28": (26780, 32220),
    "26dc41664": (38160, 42360),
    "2f6ecfcdf": (31278, 25794),
    "4ef6695ce": (39960, 50680),
    "54f2eec69": (30440, 22240),
    "8242609fa": (31299, 44066),
    "aaa6a05cc": (18484, 13013),
    "afa5e8098": (36800, 43780),
    "b2dc8411c": (14844, 31262),
    "b9a3865fc": (31295, 40429),
    "c68fe75ea": (26840, 49780),
    "cb2d976f4": (34940, 49548),
    "e79de561c": (16180, 27020),
}

Runs = list[tuple[int, int]]


def _decode(rle: Any, height: Any, width: Any) -> Runs:
    """The pixels MLE-bench's ``rle_decode`` sets, as sorted disjoint ``[start, stop)``
    runs of the flattened image (its checks, in its order)."""
    require(isinstance(rle, str), "every encoding must be text")
    require(isinstance(height, int), "image heights must be integers")
    require(isinstance(width, int), "image widths must be integers")
    if not rle.strip():
        return []
    try:
        values = list(map(int, rle.split()))
    except ValueError:
        raise GraderFailure("an encoding holds a token that is not an integer") from None
    starts, lengths = values[0::2], values[1::2]
    require(starts == sorted(starts), "the runs of an encoding must be sorted")
    require(all(x > 0 for x in starts), "run starts must be positive")
    require(all(x > 0 for x in lengths), "run lengths must be positive")
    first = np.array(starts) - 1
    ends = first + lengths
    size = height * width
    lows: list[int] = []
    runs: Runs = []
    for lo, hi in zip(first, ends, strict=False):
        start, stop, _ = slice(operator.index(lo), operator.index(hi)).indices(size)
        if stop <= start:
            continue
        at = bisect.bisect_right(lows, start)
        require(
            (at == 0 or runs[at - 1][1] <= start) and (at == len(runs) or runs[at][0] >= stop),
            "runs of an encoding overlap",
        )
        lows.insert(at, start)
        runs.insert(at, (start, stop))
    return runs


def _pixels(runs: Runs) -> int:
    return sum(stop - start for start, stop in runs)


def _shared(a: Runs, b: Runs) -> int:
    """How many pixels two sorted lists of disjoint runs have in common."""
    i = j = total = 0
    while i < len(a) and j < len(b):
        lo, hi = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if hi > lo:
            total += hi - lo
        if a[i][1] <= b[j][1]:
            i += 1
        else:
            j += 1
    return total


def _dice(predicted: Runs, truth: Runs) -> float:
    p, t = _pixels(predicted), _pixels(truth)
    if p == 0 and t == 0:
        return 1.0
    return 2 * _shared(predicted, truth) / (p + t)


def _sizes(answers: pd.DataFrame) -> tuple[list[Any], list[Any]]:
    if "width_pixels" in answers.columns and "height_pixels" in answers.columns:
        return answers["height_pixels"].tolist(), answers["width_pixels"].tolist()
    heights, widths = [], []
    for image in answers["id"]:
        if image not in IMAGE_SIZES:
            raise GraderFailure(f"the size of image {image!r} is not known")
        heights.append(IMAGE_SIZES[image][0])
        widths.append(IMAGE_SIZES[image][1])
    return heights, widths


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Mean Dice coefficient over the test images."""
    if "id" not in submission.columns:
        raise InvalidSubmission("the submission has no 'id' column")
    if "predicted" not in submission.columns:
        raise InvalidSubmission("the submission has no 'predicted' column")
    require("id" in answers.columns, "answers lack 'id'")
    truth_column = "encoding" if "encoding" in answers.columns else "predicted"
    require(truth_column in answers.columns, "answers lack the encodings")
    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; it must have one per test image "
            f"({len(answers)})"
        )
    if set(submission["id"]) != set(answers["id"]):
        raise InvalidSubmission("the submission's ids are not the test image ids")
    guess = submission.sort_values("id").reset_index(drop=True)
    truth = answers.sort_values("id").reset_index(drop=True)
    guess["predicted"] = guess["predicted"].fillna("")
    heights, widths = _sizes(truth)
    predicted = [
        _decode(rle, h, w)
        for rle, h, w in zip(guess["predicted"].to_list(), heights, widths, strict=False)
    ]
    true = [
        _decode(rle, h, w) for rle, h, w in zip(truth[truth_column], heights, widths, strict=False)
    ]
    return float(np.mean([_dice(p, t) for p, t in zip(predicted, true, strict=False)]))
