"""Grader of 3d-object-detection-for-autonomous-vehicles: the Lyft 3D mean average precision.

MLE-bench's grade.py applies the organisers' mAP_evaluation.py to each test sample: for every
IoU threshold 0.50, 0.55, ..., 0.95 and every class present in the sample's ground truth, the
class's predictions are ranked by confidence and greedily matched to true boxes by 3D IoU; the
score is the mean over samples and thresholds of the mean AP over the sample's classes. The
computation is the metric library's :func:`~mle_gym.grading.metrics.detection.lyft_sample_map`.

This module reproduces MLE-bench's reading of the prediction strings, which is stricter in some
ways and looser in others than the library's parser:

* a string is split on single spaces into 9-token boxes ``confidence x y z width length height
  yaw class`` (two consecutive spaces make an empty token, i.e. an error); an empty or blank
  cell, or one that pandas reads as missing (``nan``, ``NA``...), means no box;
* every number must parse, but only the boxes that take part in the evaluation (classes present
  in the sample's ground truth) must have positive sizes and finite values, since MLE-bench
  only builds those boxes.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from mle_gym.authoring import PANDAS_NA_STRINGS, InvalidSubmission
from mle_gym.authoring.metrics import LYFT_IOU_THRESHOLDS, Box3D, lyft_sample_map

ID_COLUMN = "Id"
TARGET = "PredictionString"
TOKENS_PER_BOX = 9


def parse_boxes(text: str, where: str) -> list[Box3D]:
    """Boxes of one prediction string, unchecked; :class:`InvalidSubmission` if malformed."""
    if text in PANDAS_NA_STRINGS or not text.strip():
        return []
    tokens = text.split(" ")
    if len(tokens) % TOKENS_PER_BOX:
        raise InvalidSubmission(
            f"{where}: a prediction string needs {TOKENS_PER_BOX} tokens per box "
            "(confidence x y z width length height yaw class) separated by single spaces, "
            f"but has {len(tokens)} tokens"
        )
    boxes = []
    for start in range(0, len(tokens), TOKENS_PER_BOX):
        chunk = tokens[start : start + TOKENS_PER_BOX]
        try:
            conf, x, y, z, width, length, height, yaw = (float(t) for t in chunk[:8])
        except ValueError:
            raise InvalidSubmission(
                f"{where}: box {start // TOKENS_PER_BOX + 1} has a field that is not a number "
                f"in {' '.join(chunk[:8])!r}"
            ) from None
        boxes.append(Box3D(conf, (x, y, z), (width, length, height), yaw, chunk[8]))
    return boxes


def check_box(box: Box3D, where: str) -> Box3D:
    """The box itself if it can be evaluated (finite numbers, positive sizes)."""
    numbers = (box.score, *box.center, *box.size, box.yaw)
    if not all(math.isfinite(v) for v in numbers):
        raise InvalidSubmission(f"{where}: a {box.name!r} box has a value that is not finite")
    if min(box.size) <= 0:
        raise InvalidSubmission(
            f"{where}: a {box.name!r} box has a size that is not positive "
            f"(width, length, height = {box.size})"
        )
    return box


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Mean over samples and IoU thresholds of the per-sample mean average precision."""
    values: list[float] = []
    for sample_id, truth_text, pred_text in zip(
        answers[ID_COLUMN], answers[TARGET], submission[TARGET], strict=True
    ):
        where = f"{ID_COLUMN} {sample_id}"
        truth = parse_boxes(str(truth_text), "answers")
        classes = {box.name for box in truth}
        predicted = [
            check_box(box, where)
            for box in parse_boxes(str(pred_text), where)
            if box.name in classes
        ]
        truth = [check_box(box, "answers") for box in truth]
        values.extend(lyft_sample_map(truth, predicted, LYFT_IOU_THRESHOLDS))
    return float(np.mean(values))
