"""kuzushiji-recognition graded as MLE-bench grades it: the Kuzushiji F1 score.

MLE-bench's grader wants as many rows as the answers and the columns ``image_id`` and
``labels`` (others are ignored). Both frames are sorted by ``image_id``, which must then
equal the answers' position by position. Every non-blank ``labels`` cell is split on
single spaces; the piece count must be a multiple of three and each X and Y piece must
pass Python's ``float()`` (so a double space, a leading space or a non-text cell makes
it fail). Each page is then scored: a true box ``label x y w h`` is found by the first
unused prediction ``label X Y`` with the same label and ``x < X < x + w``,
``y < Y < y + h`` (numpy's float parsing); unmatched predictions are false positives,
unmatched boxes false negatives; a page without answers counts every prediction as a
false positive, a blank prediction every box as a false negative. The counts are pooled
over pages into one F1 (0 when precision or recall is 0 or undefined).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission

_PRED_FIELDS = 3  # label X Y
_TRUTH_FIELDS = 5  # label x y width height


def _check_prediction(cell: Any) -> None:
    """MLE-bench's format check of one submitted ``labels`` cell."""
    if pd.isna(cell):
        return
    pieces = cell.split(" ")  # a cell that is not text fails here
    if len(pieces) % _PRED_FIELDS:
        raise InvalidSubmission("a labels cell must hold 'label X Y' triples")
    for piece in pieces[1::_PRED_FIELDS]:
        float(piece)  # ValueError: MLE-bench's check crashes the same way
    for piece in pieces[2::_PRED_FIELDS]:
        float(piece)


def _page_counts(pred: Any, truth: Any) -> tuple[int, int, int]:
    """``(true positives, false positives, false negatives)`` of one page."""
    if pd.isna(truth):
        if pd.isna(pred):
            return 0, 0, 0
        return 0, len(pred.split(" ")) // _PRED_FIELDS, 0
    if pd.isna(pred):
        return 0, 0, len(truth.split(" ")) // _TRUTH_FIELDS
    boxes = truth.split(" ")
    if len(boxes) % _TRUTH_FIELDS:
        raise ValueError("an answers labels cell is malformed")
    box_label = np.array(boxes[0::_TRUTH_FIELDS])
    left = np.array(boxes[1::_TRUTH_FIELDS]).astype(float)
    top = np.array(boxes[2::_TRUTH_FIELDS]).astype(float)
    right = left + np.array(boxes[3::_TRUTH_FIELDS]).astype(float)
    bottom = top + np.array(boxes[4::_TRUTH_FIELDS]).astype(float)
    points = pred.split(" ")
    if len(points) % _PRED_FIELDS:
        raise ValueError("a prediction string is malformed")
    point_label = np.array(points[0::_PRED_FIELDS])
    px = np.array(points[1::_PRED_FIELDS]).astype(float)
    py = np.array(points[2::_PRED_FIELDS]).astype(float)
    free = np.ones(len(point_label), dtype=bool)
    tp = fn = 0
    for x0, x1, y0, y1, label in zip(left, right, top, bottom, box_label, strict=False):
        hit = (x0 < px) & (x1 > px) & (y0 < py) & (y1 > py) & (point_label == label) & free
        if hit.sum() == 0:
            fn += 1
        else:
            tp += 1
            free[np.argmax(hit)] = False
    return tp, int(free.sum()), fn


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """The F1 score of the submitted character points over all pages."""
    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; it must have one per test image "
            f"({len(answers)})"
        )
    if not {"image_id", "labels"} <= set(submission.columns):
        raise InvalidSubmission("the submission needs the columns 'image_id' and 'labels'")
    sub = submission.sort_values("image_id").reset_index(drop=True)
    ans = answers.sort_values("image_id").reset_index(drop=True)
    if not all(sub["image_id"] == ans["image_id"]):
        raise InvalidSubmission("the submission's image_id values are not the test images")
    for cell in sub["labels"]:
        _check_prediction(cell)
    if not all(sub["image_id"].values == ans["image_id"].values):
        raise ValueError("image ids differ")
    tp = fp = fn = 0
    for pred, truth in zip(sub["labels"].values, ans["labels"].values, strict=False):
        t, f, n = _page_counts(pred, truth)
        tp, fp, fn = tp + t, fp + f, fn + n
    if tp + fp == 0 or tp + fn == 0:
        return 0.0
    precision = tp / (tp + fp)
    recall = tp / (tp + fn)
    if precision > 0 and recall > 0:
        return float(2 * precision * recall / (precision + recall))
    return 0.0
