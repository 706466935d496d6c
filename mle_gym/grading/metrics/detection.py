"""Object-detection metrics: box IoU and the mean average precision variants of MLE-bench.

Three different mAP computations hide behind the competitions' metric names:

* Lyft 3D object detection (``mean-average-precision``): per sample, per class,
  VOC all-point AP of 3-D boxes (rotated footprint x height) at IoU thresholds
  0.5..0.95; see :func:`lyft_3d_map`.
* SIIM COVID-19 (``mean-average-precision``): per class, scikit-learn's
  ``average_precision_score`` over matched 2-D boxes at IoU > 0.5; see
  :func:`siim_covid_map`.
* VinBigData chest X-ray (``mAP-at-IoU>0.4``): COCO evaluation (pycocotools) at
  IoU 0.4; see :func:`coco_map` and :func:`vinbigdata_map`.

Kuzushiji recognition's F1 of labelled points inside boxes (``f1-score``) lives
here too: :func:`kuzushiji_f1`.

Code: the Lyft metric is in :mod:`.detection_lyft`, COCO and VinBigData in
:mod:`.detection_coco`; every name is imported from here, where the metrics are
registered.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from mle_gym.grading.metrics._common import blank_to_empty, is_missing
from mle_gym.grading.metrics._prediction_strings import _number, _tokens
from mle_gym.grading.metrics.detection_coco import (
    COCO_RECALL_LEVELS,
    CocoBox,
    coco_map,
    vinbigdata_map,
)
from mle_gym.grading.metrics.detection_lyft import (
    LYFT_IOU_THRESHOLDS,
    Box3D,
    box3d_iou,
    convex_intersection_area,
    lyft_3d_map,
    lyft_sample_map,
    parse_lyft_boxes,
    voc_average_precision,
)
from mle_gym.grading.metrics.registry import register

# --------------------------------------------------------------------------- 2-D boxes


def box_iou(a: Sequence[float], b: Sequence[float]) -> float:
    """IoU of two boxes ``(x_min, y_min, x_max, y_max)``; 0.0 if the union has no area."""
    iw = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    ih = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = iw * ih
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def step_average_precision(y_true: np.ndarray, scores: np.ndarray) -> float:
    """scikit-learn's ``average_precision_score``: ``sum_k (R_k - R_{k-1}) P_k``.

    ``k`` runs over distinct scores from the highest; ``P_k``/``R_k`` are the
    precision and recall of predicting positive every item scoring at least the
    ``k``-th score, ``R_0 = 0``. ``ValueError`` without positives.
    """
    truth = np.asarray(y_true, dtype=np.float64)
    s = np.asarray(scores, dtype=np.float64)
    if truth.sum() == 0:
        raise ValueError("average precision is undefined without positive items")
    order = np.argsort(-s, kind="mergesort")
    s, truth = s[order], truth[order]
    last = np.r_[np.flatnonzero(s[1:] != s[:-1]), len(s) - 1]
    tps = np.cumsum(truth)[last]
    fps = last + 1 - tps
    precision = tps / (tps + fps)
    recall = tps / tps[-1]
    return float(np.sum(np.diff(np.r_[0.0, recall]) * precision))


class LabelledBox(NamedTuple):
    """A 2-D box with a class label and a confidence (SIIM COVID-19 format)."""

    label: str
    confidence: float
    box: tuple[float, float, float, float]  # x_min, y_min, x_max, y_max


def parse_labelled_boxes(cell: Any) -> list[LabelledBox]:
    """``"label conf x_min y_min x_max y_max ..."`` -> boxes; blank -> ``[]``."""
    out = []
    for label, conf, *coords in _tokens(cell, 6, "PredictionString"):
        values = [_number(v, "PredictionString") for v in coords]
        out.append(
            LabelledBox(
                label,
                _number(conf, "PredictionString"),
                (values[0], values[1], values[2], values[3]),
            )
        )
    return out


def siim_covid_map(
    predictions: Sequence[Sequence[LabelledBox]],
    answers: Sequence[Sequence[LabelledBox]],
    *,
    iou_threshold: float = 0.5,
) -> float:
    """MLE-bench's SIIM COVID-19 mAP: the mean over answer labels of an average precision.

    For each label (every label in the answers, ``none``/``negative`` included) and
    each row, predictions of that label are taken by decreasing confidence; each
    is matched to the not-yet-matched true box of the label with the highest IoU,
    if that IoU exceeds ``iou_threshold``. A match adds the pair
    ``(1, confidence)``, a miss ``(0, confidence)``, each unmatched true box
    ``(1, 0)``, and a row with none of these ``(0, 0)``. The label's AP is
    :func:`step_average_precision` of the pairs. ``predictions[i]``/``answers[i]``:
    the boxes of row ``i``.
    """
    if len(predictions) != len(answers):
        raise ValueError("mean-average-precision: predictions and answers differ in length")
    labels = sorted({b.label for row in answers for b in row})
    if not labels:
        raise ValueError("mean-average-precision: the answers contain no object")
    aps = []
    for label in labels:
        pairs: list[tuple[int, float]] = []
        for pred_row, true_row in zip(predictions, answers, strict=True):
            row_pairs: list[tuple[int, float]] = []
            gts = [b.box for b in true_row if b.label == label]
            matched = [False] * len(gts)
            ranked = sorted(pred_row, key=lambda b: b.confidence, reverse=True)
            for pred in ranked:
                if pred.label != label:
                    continue
                best_iou, best = 0.0, -1
                for i, gt in enumerate(gts):
                    if matched[i]:
                        continue
                    iou = box_iou(pred.box, gt)
                    if iou > best_iou and iou > iou_threshold:
                        best_iou, best = iou, i
                if best >= 0:
                    matched[best] = True
                    row_pairs.append((1, pred.confidence))
                else:
                    row_pairs.append((0, pred.confidence))
            row_pairs.extend([(1, 0.0)] * matched.count(False))
            pairs.extend(row_pairs or [(0, 0.0)])
        truth = np.array([p[0] for p in pairs], dtype=np.float64)
        if truth.all():
            raise ValueError(f"mean-average-precision: label {label!r}: every pair is positive")
        aps.append(step_average_precision(truth, np.array([p[1] for p in pairs])))
    return float(np.mean(aps))


@register("mean-average-precision", lower_is_better=False)
def mean_average_precision(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """Detection mAP of two MLE-bench competitions, chosen from the answers' format.

    ``y_true``/``y_pred``: 1-D object arrays of PredictionStrings, one row per
    sample/image. If the first answer token is a number the rows are Lyft 3-D
    boxes (``conf cx cy cz w l h yaw class``, :func:`lyft_3d_map`), otherwise
    SIIM COVID-19 labelled 2-D boxes (``label conf x_min y_min x_max y_max``,
    :func:`siim_covid_map`). Blank predictions mean no object.
    """
    truth = [blank_to_empty(v) for v in np.ravel(y_true)]
    first = next((row.split()[0] for row in truth if row.strip()), None)
    if first is None:
        raise ValueError("mean-average-precision: the answers contain no object")
    try:
        float(first)
    except ValueError:
        answers = [parse_labelled_boxes(r) for r in truth]
        predictions = [parse_labelled_boxes(blank_to_empty(v)) for v in np.ravel(y_pred)]
        return siim_covid_map(predictions, answers)
    return lyft_3d_map(truth, [blank_to_empty(v) for v in np.ravel(y_pred)])


@register("mAP-at-IoU>0.4", lower_is_better=False)
def map_at_iou_04(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """:func:`vinbigdata_map` with one row per image.

    ``y_true``/``y_pred``: 1-D object arrays of ``class_id score x_min y_min x_max
    y_max`` groups (the answers' score is not read); row ``i`` is image ``i``.
    """
    truth_rows = []
    for image, cell in enumerate(np.ravel(y_true)):
        for cls, _score, *coords in _tokens(cell, 6, "answers"):
            truth_rows.append((image, int(_number(cls, "answers")), *map(float, coords)))
    predictions = list(enumerate(np.ravel(y_pred)))
    return vinbigdata_map(truth_rows, predictions)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- Kuzushiji


def kuzushiji_page_counts(truth: Any, prediction: Any) -> tuple[int, int, int]:
    """``(tp, fp, fn)`` of one page.

    ``truth``: ``"label x y width height ..."``; ``prediction``: ``"label x y ..."``
    (blank = nothing). Each true box, in order, takes the first unused prediction
    of the same label whose point lies strictly inside it.
    """
    if is_missing(truth) and is_missing(prediction):
        return 0, 0, 0
    preds = _tokens(prediction, 3, "labels")
    if is_missing(truth):
        return 0, len(preds), 0
    boxes = _tokens(truth, 5, "answers")
    if not preds:
        return 0, 0, len(boxes)
    p_label = np.array([p[0] for p in preds], dtype=object)
    px = np.array([_number(p[1], "labels") for p in preds])
    py = np.array([_number(p[2], "labels") for p in preds])
    unused = np.ones(len(preds), dtype=bool)
    tp = fn = 0
    for label, x, y, w, h in boxes:
        x0, y0 = float(x), float(y)
        x1, y1 = x0 + float(w), y0 + float(h)
        ok = (x0 < px) & (px < x1) & (y0 < py) & (py < y1) & (p_label == label) & unused
        if ok.any():
            tp += 1
            unused[int(np.argmax(ok))] = False
        else:
            fn += 1
    return tp, int(unused.sum()), fn


def kuzushiji_f1(truth_rows: Sequence[Any], prediction_rows: Sequence[Any]) -> float:
    """Kuzushiji F1: ``2 P R / (P + R)`` from (tp, fp, fn) summed over pages.

    0.0 if nothing is predicted, nothing is true, or P or R is 0.
    """
    tp = fp = fn = 0
    for t, p in zip(truth_rows, prediction_rows, strict=True):
        a, b, c = kuzushiji_page_counts(t, p)
        tp, fp, fn = tp + a, fp + b, fn + c
    if tp + fp == 0 or tp + fn == 0:
        return 0.0
    precision = tp / (tp + fp)
    recall = tp / (tp + fn)
    if precision <= 0 or recall <= 0:
        return 0.0
    return 2 * precision * recall / (precision + recall)


@register("f1-score", lower_is_better=False)
def kuzushiji_f1_metric(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """Kuzushiji recognition F1 (:func:`kuzushiji_f1`).

    ``y_true``: 1-D object array of ``"label x y width height ..."`` per page;
    ``y_pred``: 1-D object array of ``"label x y ..."`` centre points (blank = none).
    """
    return kuzushiji_f1(list(np.ravel(y_true)), list(np.ravel(y_pred)))


__all__ = [
    "COCO_RECALL_LEVELS",
    "LYFT_IOU_THRESHOLDS",
    "Box3D",
    "CocoBox",
    "LabelledBox",
    "box3d_iou",
    "box_iou",
    "coco_map",
    "convex_intersection_area",
    "kuzushiji_f1",
    "kuzushiji_f1_metric",
    "kuzushiji_page_counts",
    "lyft_3d_map",
    "lyft_sample_map",
    "map_at_iou_04",
    "mean_average_precision",
    "parse_labelled_boxes",
    "parse_lyft_boxes",
    "siim_covid_map",
    "step_average_precision",
    "vinbigdata_map",
    "voc_average_precision",
]
