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
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from mle_gym.grading.metrics._common import blank_to_empty, is_missing, mean_of
from mle_gym.grading.metrics.registry import register

# --------------------------------------------------------------------------- 2-D boxes


def box_iou(a: Sequence[float], b: Sequence[float]) -> float:
    """IoU of two boxes ``(x_min, y_min, x_max, y_max)``; 0.0 if the union has no area."""
    iw = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    ih = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = iw * ih
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def _number(token: str, what: str) -> float:
    try:
        value = float(token)
    except ValueError:
        raise ValueError(f"{what}: {token!r} is not a number") from None
    if not math.isfinite(value):
        raise ValueError(f"{what}: {token!r} is not a finite number")
    return value


def _tokens(cell: Any, per_object: int, what: str) -> list[list[str]]:
    """Whitespace-separated tokens of a cell in groups of ``per_object`` (blank = none)."""
    if is_missing(cell):
        return []
    tokens = str(cell).split()
    if len(tokens) % per_object:
        raise ValueError(
            f"{what}: expected {per_object} values per object, got {len(tokens)} value(s) in "
            f"{str(cell)[:60]!r}"
        )
    return [tokens[i : i + per_object] for i in range(0, len(tokens), per_object)]


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


# --------------------------------------------------------------------------- 3-D boxes (Lyft)

LYFT_IOU_THRESHOLDS = (0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95)
"""IoU thresholds averaged by the Lyft 3D object detection score."""


@dataclass(frozen=True)
class Box3D:
    """A 3-D box with vertical yaw axis (Lyft format) and a confidence."""

    score: float
    center: tuple[float, float, float]
    size: tuple[float, float, float]  # width, length, height
    yaw: float
    name: str

    @property
    def volume(self) -> float:
        """``width * length * height``."""
        return self.size[0] * self.size[1] * self.size[2]

    def footprint(self) -> list[tuple[float, float]]:
        """The ground rectangle's corners, counter-clockwise."""
        cx, cy, _ = self.center
        width, length, _ = self.size
        c, s = math.cos(self.yaw), math.sin(self.yaw)
        hl, hw = length / 2, width / 2
        corners = [
            (cx + hl * c + hw * s, cy + hl * s - hw * c),
            (cx + hl * c - hw * s, cy + hl * s + hw * c),
            (cx - hl * c - hw * s, cy - hl * s + hw * c),
            (cx - hl * c + hw * s, cy - hl * s - hw * c),
        ]
        return corners if _signed_area(corners) >= 0 else corners[::-1]


def parse_lyft_boxes(cell: Any) -> list[Box3D]:
    """``"conf cx cy cz width length height yaw class ..."`` (9 values per box) -> boxes.

    Blank -> ``[]``. ``ValueError`` for a wrong token count, non-numbers or a
    size that is not positive (MLE-bench's box class asserts positive sizes).
    """
    out = []
    for conf, *numbers, name in _tokens(cell, 9, "PredictionString"):
        v = [_number(x, "PredictionString") for x in numbers]
        if min(v[3:6]) <= 0:
            raise ValueError(f"PredictionString: box sizes must be positive, got {v[3:6]}")
        out.append(
            Box3D(
                score=_number(conf, "PredictionString"),
                center=(v[0], v[1], v[2]),
                size=(v[3], v[4], v[5]),
                yaw=v[6],
                name=name,
            )
        )
    return out


def _signed_area(poly: Sequence[tuple[float, float]]) -> float:
    total = 0.0
    for i in range(len(poly)):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % len(poly)]
        total += x1 * y2 - x2 * y1
    return total / 2.0


def convex_intersection_area(
    subject: Sequence[tuple[float, float]], clip: Sequence[tuple[float, float]]
) -> float:
    """Area shared by two convex polygons given counter-clockwise (Sutherland-Hodgman)."""
    output = list(subject)
    n = len(clip)
    for i in range(n):
        if not output:
            return 0.0
        ax, ay = clip[i]
        bx, by = clip[(i + 1) % n]
        dx, dy = bx - ax, by - ay
        current, output = output, []
        sx, sy = current[-1]
        s_side = dx * (sy - ay) - dy * (sx - ax)
        for ex, ey in current:
            e_side = dx * (ey - ay) - dy * (ex - ax)
            if e_side >= 0:
                if s_side < 0:
                    t = s_side / (s_side - e_side)
                    output.append((sx + t * (ex - sx), sy + t * (ey - sy)))
                output.append((ex, ey))
            elif s_side >= 0:
                t = s_side / (s_side - e_side)
                output.append((sx + t * (ex - sx), sy + t * (ey - sy)))
            sx, sy, s_side = ex, ey, e_side
    return abs(_signed_area(output)) if len(output) >= 3 else 0.0


