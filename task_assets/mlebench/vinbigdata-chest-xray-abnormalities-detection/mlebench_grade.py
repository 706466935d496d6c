"""vinbigdata-chest-xray-abnormalities-detection graded as MLE-bench grades it: COCO
mAP at IoU 0.4 (pycocotools' evaluation, reproduced here in numpy).

MLE-bench's answers are its ``answers.csv``, one row per true box; ours are its
``gold_submission.csv``, the same boxes in the same order grouped into one
``class_id 1.0 x_min y_min x_max y_max ...`` string per image, so the boxes are
unpacked first (the answers' images in file order; an image without a box has no
row in ``answers.csv``).

MLE-bench's grader then needs the ``PredictionString`` and ``image_id`` columns (others
are ignored) and the same *set* of image ids as the answers: the rows are never
counted, so an image may appear on several rows (their boxes all count). Every row's
string is split at single spaces, each piece read by Python's ``float`` (a blank
cell, a doubled or trailing space, or text makes the grader fail) and grouped by six
(the count must be a multiple of six); the class is ``int`` of the first number
(truncated; NaN or infinity fails). Boxes go to pycocotools as MLE-bench hands them
over — ``[x_min, y_min, x_max, y_max]`` where COCO expects ``[x, y, width, height]``,
for the answers and the predictions alike — with areas ``(x_max - x_min) * (y_max -
y_min)`` (boxes outside the area range [0, 1e10] are ignored as COCO ignores them),
annotation ids counted from 0 in file order (the answers image by image), and
pycocotools reads an id of 0 as "unmatched": the very first true box never counts
as found, and the first predicted box never uses up the true box it matches. Per
class present in the answers and per image, the (up to) 100 most confident boxes
are matched greedily at IoU >= 0.4; the score is the mean over the answers' classes
and the 101 recall levels of the interpolated precision (pycocotools' ``stats[0]``);
predicted classes absent from the answers are ignored.

MLE-bench locates each predicted image with ``int(numpy.where(...)[0])``, which
NumPy 2.4 and later refuse for an array, so there it fails on every submission; this
module gives the score it gives with the NumPy versions it was used with.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, require

ID = "image_id"
BOXES = "PredictionString"
_IOU_THRESHOLD = 0.4
_MAX_DETECTIONS = 100
_AREA_RANGE = (0.0, 1e5**2)  # COCO's "all"
_RECALL_LEVELS = np.linspace(0.0, 1.0, int(np.round((1.0 - 0.0) / 0.01)) + 1, endpoint=True)


class _Box(NamedTuple):
    """One annotation as pycocotools holds it (``box`` passed as x, y, w, h)."""

    key: int  # the annotation id
    image: int  # the image's position in the answers
    category: Any
    box: tuple[float, float, float, float]
    area: float
    score: float = 0.0


def _true_boxes(answers: pd.DataFrame) -> tuple[list[Hashable], list[_Box]]:
    """(the answers' images in first-seen order, the true boxes image by image) from
    the gold-submission answers, as MLE-bench's grader builds them from answers.csv."""
    require(ID in answers.columns, f"answers lack {ID!r}")
    require(BOXES in answers.columns, f"answers lack {BOXES!r}")
    rows: list[tuple[Hashable, int, float, float, float, float]] = []
    for image, cell in zip(answers[ID], answers[BOXES], strict=True):
        if not isinstance(cell, str) or not cell.strip():
            continue  # an image without boxes has no row in MLE-bench's answers
        tokens = cell.split()
        require(len(tokens) % 6 == 0, "answers' boxes must come in groups of six numbers")
        for start in range(0, len(tokens), 6):
            cls, _confidence, *coords = tokens[start : start + 6]
            number = float(cls)
            require(number == int(number), "answers' class ids must be integers")
            x0, y0, x1, y1 = (float(v) for v in coords)
            require(not np.isnan([x0, y0, x1, y1]).any(), "answers' boxes must be numbers")
            rows.append((image, int(number), x0, y0, x1, y1))
    images = list(dict.fromkeys(row[0] for row in rows))
    by_image: dict[Hashable, list[tuple[int, float, float, float, float]]] = defaultdict(list)
    for image, category, x_min, y_min, x_max, y_max in rows:
        by_image[image].append((category, x_min, y_min, x_max, y_max))
    truth: list[_Box] = []
    for position, image in enumerate(images):
        for category, x0, y0, x1, y1 in by_image[image]:
            box = (x0, y0, x1, y1)
            truth.append(_Box(len(truth), position, category, box, (x1 - x0) * (y1 - y0)))
    return images, truth


def _predicted_boxes(submission: pd.DataFrame, images: list[Hashable]) -> list[_Box]:
    """The submitted boxes, numbered from 0 in file order."""
    position = {image: i for i, image in enumerate(images)}
    out: list[_Box] = []
    for image, cell in zip(submission[ID], submission[BOXES], strict=True):
        numbers = np.array([float(piece) for piece in cell.split(" ")]).reshape(-1, 6)
        if image not in position:  # MLE-bench's int() of an empty array
            raise TypeError("a predicted image is not among the answers' images")
        for pred in numbers:
            category = int(pred[0])
            area = (pred[4] - pred[2]) * (pred[5] - pred[3])
            box = (pred[2], pred[3], pred[4], pred[5])
            out.append(_Box(len(out), position[image], category, box, area, pred[1]))
    return out


def _ious(dts: list[_Box], gts: list[_Box]) -> np.ndarray:
    """pycocotools' box IoU (its C ``bbIou``: ``fmin``/``fmax``, a pair is 0 only when
    the overlap's width or height is ``<= 0``), detections x true boxes."""
    d = np.array([b.box for b in dts], dtype=np.double).reshape(-1, 4)
    g = np.array([b.box for b in gts], dtype=np.double).reshape(-1, 4)
    with np.errstate(all="ignore"):
        dx, dy, dw, dh = (d[:, None, i] for i in range(4))
        gx, gy, gw, gh = (g[None, :, i] for i in range(4))
        w = np.fmin(dw + dx, gw + gx) - np.fmax(dx, gx)
        h = np.fmin(dh + dy, gh + gy) - np.fmax(dy, gy)
        inter = w * h
        union = dw * dh + gw * gh - inter
        out = inter / union
    return np.where((w <= 0) | (h <= 0), 0.0, out)


def _by_score(dts: list[_Box]) -> list[_Box]:
    order = np.argsort([-b.score for b in dts], kind="mergesort")
    return [dts[i] for i in order[:_MAX_DETECTIONS]]


def _outside(area: float) -> bool:
    return bool(area < _AREA_RANGE[0] or area > _AREA_RANGE[1])


def _evaluate_image(
    gts: list[_Box], dts: list[_Box]
) -> tuple[list[float], np.ndarray, np.ndarray, np.ndarray] | None:
    """pycocotools' ``evaluateImg`` for one image and class, area range "all": (kept
    detections' scores, their matched true-box ids (0 = none), whether each is
    ignored, whether each true box is ignored); None without boxes."""
    if not gts and not dts:
        return None
    dts = _by_score(dts)
    ious = _ious(dts, gts) if gts and dts else np.zeros((0, 0))
    gt_ignore = np.array([int(_outside(b.area)) for b in gts])
    g_order = np.argsort(gt_ignore, kind="mergesort")
    gts = [gts[i] for i in g_order]
    gt_ignore = gt_ignore[g_order] if len(gts) else np.zeros(0)
    gt_taken = np.zeros(len(gts))
    dt_match = np.zeros(len(dts))
    dt_ignore = np.zeros(len(dts))
    if ious.size:
        ious = ious[:, g_order]
        for di, det in enumerate(dts):
            best = min(_IOU_THRESHOLD, 1 - 1e-10)
            m = -1
            for gi in range(len(gts)):
                if gt_taken[gi] > 0:
                    continue
                if m > -1 and gt_ignore[m] == 0 and gt_ignore[gi] == 1:
                    break
                if ious[di, gi] < best:
                    continue
                best = ious[di, gi]
                m = gi
            if m == -1:
                continue
            dt_ignore[di] = gt_ignore[m]
            dt_match[di] = gts[m].key
            gt_taken[m] = det.key
    outside = np.array([_outside(b.area) for b in dts], dtype=bool)
    ignored = np.logical_or(dt_ignore, np.logical_and(dt_match == 0, outside))
    return [b.score for b in dts], dt_match, ignored, gt_ignore


def _precision_curve(evaluated: list[tuple[list[float], Any, Any, Any]]) -> np.ndarray | None:
    """pycocotools' ``accumulate`` for one class: the interpolated precision at the 101
    recall levels, or None when the class has no countable true box."""
    scores = np.concatenate([e[0] for e in evaluated])
    order = np.argsort(-scores, kind="mergesort")
    matched = np.concatenate([e[1] for e in evaluated])[order]
    ignored = np.concatenate([e[2] for e in evaluated])[order]
    n_true = np.count_nonzero(np.concatenate([e[3] for e in evaluated]) == 0)
    if n_true == 0:
        return None
    tp = np.cumsum(np.logical_and(matched, np.logical_not(ignored))).astype(float)
    fp = np.cumsum(np.logical_and(np.logical_not(matched), np.logical_not(ignored))).astype(float)
    recall = tp / n_true
    precision = (tp / (fp + tp + np.spacing(1))).tolist()
    for i in range(len(tp) - 1, 0, -1):
        if precision[i] > precision[i - 1]:
            precision[i - 1] = precision[i]
    curve = np.zeros(len(_RECALL_LEVELS))
    for level, at in enumerate(np.searchsorted(recall, _RECALL_LEVELS, side="left")):
        if at >= len(precision):
            break
        curve[level] = precision[at]
    return curve


def _coco_map(truth: list[_Box], predictions: list[_Box], n_images: int) -> float:
    categories = list(np.unique([b.category for b in truth]))
    wanted = set(categories)
    gts: dict[tuple[int, Any], list[_Box]] = defaultdict(list)
    dts: dict[tuple[int, Any], list[_Box]] = defaultdict(list)
    for b in truth:
        gts[b.image, b.category].append(b)
    for b in predictions:
        if b.category in wanted:
            dts[b.image, b.category].append(b)
    precision = -np.ones((len(_RECALL_LEVELS), len(categories)))
    for k, category in enumerate(categories):
        evaluated = []
        for image in range(n_images):
            result = _evaluate_image(gts.get((image, category), []), dts.get((image, category), []))
            if result is not None:
                evaluated.append(result)
        if not evaluated:
            continue
        curve = _precision_curve(evaluated)
        if curve is not None:
            precision[:, k] = curve
    kept = precision[precision > -1]
    return -1.0 if len(kept) == 0 else float(np.mean(kept))


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """COCO AP at IoU 0.4 of the submitted boxes (pycocotools' ``stats[0]``)."""
    images, truth = _true_boxes(answers)
    for column in (BOXES, ID):
        if column not in submission.columns:
            raise InvalidSubmission(f"the submission has no {column!r} column")
    if set(submission[ID]) != set(images):
        raise InvalidSubmission(f"the submission's {ID!r} values are not the test images")
    with np.errstate(all="ignore"):
        predictions = _predicted_boxes(submission, images)
    return _coco_map(truth, predictions, len(images))
