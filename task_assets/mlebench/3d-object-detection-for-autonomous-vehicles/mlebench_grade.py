"""3d-object-detection-for-autonomous-vehicles graded as MLE-bench grades it: the Lyft 3D mean
average precision, sample by sample.

What MLE-bench's grader does (reproduced here, quirks included):

* the submission must have one row per answers row and ``Id`` and ``PredictionString``
  columns (others are ignored); both files are sorted on ``Id`` and the ids must be equal
  position by position;
* a blank prediction string is an empty one; a cell that is not text (a whole column of
  numbers, say) makes the grader fail. A string is split on single spaces and must have
  9 tokens per box, ``confidence x y z width length height yaw class``; every number
  goes through Python's ``float()`` (``nan``, ``inf``, ``1_0`` are numbers) and the yaw
  through pyquaternion's axis-angle constructor (an infinite yaw fails there). Every row
  of both files is parsed before anything is scored;
* per sample, per IoU threshold 0.50, 0.55, ..., 0.95 and per class present in that
  sample's answers: if the class is predicted, its boxes and the true ones are built
  as the organisers' ``mAP_evaluation.py`` builds them — failing on a NaN value, a size
  that is not positive, or corners whose edges are not perpendicular to within 1e-8
  (which happens for very large or infinite values) — the predictions are ranked by
  confidence (Python's ``sorted``, NaN confidences included) and each takes the true
  box of highest IoU (a NaN IoU wins); it is a hit if that IoU exceeds the threshold and
  the true box was not taken already. The class's AP is the area under the precision
  envelope; a class never predicted scores 0, predicted classes absent from the
  answers are ignored (their boxes are never checked);
* the score is the mean over samples and thresholds of the mean AP over the classes.

The IoU is the footprint intersection area times the height overlap, over the union
volume, clipped to [0, 1], with the same floating-point steps as the organisers' code
(rotation from the quaternion matrix, volumes from ``numpy.prod``). Only the footprint
intersection differs: MLE-bench asks shapely (GEOS), which the project does not depend
on; here it is exact for rectangles with axis-parallel edges and a convex clip
(:func:`convex_intersection_area`) otherwise. That clip can differ from GEOS by ~1e-12
relative (GEOS rounds its intersection points at map coordinates), so an IoU that close
to a threshold may fall the other way: real predictions practically never are, but
contrived ones can be (boxes turned by exactly pi or pi/2 and shifted by a round
fraction of their length).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.parity_kit import (
    GraderFailure,
    InvalidSubmission,
    convex_intersection_area,
    require,
)

ID = "Id"
TARGET = "PredictionString"
TOKENS_PER_BOX = 9
IOU_THRESHOLDS = (0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95)
_EPS = np.finfo(np.float64).eps

Point = tuple[float, float]


@dataclass(frozen=True)
class Parsed:
    """One box of a prediction string as parsed (numbers unchecked)."""

    token: Any
    score: float
    translation: list[float]
    size: list[float]
    rotation: list[np.float64]
    name: str


@dataclass(frozen=True)
class Solid:
    """A box ready for IoUs: volume, vertical extent and ground rectangle."""

    volume: np.floating[Any]
    min_z: float
    max_z: float
    corners: list[Point]  # counter-clockwise
    bounds: tuple[float, float, float, float]  # min x, min y, max x, max y
    axis_parallel: bool


def yaw_rotation(yaw: float) -> list[np.float64]:
    """The unit quaternion ``[w, x, y, z]`` of a rotation by ``yaw`` about the z axis, as
    pyquaternion's ``Quaternion(axis=[0, 0, 1], radians=yaw)`` computes it (a zero yaw is
    taken as no angle at all; an infinite one raises ValueError in ``math.cos``)."""
    angle = yaw or 0.0
    half = angle / 2.0
    w = math.cos(half)
    vector = np.asarray([0.0, 0.0, 1.0]) * math.sin(half)
    return list(np.asarray([float(w), *(float(v) for v in vector)]))


def parse_row(token: Any, cell: Any) -> list[Parsed]:
    """The boxes of one prediction string (AttributeError if the cell is not text)."""
    if cell.strip() == "":
        return []
    tokens = cell.split(" ")
    if len(tokens) % TOKENS_PER_BOX != 0:
        raise InvalidSubmission(
            f"a prediction string needs {TOKENS_PER_BOX} space-separated tokens per box "
            f"(confidence x y z width length height yaw class); one has {len(tokens)}"
        )
    boxes = []
    for start in range(0, len(tokens), TOKENS_PER_BOX):
        chunk = tokens[start : start + TOKENS_PER_BOX]
        score = float(chunk[0])
        translation = [float(t) for t in chunk[1:4]]
        size = [float(t) for t in chunk[4:7]]
        yaw = float(chunk[7])
        boxes.append(Parsed(token, score, translation, size, yaw_rotation(yaw), chunk[8]))
    return boxes


def _cos_sin(rotation: Sequence[np.float64]) -> tuple[np.float64, np.float64]:
    """Entries (0, 0) and (1, 0) of the rotation matrix of the quaternion, as pyquaternion
    computes it (normalised unless within 1e-14 of unit length, then the product of its
    left and right multiplication matrices)."""
    q = np.asarray([float(v) for v in rotation])
    if not abs(1.0 - np.dot(q, q)) < 1e-14:
        norm = math.sqrt(np.dot(q, q))
        if norm > 0:
            q = q / norm
    w, x, y, z = q
    left = np.array([[w, -x, -y, -z], [x, w, -z, y], [y, z, w, -x], [z, -y, x, w]])
    right = np.array([[w, -x, -y, -z], [x, w, z, -y], [y, -z, w, x], [z, y, -x, w]])
    matrix = np.dot(left, right.conj().transpose())[1:][:, 1:]
    return matrix[0, 0], matrix[1, 0]


def _perpendicular(a: Point, b: Point, c: Point) -> bool:
    """``numpy.isclose(dot, 0)`` of the edges ``b - a`` and ``c - a`` (|dot| <= 1e-8)."""
    return bool(abs((b[0] - a[0]) * (c[0] - a[0]) + (b[1] - a[1]) * (c[1] - a[1])) <= 1e-08)


def solid(box: Parsed) -> Solid:
    """The box as the organisers' box class builds it, with its checks (GraderFailure)."""
    require(isinstance(box.token, str), "sample ids must be text")
    require(not any(math.isnan(v) for v in box.translation), "a box position is NaN")
    require(not any(math.isnan(v) for v in box.size), "a box size is NaN")
    require(not any(math.isnan(v) for v in box.rotation), "a box yaw is NaN")
    volume = np.prod(box.size)
    require(all(x > 0 for x in box.size), "box sizes must be positive")
    cos, sin = _cos_sin(box.rotation)
    width, length, height = box.size
    cx, cy, cz = box.translation
    p0 = (cx + length / 2 * cos + width / 2 * sin, cy + length / 2 * sin - width / 2 * cos)
    p1 = (cx + length / 2 * cos - width / 2 * sin, cy + length / 2 * sin + width / 2 * cos)
    p2 = (cx - length / 2 * cos - width / 2 * sin, cy - length / 2 * sin + width / 2 * cos)
    p3 = (cx - length / 2 * cos + width / 2 * sin, cy - length / 2 * sin - width / 2 * cos)
    require(
        _perpendicular(p0, p1, p3)
        and _perpendicular(p1, p0, p2)
        and _perpendicular(p2, p1, p3)
        and _perpendicular(p3, p0, p2),
        "a box's corners are not a rectangle (values too large?)",
    )
    corners = [(float(x), float(y)) for x, y in (p0, p1, p2, p3)]
    if _signed_area(corners) < 0:
        corners.reverse()
    xs = [x for x, _ in corners]
    ys = [y for _, y in corners]
    axis_parallel = len(set(xs)) <= 2 and len(set(ys)) <= 2
    return Solid(
        volume=volume,
        min_z=cz - height / 2,
        max_z=cz + height / 2,
        corners=corners,
        bounds=(min(xs), min(ys), max(xs), max(ys)),
        axis_parallel=axis_parallel,
    )