def box3d_iou(a: Box3D, b: Box3D) -> float:
    """Volume IoU: footprint intersection area x height overlap over the union volume."""
    dz = min(a.center[2] + a.size[2] / 2, b.center[2] + b.size[2] / 2) - max(
        a.center[2] - a.size[2] / 2, b.center[2] - b.size[2] / 2
    )
    if dz <= 0:
        return 0.0
    inter = convex_intersection_area(a.footprint(), b.footprint()) * dz
    union = a.volume + b.volume - inter
    return min(1.0, max(0.0, inter / union))


def _iou_matrix(preds: Sequence[Box3D], gts: Sequence[Box3D]) -> np.ndarray:
    """IoU of every prediction with every true box; far-apart pairs skipped as 0."""
    out = np.zeros((len(preds), len(gts)))
    if not preds or not gts:
        return out
    pc = np.array([p.center[:2] for p in preds])
    gc = np.array([g.center[:2] for g in gts])
    pr = np.array([math.hypot(p.size[0], p.size[1]) / 2 for p in preds])
    gr = np.array([math.hypot(g.size[0], g.size[1]) / 2 for g in gts])
    dist = np.hypot(pc[:, None, 0] - gc[None, :, 0], pc[:, None, 1] - gc[None, :, 1])
    for i, j in zip(*np.nonzero(dist < pr[:, None] + gr[None, :]), strict=True):
        out[i, j] = box3d_iou(preds[i], gts[j])
    return out


def voc_average_precision(recalls: np.ndarray, precisions: np.ndarray) -> float:
    """All-point interpolated AP: area under the right-maximum precision envelope."""
    r = np.r_[0.0, recalls, 1.0]
    p = np.r_[0.0, precisions, 0.0]
    p = np.maximum.accumulate(p[::-1])[::-1]
    steps = np.flatnonzero(r[1:] != r[:-1])
    return float(np.sum((r[steps + 1] - r[steps]) * p[steps + 1]))


def lyft_sample_map(
    truth: Sequence[Box3D], predictions: Sequence[Box3D], thresholds: Sequence[float]
) -> list[float]:
    """Per IoU threshold, the mean over the sample's true classes of the class AP.

    Predictions of a class, by decreasing score, take the true box of highest IoU;
    it is a hit if that IoU exceeds the threshold and the box was not taken
    already, else a false positive. AP is :func:`voc_average_precision` (0 for a
    class never predicted). Classes only predicted are ignored.
    ``ValueError`` for a sample without true boxes (its mAP would be NaN).
    """
    names = sorted({b.name for b in truth})
    if not names:
        raise ValueError("mean-average-precision: a ground-truth row has no object")
    per_class = []
    for name in names:
        gts = [b for b in truth if b.name == name]
        preds = [b for b in predictions if b.name == name]
        order = np.argsort([-p.score for p in preds], kind="mergesort")
        preds = [preds[i] for i in order]
        per_class.append((len(gts), _iou_matrix(preds, gts)))
    result = []
    eps = np.finfo(np.float64).eps
    for threshold in thresholds:
        aps = []
        for n_gts, ious in per_class:
            if ious.shape[0] == 0:
                aps.append(0.0)
                continue
            taken = np.zeros(n_gts, dtype=bool)
            hits = np.zeros(ious.shape[0])
            for k, row in enumerate(ious):
                j = int(np.argmax(row))
                if row[j] > threshold and not taken[j]:
                    hits[k] = 1.0
                    taken[j] = True
            tp = np.cumsum(hits)
            fp = np.cumsum(1.0 - hits)
            aps.append(voc_average_precision(tp / n_gts, tp / np.maximum(tp + fp, eps)))
        result.append(float(np.mean(aps)))
    return result


def lyft_3d_map(
    truth_rows: Sequence[Any],
    prediction_rows: Sequence[Any],
    thresholds: Sequence[float] = LYFT_IOU_THRESHOLDS,
) -> float:
    """Lyft 3D detection score: mean over samples and thresholds of :func:`lyft_sample_map`.

    ``truth_rows[i]``/``prediction_rows[i]``: the PredictionString of sample ``i``
    (see :func:`parse_lyft_boxes`) or an already parsed list of :class:`Box3D`.
    """
    if len(truth_rows) != len(prediction_rows):
        raise ValueError("mean-average-precision: predictions and answers differ in length")
    values: list[float] = []
    for t, p in zip(truth_rows, prediction_rows, strict=True):
        truth = t if isinstance(t, list) else parse_lyft_boxes(t)
        pred = p if isinstance(p, list) else parse_lyft_boxes(p)
        values.extend(lyft_sample_map(truth, pred, thresholds))
    return mean_of("mean-average-precision", values)


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


