"""siim-covid19-detection graded as MLE-bench grades it: mean average precision at IoU 0.5.

MLE-bench checks the row count and the ``id`` and ``PredictionString`` columns (others
are ignored), sorts both files by ``id`` and compares the ids position by position. Each
prediction string is stripped and split on whitespace and read six tokens at a time as
``label confidence xmin ymin xmax ymax`` (the five numbers through ``float()``: a bad
number is a rejection, a short last group makes the grader fail, ``nan``/``inf`` pass;
a blank cell is NaN and fails).

The classes are the labels found in the answers (``negative``, ``typical``, ... and
``none``/``opacity``; other submitted labels are ignored), each scored on its own: per
row, the predictions are sorted by confidence (highest first, in place) and each one of
the class is matched greedily to the unmatched true box of the class with the best IoU
above 0.5 (a true positive, else a false positive, both with its confidence); each
unmatched true box adds a positive with confidence 0, and a row with neither adds a
negative with confidence 0. A class whose pairs are all positives makes MLE-bench's
assert fail; otherwise scikit-learn's ``average_precision_score`` of the pairs (which
refuses NaN or infinite confidences) is the class's AP, and the score is their mean.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, require

Box = tuple[Any, Any, Any, Any]
Prediction = tuple[Any, ...]


def iou(box1: Box, box2: Box) -> float:
    """Intersection over union of two ``(xmin, ymin, xmax, ymax)`` boxes, as MLE-bench
    computes it with Python's ``max``/``min`` (argument order kept, which matters for
    NaN); 0 when the union is not positive."""
    left1, top1, right1, bottom1 = box1
    left2, top2, right2, bottom2 = box2
    left = max(left1, left2)
    top = max(top1, top2)
    right = min(right1, right2)
    bottom = min(bottom1, bottom2)
    width = max(0, right - left)
    height = max(0, bottom - top)
    shared = width * height
    area1 = (right1 - left1) * (bottom1 - top1)
    area2 = (right2 - left2) * (bottom2 - top2)
    union = area1 + area2 - shared
    return shared / union if union > 0 else 0.0


def _class_pairs(cls: str, submitted: list[Any], truth: list[Any]) -> list[tuple[int, Any]]:
    """``(is_true_box, confidence)`` pairs of one class over all rows."""
    pairs: list[tuple[int, Any]] = []
    for predictions, answers in zip(submitted, truth, strict=False):
        row: list[tuple[int, Any]] = []
        boxes = [answer[2:] for answer in answers if answer[0] == cls]
        predictions.sort(key=lambda p: p[1], reverse=True)
        used = [False] * len(boxes)
        for prediction in predictions:
            if prediction[0] != cls:
                continue
            best: float = 0
            best_at = -1
            for i, box in enumerate(boxes):
                if used[i]:
                    continue
                overlap = iou(prediction[2:], box)
                if overlap > best and overlap > 0.5:
                    best, best_at = overlap, i
            if best_at != -1:
                row.append((1, prediction[1]))
                used[best_at] = True
            else:
                row.append((0, prediction[1]))
        row.extend([(1, 0)] * used.count(False))
        if not row:
            row.append((0, 0))
        pairs.extend(row)
    return pairs


def mean_average_precision(submitted: list[Any], truth: list[Any]) -> float:
    """Mean over the answers' classes of the average precision of their pairs."""
    from sklearn.metrics import average_precision_score

    precisions = []
    for cls in sorted({p[0] for answers in truth for p in answers}):
        pairs = _class_pairs(cls, submitted, truth)
        labels = [pair[0] for pair in pairs]
        scores = [pair[1] for pair in pairs]
        require(pairs, "a class without pairs")
        require(
            not all(label == 1 for label in labels),
            "every pair of a class is a true box, so its AP is undefined",
        )
        precisions.append(average_precision_score(labels, scores))
    return float(np.mean(precisions)) if precisions else 0.0


def parse(text: Any) -> list[Prediction]:
    """The ``(label, confidence, xmin, ymin, xmax, ymax)`` groups of a prediction string
    (may raise as MLE-bench's parsing does: AttributeError for a non-text cell,
    IndexError for a short last group)."""
    tokens = text.strip().split()
    try:
        return [
            (
                tokens[i],
                float(tokens[i + 1]),
                float(tokens[i + 2]),
                float(tokens[i + 3]),
                float(tokens[i + 4]),
                float(tokens[i + 5]),
            )
            for i in range(0, len(tokens), 6)
        ]
    except ValueError:
        raise InvalidSubmission(
            "a PredictionString holds a value that is not a number where one is expected"
        ) from None


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """mAP at IoU 0.5 over the study- and image-level classes."""
    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; it must have one per test id "
            f"({len(answers)})"
        )
    for column in ("id", "PredictionString"):
        if column not in submission.columns:
            raise InvalidSubmission(f"the submission has no {column!r} column")
    require("id" in answers.columns, "answers lack 'id'")
    require("PredictionString" in answers.columns, "answers lack 'PredictionString'")
    sub = submission.sort_values("id")
    ans = answers.sort_values("id")
    if (sub["id"].values != ans["id"].values).any():
        raise InvalidSubmission("the submission's 'id' values are not the test ids")
    submitted = sub["PredictionString"].apply(parse)
    truth = ans["PredictionString"].apply(parse)
    if len(submitted) == 0:
        return 0.0
    return mean_average_precision(list(submitted), list(truth))