def _signed_area(points: Sequence[Point]) -> float:
    total = 0.0
    for i, (x1, y1) in enumerate(points):
        x2, y2 = points[(i + 1) % len(points)]
        total += x1 * y2 - x2 * y1
    return total / 2.0


def footprint_overlap(a: Solid, b: Solid) -> float:
    """Area shared by the two ground rectangles."""
    ax0, ay0, ax1, ay1 = a.bounds
    bx0, by0, bx1, by1 = b.bounds
    if ax1 < bx0 or bx1 < ax0 or ay1 < by0 or by1 < ay0:
        return 0.0
    if a.axis_parallel and b.axis_parallel:
        dx = min(ax1, bx1) - max(ax0, bx0)
        dy = min(ay1, by1) - max(ay0, by0)
        return dx * dy if dx > 0 and dy > 0 else 0.0
    # clipped about a corner of ``a`` (an exact shift for nearby points), so that map
    # coordinates in the thousands cost no precision
    x0, y0 = a.corners[0]
    return convex_intersection_area(
        [(x - x0, y - y0) for x, y in a.corners], [(x - x0, y - y0) for x, y in b.corners]
    )


def iou(prediction: Solid, truth: Solid) -> np.floating[Any]:
    """The organisers' IoU of a predicted and a true box."""
    low = max(truth.min_z, prediction.min_z)
    high = min(truth.max_z, prediction.max_z)
    overlap = max(0, high - low) * footprint_overlap(prediction, truth)
    union = prediction.volume + truth.volume - overlap
    ratio = overlap / union  # a numpy division: 0 / 0 is NaN, not an error
    # numpy.clip(ratio, 0, 1), NaN kept
    if ratio < 0:
        return np.float64(0.0)
    if ratio > 1:
        return np.float64(1.0)
    return ratio