# --------------------------------------------------------------------------- COCO (VinBigData)


class CocoBox(NamedTuple):
    """A box for :func:`coco_map`: ``box`` in COCO ``(x, y, width, height)`` order.

    ``area`` (used only to ignore boxes outside the ``[0, 1e10]`` area range) and
    ``score`` (predictions only) as pycocotools reads them.
    """

    image: Hashable
    category: Hashable
    box: tuple[float, float, float, float]
    area: float
    score: float = 0.0


COCO_RECALL_LEVELS = np.linspace(0.0, 1.0, 101)
"""The 101 recall levels at which COCO samples the precision envelope."""
_AREA_ALL = (0.0, 1e10)


def _coco_ious(dts: Sequence[CocoBox], gts: Sequence[CocoBox]) -> np.ndarray:
    """pycocotools' bbox IoU matrix (detections x ground truths), boxes as ``x, y, w, h``."""
    d = np.array([b.box for b in dts], dtype=np.float64).reshape(-1, 4)
    g = np.array([b.box for b in gts], dtype=np.float64).reshape(-1, 4)
    w = np.minimum(d[:, None, 0] + d[:, None, 2], g[None, :, 0] + g[None, :, 2]) - np.maximum(
        d[:, None, 0], g[None, :, 0]
    )
    h = np.minimum(d[:, None, 1] + d[:, None, 3], g[None, :, 1] + g[None, :, 3]) - np.maximum(
        d[:, None, 1], g[None, :, 1]
    )
    inter = np.where((w > 0) & (h > 0), w * h, 0.0)
    union = (d[:, 2] * d[:, 3])[:, None] + (g[:, 2] * g[:, 3])[None, :] - inter
    out = np.zeros_like(inter)
    np.divide(inter, union, out=out, where=inter > 0)
    return out


