"""Lyft 3D object detection's mean average precision: 3-D boxes with a vertical yaw axis,
their volume IoU, and VOC all-point AP per sample and class (see :mod:`.detection`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from mle_gym.grading.metrics._common import mean_of
from mle_gym.grading.metrics._prediction_strings import _number, _tokens

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