def average_precision(recalls: np.ndarray, precisions: np.ndarray) -> Any:
    """Area under the precision envelope (all-point interpolation)."""
    r = np.concatenate(([0.0], recalls, [1.0]))
    p = np.concatenate(([0.0], precisions, [0.0]))
    p = np.maximum.accumulate(p[::-1])[::-1]
    steps = np.where(r[1:] != r[:-1])[0]
    return np.sum((r[steps + 1] - r[steps]) * p[steps + 1])


@dataclass(frozen=True)
class ClassMatches:
    """For one predicted class of a sample: the number of true boxes and, for each
    prediction in rank order, its best IoU and the true box giving it (what the
    organisers' matching looks at, whatever the threshold)."""

    n_truth: int
    best: np.ndarray
    best_at: np.ndarray


def class_matches(truth: list[Parsed], predicted: list[Parsed]) -> ClassMatches:
    true_solids = [solid(box) for box in truth]
    ranked = sorted(predicted, key=lambda box: box.score, reverse=True)
    best = np.zeros(len(ranked))
    best_at = np.zeros(len(ranked), dtype=np.int64)
    for k, box in enumerate(ranked):
        mine = solid(box)
        best[k], best_at[k] = _max_and_argmax([iou(mine, t) for t in true_solids])
    return ClassMatches(len(truth), best, best_at)


def _max_and_argmax(values: list[np.floating[Any]]) -> tuple[Any, int]:
    """``(numpy.max(values), numpy.argmax(values))``: the first NaN if there is one, else
    the first largest value."""
    top, at = values[0], 0
    for j, value in enumerate(values):
        if value != value:
            return value, j
        if value > top:
            top, at = value, j
    return top, at


def class_ap(matches: ClassMatches, threshold: float) -> Any:
    """AP of one class at one IoU threshold (greedy matching in rank order)."""
    n = len(matches.best)
    tp = np.zeros(n)
    fp = np.zeros(n)
    taken = np.zeros(matches.n_truth)
    for k in range(n):
        j = matches.best_at[k]
        if matches.best[k] > threshold and taken[j] == 0:
            tp[k] = 1.0
            taken[j] = 1
        else:
            fp[k] = 1.0
    fp = np.cumsum(fp, axis=0)
    tp = np.cumsum(tp, axis=0)
    recalls = tp / float(matches.n_truth)
    precisions = tp / np.maximum(tp + fp, _EPS)
    return average_precision(recalls, precisions)


def sample_maps(truth: list[Parsed], predicted: list[Parsed]) -> list[np.floating[Any]]:
    """Per IoU threshold, the mean AP over the sample's true classes."""
    names = sorted({box.name for box in truth})
    matches: dict[str, ClassMatches] = {}
    predicted_names = {box.name for box in predicted}
    for name in names:
        if name in predicted_names:
            matches[name] = class_matches(
                [b for b in truth if b.name == name], [b for b in predicted if b.name == name]
            )
    out: list[np.floating[Any]] = []
    for threshold in IOU_THRESHOLDS:
        aps = np.zeros(len(names))
        for i, name in enumerate(names):
            if name in matches:
                aps[i] = class_ap(matches[name], threshold)
        out.append(np.mean(aps) if len(aps) else np.float64("nan"))
    return out


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Mean over samples and IoU thresholds of the per-sample mean average precision."""
    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; it must have one per test sample "
            f"({len(answers)})"
        )
    for column in (ID, TARGET):
        if column not in submission.columns:
            raise InvalidSubmission(f"the submission has no {column!r} column")
    require(ID in answers.columns, f"answers lack {ID!r}")
    require(TARGET in answers.columns, f"answers lack {TARGET!r}")
    sub = submission.sort_values(ID)
    ans = answers.sort_values(ID)
    if np.asarray(sub[ID].values != ans[ID].values).any():
        raise InvalidSubmission(f"the submission's {ID!r} values are not the test samples")
    sub[TARGET] = sub[TARGET].fillna("")
    try:
        predicted = [parse_row(t, c) for t, c in zip(sub[ID], sub[TARGET], strict=True)]
    except AttributeError:
        raise GraderFailure(f"every {TARGET!r} cell must be text") from None
    truth = [parse_row(t, c) for t, c in zip(ans[ID], ans[TARGET], strict=True)]
    with np.errstate(all="ignore"):
        maps = [m for t, p in zip(truth, predicted, strict=True) for m in sample_maps(t, p)]
        return float(np.mean(maps))