def coco_map(
    truth: Sequence[CocoBox],
    predictions: Sequence[CocoBox],
    *,
    iou_threshold: float = 0.4,
    max_detections: int = 100,
) -> float:
    """COCO box AP at one IoU threshold (pycocotools ``stats[0]`` with ``iouThrs=[t]``).

    Per category of the answers and image, up to ``max_detections`` predictions
    (by decreasing score) are matched greedily to true boxes with
    ``IoU >= t``; over all images the precision envelope is sampled at 101 recall
    levels and the result is the mean over categories and levels.

    Annotation ids are the positions in ``truth`` and ``predictions`` (0-based), and
    pycocotools reads an id of 0 as "no match": the first true box can never
    count as matched and the first prediction never marks its true box as taken.
    This is reproduced because MLE-bench's VinBigData grader numbers boxes from 0.
    ``ValueError`` for a prediction on an image absent from the answers.
    """
    images = list(dict.fromkeys(b.image for b in truth))
    known = set(images)
    try:
        categories = sorted({b.category for b in truth})  # type: ignore[type-var]
    except TypeError:
        raise ValueError("mAP: category ids cannot be ordered (mixed types)") from None
    wanted = set(categories)
    gt_index: dict[tuple[Hashable, Hashable], list[int]] = defaultdict(list)
    dt_index: dict[tuple[Hashable, Hashable], list[int]] = defaultdict(list)
    for i, b in enumerate(truth):
        gt_index[b.image, b.category].append(i)
    for i, b in enumerate(predictions):
        if b.image not in known:
            raise ValueError(f"mAP: prediction for image {b.image!r}, which has no answer row")
        if b.category in wanted:
            dt_index[b.image, b.category].append(i)
    low, high = _AREA_ALL
    curves: list[np.ndarray] = []
    for category in categories:
        scores: list[float] = []
        matched: list[np.ndarray] = []
        ignored: list[np.ndarray] = []
        gt_ignored: list[np.ndarray] = []
        for image in images:
            g_ids = gt_index.get((image, category), [])
            d_ids = dt_index.get((image, category), [])
            if not g_ids and not d_ids:
                continue
            g_ignore = np.array([not (low <= truth[i].area <= high) for i in g_ids], dtype=bool)
            g_order = np.argsort(g_ignore, kind="mergesort")
            g_ids = [g_ids[i] for i in g_order]
            g_ignore = g_ignore[g_order]
            d_order = np.argsort([-predictions[i].score for i in d_ids], kind="mergesort")
            d_ids = [d_ids[i] for i in d_order[:max_detections]]
            ious = _coco_ious([predictions[i] for i in d_ids], [truth[i] for i in g_ids])
            gt_taken = np.zeros(len(g_ids))  # id of the matching detection, 0 = free
            dt_match = np.zeros(len(d_ids))  # id of the matched true box, 0 = none
            dt_ignore = np.zeros(len(d_ids), dtype=bool)
            if len(g_ids) and len(d_ids):
                for di in range(len(d_ids)):
                    best_iou = min(iou_threshold, 1 - 1e-10)
                    m = -1
                    for gi in range(len(g_ids)):
                        if gt_taken[gi] > 0:
                            continue
                        if m > -1 and not g_ignore[m] and g_ignore[gi]:
                            break
                        if ious[di, gi] < best_iou:
                            continue
                        best_iou = ious[di, gi]
                        m = gi
                    if m == -1:
                        continue
                    dt_ignore[di] = g_ignore[m]
                    dt_match[di] = g_ids[m]
                    gt_taken[m] = d_ids[di]
            outside = np.array(
                [not (low <= predictions[i].area <= high) for i in d_ids], dtype=bool
            )
            dt_ignore |= (dt_match == 0) & outside
            scores.extend(predictions[i].score for i in d_ids)
            matched.append(dt_match)
            ignored.append(dt_ignore)
            gt_ignored.append(g_ignore)
        if not gt_ignored:
            continue
        n_true = int(np.count_nonzero(~np.concatenate(gt_ignored)))
        if n_true == 0:
            continue
        order = np.argsort(-np.asarray(scores, dtype=np.float64), kind="mergesort")
        hit = np.concatenate(matched)[order] != 0
        skip = np.concatenate(ignored)[order]
        tp = np.cumsum(hit & ~skip).astype(np.float64)
        fp = np.cumsum(~hit & ~skip).astype(np.float64)
        q = np.zeros(len(COCO_RECALL_LEVELS))
        if len(tp):
            recall = tp / n_true
            precision = tp / (tp + fp + np.spacing(1))
            precision = np.maximum.accumulate(precision[::-1])[::-1]
            idx = np.searchsorted(recall, COCO_RECALL_LEVELS, side="left")
            inside = idx < len(tp)
            q[inside] = precision[idx[inside]]
        curves.append(q)
    if not curves:
        raise ValueError("mAP: the answers contain no box")
    return float(np.mean(np.concatenate(curves)))


def vinbigdata_map(
    truth_rows: Sequence[tuple[Hashable, Any, float, float, float, float]],
    prediction_rows: Sequence[tuple[Hashable, Any]],
    *,
    iou_threshold: float = 0.4,
) -> float:
    """VinBigData score: :func:`coco_map` at IoU 0.4 fed the way MLE-bench's grader feeds it.

    ``truth_rows``: ``(image_id, class_id, x_min, y_min, x_max, y_max)`` per true
    box, in answers-file order; ``prediction_rows``: ``(image_id,
    PredictionString)`` per submission row in file order, the string holding
    ``class_id score x_min y_min x_max y_max`` per box (blank = no box).

    The reference grader hands ``[x_min, y_min, x_max, y_max]`` to pycocotools,
    which reads it as ``[x, y, width, height]``; boxes are passed the same way
    here so that scores agree. Areas are ``(x_max - x_min) * (y_max - y_min)``.
    """
    truth = [
        CocoBox(img, int(cls), (x0, y0, x1, y1), (x1 - x0) * (y1 - y0))
        for img, cls, x0, y0, x1, y1 in (
            (r[0], r[1], *(float(v) for v in r[2:6])) for r in truth_rows
        )
    ]
    predictions = []
    for image, cell in prediction_rows:
        for cls, score, *coords in _tokens(cell, 6, "PredictionString"):
            x0, y0, x1, y1 = (_number(v, "PredictionString") for v in coords)
            predictions.append(
                CocoBox(
                    image,
                    int(_number(cls, "PredictionString")),
                    (x0, y0, x1, y1),
                    (x1 - x0) * (y1 - y0),
                    _number(score, "PredictionString"),
                )
            )
    return coco_map(truth, predictions, iou_threshold=iou_threshold)


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
